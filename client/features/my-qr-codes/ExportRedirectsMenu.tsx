import { Trans } from '@lingui/react/macro';
import { Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconFileExport } from '@tabler/icons-react';
import { REDIRECT_EXPORT_FORMATS, redirectExportFiles } from '../../../src/qr/redirect-export.schema';
import { translateShared } from '../../i18n/shared-messages';
import { useRedirectExport } from './use-redirect-export';

/**
 * The way out: every dynamic code's short link → destination as a file another server can serve, so
 * the short domain can move without reprinting. A Mantine menu: Enter/Space/↓ open it, arrows move.
 */
export function ExportRedirectsMenu() {
  const { download, pending } = useRedirectExport();
  return (
    <Menu position="bottom-end" width={300} withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconFileExport size={18} aria-hidden />}
          rightSection={<IconChevronDown size={16} aria-hidden />}
          loading={pending !== null}
        >
          <Trans>Export redirects</Trans>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Trans>Re-host your short links elsewhere</Trans>
        </Menu.Label>
        {REDIRECT_EXPORT_FORMATS.map((format) => {
          const file = redirectExportFiles[format];
          return (
            <Menu.Item key={format} onClick={() => void download(format)}>
              <Text component="span" display="block" size="sm" fw={500}>
                {translateShared(file.label)}
              </Text>
              <Text component="span" display="block" size="xs" c="dimmed">
                {file.fileName}: {translateShared(file.description)}
              </Text>
            </Menu.Item>
          );
        })}
        <Menu.Divider />
        <Text size="xs" c="dimmed" px="sm" pb="xs">
          <Trans>
            Codes that show a page (text, Wi-Fi, vCard, event, e-mail, SMS, phone) or ask for a password are
            left out, and listed as comments in the server files. Rules, schedules and limits do not travel:
            each code redirects to its own link, and the file names what it leaves behind.
          </Trans>
        </Text>
      </Menu.Dropdown>
    </Menu>
  );
}
