import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ShortDomain } from '../../../../src/qr/short-domain.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { useRefreshDomains } from './DomainFormModal';

/**
 * Asks before deleting a domain. The server refuses one that codes still use (409 DOMAIN_IN_USE, whose
 * message says how many): said here, in the dialog, which stays open.
 */
export function DeleteDomainModal({ domain, onClose }: { domain: ShortDomain; onClose: () => void }) {
  const { t } = useLingui();
  const hostname = domain.hostname;
  const refresh = useRefreshDomains();
  const remove = trpc.admin.deleteDomain.useMutation({
    onSuccess: async () => {
      notify.success(t`Domain deleted`, domain.hostname);
      await refresh();
      onClose();
    },
    // The count may have changed since the list was loaded: the table shows the server's.
    onError: () => void refresh(),
  });
  return (
    <Modal opened onClose={onClose} title={t`Delete ${hostname}?`} centered>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            Links on {hostname} stop answering, and no code can choose it any more. A domain that codes still
            use cannot be deleted: give them another domain first.
          </Trans>
        </Text>
        {remove.error && (
          <ErrorAlert>{apiError(remove.error, t`The domain could not be deleted`).message}</ErrorAlert>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} data-autofocus>
            <Trans>Cancel</Trans>
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: domain.id })}>
            <Trans>Delete domain</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
