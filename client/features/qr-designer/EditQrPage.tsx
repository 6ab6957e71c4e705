import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Card, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { decodeContent } from '../../../src/qr/content';
import { readCustomization } from '../../../src/qr/customization';
import { qrMessages } from '../../../src/qr/qr-messages';
import { normalizeQrType } from '../../../src/qr/qr-types';
import type { QrCode, UpdateQrCodeInput } from '../../../src/qr/qr.schema';
import type { AvailableDomains } from '../../../src/qr/short-domain.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { viewerTimeZone } from '../../lib/format';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { editQrRoute } from '../../routes';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';
import { EditorOnly } from '../workspaces/EditorOnly';
import { smartPayloadOf, smartValuesOf } from './smart-values';
import { toFormFields, type DesignerValues } from './designer-values';
import classes from './qr-designer.module.css';
import { QrDesigner } from './QrDesigner';
import { domainIdToSend, fieldRefusalOf, slugToSend, type FieldRefusal } from './short-link';
import { useLazyDialog } from '../../lib/use-lazy-dialog';
import { loadSlugChangeDialog } from './lazy-dialogs';

const UPDATE_FAILED = msg`Failed to update QR code. Please try again.`;

function valuesOf(code: QrCode): DesignerValues {
  const type = normalizeQrType(code.type);
  return {
    name: code.name,
    type,
    isDynamic: code.isDynamic,
    fields: toFormFields(type, decodeContent(type, code.content)),
    customization: readCustomization(code.customization),
    folderId: code.folderId,
    smart: smartValuesOf(code.redirectOptions, code.hasPassword),
    slug: code.slug ?? '',
    domainId: code.domainId,
  };
}

/**
 * A code whose link is on a short domain: that domain's host, and the code's address on the app itself
 * (`<PUBLIC_URL>/r/<slug>`, which keeps answering whatever the domain); null on the app's own address.
 */
function oldDomainOf(code: QrCode, domains: AvailableDomains | undefined) {
  if (code.domainId === null || !code.shortUrl || !code.slug) return null;
  try {
    return {
      hostname: new URL(code.shortUrl).hostname,
      appLink: `${domains?.defaultBase ?? `${window.location.origin}/r/`}${code.slug}`,
      // The workspace no longer has it: once the code leaves it, it answers there no more.
      lost: domains !== undefined && !domains.items.some((d) => d.id === code.domainId),
    };
  } catch {
    return null;
  }
}

function DesignerSkeleton() {
  const { t } = useLingui();
  return (
    <div className={classes.layout} aria-busy="true" aria-label={t`Loading QR code`}>
      <Stack gap="md">
        <Card withBorder padding="md" radius="md">
          <Skeleton height={14} width={60} mb={8} />
          <Skeleton height={36} />
        </Card>
        <Card withBorder padding="md" radius="md">
          <Skeleton height={14} width={60} mb={8} />
          <Group gap="xs" grow>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={64} />
            ))}
          </Group>
          <Group gap="xs" grow mt="xs">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={64} />
            ))}
          </Group>
          <Skeleton height={14} width={120} mt="md" mb={8} />
          <Skeleton height={36} />
        </Card>
        <Card withBorder padding="md" radius="md">
          <Skeleton height={14} width={60} mb={8} />
          <Skeleton height={160} />
        </Card>
      </Stack>
      <Card withBorder padding="md" radius="md">
        <Stack align="center" gap="sm">
          <Skeleton height={150} width={150} />
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      </Card>
    </div>
  );
}

/** The designer for editors and up; a viewer of the workspace reads why it is not offered. */
export function EditQrPage() {
  return (
    <EditorOnly>
      <EditQrForm />
    </EditorOnly>
  );
}

