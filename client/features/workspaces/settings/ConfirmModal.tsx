import { Trans } from '@lingui/react/macro';
import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';

export interface ConfirmModalProps {
  title: string;
  /** What happens, in words: shown above the buttons. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  /** The server's refusal, shown in the dialog (the dialog stays open). */
  error?: string | null;
  /** False while the dialog's own check (a typed name, a choice) is not met. */
  canConfirm?: boolean;
  danger?: boolean;
}

/** Asks before a change that cannot be taken back; the server's refusal shows inside it. */
export function ConfirmModal({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  pending,
  error,
  canConfirm = true,
  danger = true,
}: ConfirmModalProps) {
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (canConfirm && !pending) onConfirm();
        }}
      >
        <Stack gap="md">
          {children}
          {error && <ErrorAlert>{error}</ErrorAlert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" color={danger ? 'red' : undefined} disabled={!canConfirm} loading={pending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
