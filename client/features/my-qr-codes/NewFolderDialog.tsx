import { Button, Group, Modal, TextInput } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { FOLDER_NAME_MAX } from '../../../src/qr/qr.schema';

export function NewFolderDialog({
  opened,
  onClose,
  onCreate,
  pending,
}: {
  opened: boolean;
  onClose: () => void;
  onCreate: (name: string) => Promise<unknown>;
  pending: boolean;
}) {
  const { t } = useLingui();
  const [name, setName] = useState('');
  const trimmed = name.trim();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    // Blank (trimmed) names are ignored.
    if (!trimmed) return;
    await onCreate(trimmed);
    setName('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t`New Folder`} centered>
      <form onSubmit={(e) => void submit(e)}>
        <TextInput
          label={t`Folder name`}
          placeholder={t`e.g. Restaurant menus`}
          value={name}
          maxLength={FOLDER_NAME_MAX}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={!trimmed} loading={pending}>
            <Trans>Create Folder</Trans>
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
