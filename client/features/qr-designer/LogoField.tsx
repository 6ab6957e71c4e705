import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  FileButton,
  Group,
  Image,
  Progress,
  Slider,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { LOGO_SIZE, logoUrl, type Customization } from '../../../src/qr/customization';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { workspaceHeaders } from '../../lib/trpc';

export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_ACCEPT = 'image/png,image/jpeg,image/svg+xml';
const ACCEPTED_TYPES = LOGO_ACCEPT.split(',');
const ACCEPTED_EXTENSIONS = /\.(png|jpe?g|svg)$/i;

type Logo = NonNullable<Customization['logo']>;
type Update = (update: (c: Customization) => Customization) => void;

/** Logo files: at most 5MB; JPG, PNG or SVG. Returns the toast to show, or null when the file may be sent. */
export function checkLogoFile(file: File): { title: MessageDescriptor; message: MessageDescriptor } | null {
  if (file.size > LOGO_MAX_BYTES)
    return { title: msg`File Too Large`, message: msg`Logo image must be less than 5MB` };
  const typeOk = file.type ? ACCEPTED_TYPES.includes(file.type) : ACCEPTED_EXTENSIONS.test(file.name);
  if (!typeOk)
    return { title: msg`Invalid File Type`, message: msg`Only JPG, PNG and SVG files are allowed` };
  return null;
}

/** POST /api/upload/logo (multipart field `logo`); the browser sets the multipart Content-Type. */
export async function uploadLogo(file: File): Promise<string> {
  const body = new FormData();
  body.append('logo', file);
  // Stored for the current workspace (X-Workspace): its members can use the logo.
  const response = await fetch('/api/upload/logo', {
    method: 'POST',
    body,
    credentials: 'include',
    headers: workspaceHeaders(),
  });
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  const json = (await response.json()) as { url?: unknown };
  if (typeof json.url !== 'string' || json.url === '') throw new Error('The upload answered without a URL');
  return json.url;
}

export function LogoField({ logo, onChange }: { logo: Customization['logo']; onChange: Update }) {
  const { t } = useLingui();
  const [uploading, setUploading] = useState(false);
  const resetRef = useRef<() => void>(null);
  const setLogo = (patch: Partial<Logo>) =>
    onChange((c) => (c.logo ? { ...c, logo: { ...c.logo, ...patch } } : c));

  const handleFile = async (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    const problem = checkLogoFile(file);
    if (problem) {
      notify.error(t(problem.title), t(problem.message));
      return;
    }
    setUploading(true);
    try {
      const url = await uploadLogo(file);
      // Only if the logo is still switched on: switching it off meanwhile wins.
      setLogo({ url });
      notify.success(t`Logo Uploaded`, t`Your logo now sits in the centre of the code.`);
    } catch {
      notify.error(t`Upload Failed`, t`Failed to upload logo. Please try again.`);
    } finally {
      setUploading(false);
    }
  };

  const urlCheck = logo ? logoUrl.safeParse(logo.url) : null;
  const urlError = urlCheck && !urlCheck.success ? urlCheck.error.issues[0]?.message : undefined;
  const hasImage = !!logo?.url.trim() && !urlError;
  const logoSize = logo?.size;

  return (
    <Stack gap="sm">
      <Switch
        label={t`Add a logo`}
        description={t`Shown in the centre; error correction is raised to High so the code still scans.`}
        checked={!!logo}
        onChange={(event) => {
          const enabled = event.currentTarget.checked;
          onChange((c) => {
            if (!enabled) {
              const { logo: _removed, ...rest } = c;
              return rest;
            }
            return { ...c, logo: { url: '', size: LOGO_SIZE.default } };
          });
        }}
      />
      {logo && (
        <>
          <Group gap="sm" wrap="nowrap" align="center">
            <FileButton
              onChange={(file) => void handleFile(file)}
              accept={LOGO_ACCEPT}
              resetRef={resetRef}
              disabled={uploading}
            >
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  size="sm"
                  leftSection={<IconUpload size={16} aria-hidden />}
                  loading={uploading}
                  loaderProps={{ type: 'dots' }}
                >
                  <Trans>Upload image</Trans>
                </Button>
              )}
            </FileButton>
            {hasImage ? (
              <Image
                src={logo.url}
                alt={t`Current logo`}
                w={36}
                h={36}
                fit="contain"
                radius="sm"
                bd="1px solid var(--mantine-color-default-border)"
              />
            ) : (
              <Text size="xs" c="dimmed">
                <Trans>JPG, PNG or SVG, up to 5MB</Trans>
              </Text>
            )}
          </Group>
          {uploading && (
            <Stack gap={4} role="status">
              <Progress value={100} animated striped size="sm" />
              <Text size="xs" c="dimmed">
                <Trans>Uploading logo…</Trans>
              </Text>
            </Stack>
          )}
          <TextInput
            label={t`Or logo URL`}
            placeholder="https://example.com/logo.png"
            size="sm"
            value={logo.url}
            onChange={(event) => setLogo({ url: event.currentTarget.value })}
            error={urlError ? translateShared(urlError) : undefined}
            maxLength={2048}
            autoComplete="off"
          />
          <div>
            <Text size="sm" fw={500} id="logo-size-label">
              <Trans>Logo size: {logoSize}</Trans>
            </Text>
            <Slider
              aria-labelledby="logo-size-label"
              thumbLabel={t`Logo size`}
              min={LOGO_SIZE.min}
              max={LOGO_SIZE.max}
              step={LOGO_SIZE.step}
              value={logo.size}
              onChange={(size) => setLogo({ size })}
              marks={[
                { value: LOGO_SIZE.min, label: String(LOGO_SIZE.min) },
                { value: 50, label: '50' },
                { value: LOGO_SIZE.max, label: String(LOGO_SIZE.max) },
              ]}
              mb="lg"
              mx={6}
            />
          </div>
        </>
      )}
    </Stack>
  );
}
