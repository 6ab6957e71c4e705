import { Trans, useLingui } from '@lingui/react/macro';
import { Menu, SimpleGrid, Text } from '@mantine/core';
import {
  IconAddressBook,
  IconAlignLeft,
  IconCalendarEvent,
  IconDots,
  IconFileTypePdf,
  IconLink,
  IconMail,
  IconMessage,
  IconPhone,
  IconPhoto,
  IconUsers,
  IconVideo,
  IconWifi,
  type Icon,
} from '@tabler/icons-react';
import { moreQrTypes, primaryQrTypes, qrTypeLabels, type QrType } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';
import classes from './qr-designer.module.css';

const typeIcons: Record<QrType, Icon> = {
  url: IconLink,
  email: IconMail,
  text: IconAlignLeft,
  sms: IconMessage,
  wifi: IconWifi,
  vcard: IconAddressBook,
  event: IconCalendarEvent,
  social: IconUsers,
  pdf: IconFileTypePdf,
  video: IconVideo,
  image: IconPhoto,
  phone: IconPhone,
};

interface TypePickerProps {
  value: QrType;
  onChange: (type: QrType) => void;
  /** Editing: the tiles stay focusable but any click calls onLockedClick instead. */
  locked?: boolean;
  onLockedClick?: () => void;
}

/** Eight tiles: seven types and More (Social, PDF, Video, Image, Phone in a menu). */
export function TypePicker({ value, onChange, locked = false, onLockedClick }: TypePickerProps) {
  const { t } = useLingui();
  const selectedLabel = translateShared(qrTypeLabels[value]);
  const moreSelected = (moreQrTypes as readonly QrType[]).includes(value);
  const MoreIcon = moreSelected ? typeIcons[value] : IconDots;
  const select = (type: QrType) => {
    if (locked) onLockedClick?.();
    else if (type !== value) onChange(type);
  };

  const moreTile = (
    <button
      type="button"
      className={classes.tile}
      aria-pressed={moreSelected}
      aria-disabled={locked || undefined}
      aria-label={moreSelected ? t`More types (${selectedLabel} selected)` : t`More types`}
      onClick={locked ? onLockedClick : undefined}
    >
      <MoreIcon size={22} stroke={1.6} aria-hidden />
      <span className={classes.tileLabel}>
        {moreSelected ? selectedLabel : t({ message: 'More', context: 'tile: more QR code types' })}
      </span>
    </button>
  );

  return (
    <div role="group" aria-label={t`QR code type`}>
      <SimpleGrid cols={4} spacing="xs" verticalSpacing="xs">
        {primaryQrTypes.map((type) => {
          const TypeIcon = typeIcons[type];
          return (
            <button
              key={type}
              type="button"
              className={classes.tile}
              aria-pressed={value === type}
              aria-disabled={locked || undefined}
              onClick={() => select(type)}
            >
              <TypeIcon size={22} stroke={1.6} aria-hidden />
              <span className={classes.tileLabel}>{translateShared(qrTypeLabels[type])}</span>
            </button>
          );
        })}
        {locked ? (
          moreTile
        ) : (
          <Menu position="bottom-end" shadow="md" width={180}>
            <Menu.Target>{moreTile}</Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>
                <Trans>More types</Trans>
              </Menu.Label>
              {moreQrTypes.map((type) => {
                const TypeIcon = typeIcons[type];
                return (
                  <Menu.Item
                    key={type}
                    leftSection={<TypeIcon size={16} aria-hidden />}
                    onClick={() => select(type)}
                    aria-current={value === type ? 'true' : undefined}
                    fw={value === type ? 700 : undefined}
                  >
                    {translateShared(qrTypeLabels[type])}
                  </Menu.Item>
                );
              })}
            </Menu.Dropdown>
          </Menu>
        )}
      </SimpleGrid>
      {locked && (
        <Text size="xs" c="dimmed" mt={6}>
          <Trans>The type of a saved QR code cannot be changed.</Trans>
        </Text>
      )}
    </div>
  );
}
