import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCrown } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { DEFAULT_FREE_LIMIT, effectiveTier, limitDialogText, upgradeOffer } from '../../../src/plans';
import { translateShared } from '../../i18n/shared-messages';
import { useCurrentUser } from '../auth/use-auth';
import type { LimitInfo } from './limit-info';

/** 'QR Code Limit Reached' with Maybe Later and the next plan up (Upgrade to Pro, or Premium for Pro; → /upgrade). */
export function LimitDialog({
  opened,
  limit,
  onClose,
}: {
  opened: boolean;
  /** Kept after closing so the text does not change while the dialog fades out. */
  limit: LimitInfo | null;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const now = new Date();
  const tier = user ? effectiveTier(user, now) : 'free';
  const offer = user ? upgradeOffer(user, now) : null;
  const n = limit?.currentCount ?? DEFAULT_FREE_LIMIT;
  const max = limit?.maxCount ?? DEFAULT_FREE_LIMIT;
  return (
    <Modal opened={opened} onClose={onClose} title={t`QR Code Limit Reached`} centered size="md">
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size="xl" radius="xl" variant="light" color="grape" aria-hidden>
            <IconCrown size={24} />
          </ThemeIcon>
          <Text size="sm">{translateShared(limitDialogText(n, max, tier))}</Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            <Trans>Maybe Later</Trans>
          </Button>
          <Button
            variant="gradient"
            gradient={{ from: 'blue', to: 'grape' }}
            leftSection={<IconCrown size={18} aria-hidden />}
            onClick={() => {
              onClose();
              void navigate({ to: '/upgrade' });
            }}
          >
            {offer ? translateShared(offer.label) : t`Upgrade to Pro`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
