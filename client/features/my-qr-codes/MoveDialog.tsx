import { Modal, NavLink, Stack, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconCheck, IconFolder, IconHome } from '@tabler/icons-react';
import type { Folder, QrCode } from '../../../src/qr/qr.schema';

/** Root and every folder, with a checkmark on the code's current location. */
export function MoveDialog({
  code,
  folders,
  onClose,
  onMove,
}: {
  code: QrCode | null;
  folders: Folder[];
  onClose: () => void;
  onMove: (folderId: number | null) => void;
}) {
  const { t } = useLingui();
  const places: { id: number | null; name: string }[] = [
    { id: null, name: t({ message: 'Root', comment: 'The top level of My QR Codes, outside any folder' }) },
    ...folders,
  ];
  const codeName = code?.name ?? '';
  return (
    <Modal opened={code !== null} onClose={onClose} title={t`Move "${codeName}"`} centered>
      <Stack gap={4}>
        {folders.length === 0 && (
          <Text size="sm" c="dimmed" mb="xs">
            <Trans>You have no folders yet. Create one with New Folder.</Trans>
          </Text>
        )}
        {places.map((place) => {
          const current = code?.folderId === place.id;
          return (
            <NavLink
              key={place.id ?? 'root'}
              component="button"
              label={place.name}
              leftSection={
                place.id === null ? <IconHome size={18} aria-hidden /> : <IconFolder size={18} aria-hidden />
              }
              rightSection={current ? <IconCheck size={18} aria-label={t`Current location`} /> : null}
              active={current}
              aria-current={current ? 'true' : undefined}
              onClick={() => (current ? onClose() : onMove(place.id))}
            />
          );
        })}
      </Stack>
    </Modal>
  );
}
