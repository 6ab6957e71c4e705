import { Trans, useLingui } from '@lingui/react/macro';
import { Button, EmptyState } from '@mantine/core';
import { IconPlus, IconQrcode, IconScan } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';

/**
 * Instead of sample numbers: an invitation to create the first code. `withAction` false where the page
 * already has its Create New QR Code button (the dashboard), so there is one call to action, not three.
 */
export function NoCodesState({
  description,
  withAction = true,
}: {
  description?: string;
  withAction?: boolean;
}) {
  const { t } = useLingui();
  return (
    <EmptyState
      icon={<IconQrcode size={28} stroke={1.5} aria-hidden />}
      withIndicatorBackground
      title={t`No QR codes yet`}
      description={description ?? t`Create your first QR code and its scans will show up here.`}
      size="sm"
    >
      {withAction && (
        <EmptyState.Actions>
          <Button component={Link} to="/create" size="sm" leftSection={<IconPlus size={16} aria-hidden />}>
            <Trans>Create New QR Code</Trans>
          </Button>
        </EmptyState.Actions>
      )}
    </EmptyState>
  );
}

/** Instead of sample numbers: codes exist but nobody has scanned them (in this period). */
export function NoScansState({ title, description }: { title?: string; description?: string }) {
  const { t } = useLingui();
  return (
    <EmptyState
      icon={<IconScan size={28} stroke={1.5} aria-hidden />}
      withIndicatorBackground
      title={title ?? t`No scans yet`}
      description={
        description ??
        t`Print or share your QR codes: every scan shows up here. You can also try one in the scanner.`
      }
      size="sm"
    >
      <EmptyState.Actions>
        <Button component={Link} to="/scan-demo" size="sm" variant="light">
          <Trans>Open the Scanner</Trans>
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