function EditQrForm() {
  const { t } = useLingui();
  const navigate = useNavigate();
  // Null when the address holds no valid id (the route's params.parse).
  const { id } = editQrRoute.useParams();
  const query = trpc.qr.get.useQuery({ id: id ?? 0 }, { enabled: id !== null });
  const code = query.data;
  const isStatic = code !== undefined && !code.isDynamic;
  const initialValues = useMemo(() => (code ? valuesOf(code) : null), [code]);

  // Only dynamic codes can be edited: a static one goes back to the list with a toast.
  const redirected = useRef(false);
  useEffect(() => {
    if (!isStatic || redirected.current) return;
    redirected.current = true;
    notify.error(t`Cannot Edit Static QR Code`, translateShared(qrMessages.staticEdit));
    void navigate({ to: '/my-qr-codes', replace: true });
  }, [isStatic, navigate, t]);

  const refreshCodes = useQrCacheRefresh();
  const [fieldRefusal, setFieldRefusal] = useState<FieldRefusal | null>(null);
  const update = trpc.qr.update.useMutation({
    onSuccess: async (saved) => {
      notify.success(t`QR Code Updated`, t`Scans of the printed code now follow your changes.`);
      await refreshCodes({ saved });
      await navigate({ to: '/my-qr-codes' });
    },
    onError: (error) => {
      // The short link was taken since the check, or its domain is no longer offered: said on the field,
      // nothing typed is lost.
      const refusal = fieldRefusalOf(error);
      if (refusal) setFieldRefusal(refusal);
      else notify.error(t`Error Updating QR Code`, apiError(error, t(UPDATE_FAILED)).message);
    },
  });

  // A new short link (back-half or domain) for a code that has been scanned is asked about first: the old
  // one may be printed. The count is read afresh (the details page's may be older than the last scan);
  // null: it could not be.
  const utils = trpc.useUtils();
  // The app's own address, where the old link also keeps answering (the designer has asked for it).
  const domains = trpc.qr.domains.useQuery(undefined, { enabled: code?.isDynamic === true }).data;
  const [countingScans, setCountingScans] = useState(false);
  // Kept after the question closes, so its text does not change while the dialog fades out.
  const [slugChange, setSlugChange] = useState<{ input: UpdateQrCodeInput; scans: number | null } | null>(
    null,
  );
  const [askingSlugChange, setAskingSlugChange] = useState(false);
  const slugDialog = useLazyDialog(loadSlugChangeDialog, askingSlugChange, {
    preload: countingScans,
    onFailed: () => setAskingSlugChange(false),
  });
  const save = async (input: UpdateQrCodeInput) => {
    if (input.slug === undefined && input.domainId === undefined) {
      update.mutate(input);
      return;
    }
    setCountingScans(true);
    let scans: number | null = null;
    try {
      const analytics = await utils.analytics.qrCode.fetch(
        { id: input.id, page: 1, tz: viewerTimeZone() },
        { staleTime: 0 },
      );
      scans = analytics.totalScans;
    } catch {
      // Asked anyway, without a number: the server keeps the old link if the code was scanned.
    } finally {
      setCountingScans(false);
    }
    if (scans === 0) {
      update.mutate(input);
    } else {
      setSlugChange({ input, scans });
      setAskingSlugChange(true);
    }
  };

  let body: React.ReactNode;
  if (id === null || query.isError) {
    body = (
      <ErrorAlert>
        <Trans>Error loading QR code. Please try again later.</Trans>
      </ErrorAlert>
    );
  } else if (!code || !initialValues || isStatic) {
    body = <DesignerSkeleton />;
  } else {
    body = (
      <QrDesigner
        key={code.id}
        mode="edit"
        code={code}
        initialValues={initialValues}
        submitLabel={t`Save Changes`}
        submittingLabel={t`Saving...`}
        submitting={update.isPending || countingScans}
        errorTitle={t`Error Updating QR Code`}
        onSubmit={(values, content) => {
          // Sent only when they changed: untouched fields leave the link as it is.
          const slug = slugToSend(values.slug, code.slug);
          const domainId = domainIdToSend(values.domainId, code);
          void save({
            id: code.id,
            name: values.name.trim(),
            content,
            customization: values.customization,
            ...smartPayloadOf(values),
            ...(typeof slug === 'string' ? { slug } : {}),
            ...(domainId === undefined ? {} : { domainId }),
          });
        }}
        fieldRefusal={fieldRefusal}
      />
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Anchor
          component={Link}
          to="/my-qr-codes"
          size="sm"
          style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
        >
          <IconArrowLeft size={16} aria-hidden />
          <Trans>Back to My QR Codes</Trans>
        </Anchor>
        {/* The header already shows the page's name: said once on screen, kept for the outline. */}
        <VisuallyHidden>
          <Title order={2}>
            <Trans>Edit QR Code</Trans>
          </Title>
        </VisuallyHidden>
        <Text c="dimmed" size="sm">
          <Trans>
            Update the content and design of your dynamic QR code. The printed code keeps working: scans
            follow your changes.
          </Trans>
        </Text>
      </div>
      {body}
      {code && slugDialog.Dialog && slugDialog.mounted && (
        <slugDialog.Dialog
          opened={slugDialog.opened}
          scans={slugChange?.scans ?? null}
          oldShortUrl={code.shortUrl ?? ''}
          oldDomain={oldDomainOf(code, domains)}
          onClose={() => setAskingSlugChange(false)}
          onConfirm={() => {
            setAskingSlugChange(false);
            if (slugChange) update.mutate(slugChange.input);
          }}
        />
      )}
    </Stack>
  );
}
