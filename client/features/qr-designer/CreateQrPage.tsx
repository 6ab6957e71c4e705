import { msg, t as translate } from '@lingui/core/macro';
import { useLingui as useLocale } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconCrown, IconDeviceFloppy } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { effectiveTier, plans, PRO_PLAN_LIMIT, upgradeOffer, type PlanHolder } from '../../../src/plans';
import { imageDataOf } from '../../../src/qr/qr-limits';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { downloadQr } from '../../lib/qr-render';
import { useCurrentUser } from '../auth/use-auth';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';
import { EditorOnly } from '../workspaces/EditorOnly';
import { smartPayloadOf } from './smart-values';
import { initialCreateValues, type DesignerValues } from './designer-values';
import { limitFromError, type LimitInfo } from './limit-info';
import type { DownloadFormat } from './PreviewCard';
import { QrDesigner } from './QrDesigner';
import { domainIdToSend, fieldRefusalOf, slugToSend, type FieldRefusal } from './short-link';
import { useDraft, type StoredDraft } from './use-draft';
import { useLazyDialog } from '../../lib/use-lazy-dialog';
import { loadLimitDialog } from './lazy-dialogs';

const CREATE_FAILED = msg`Failed to create QR code. Please try again.`;

function valuesOf(draft: StoredDraft): DesignerValues {
  const { savedAt: _savedAt, ...values } = draft;
  return values;
}

/** The draft's time in the app's language; in English, in the browser's own variant of it, as before. */
function formatSavedAt(iso: string, locale: string) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? null
    : date.toLocaleString(locale === 'en' ? undefined : locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** How many codes the plan still allows (nothing for unlimited plans). */
function PlanUsage() {
  useLocale();
  const limit = trpc.qr.limit.useQuery().data;
  const user = useCurrentUser();
  if (!limit || limit.maxCount === null) return null;
  const offer = user ? upgradeOffer(user, new Date()) : null;
  const full = limit.currentCount >= limit.maxCount;
  const { currentCount, maxCount } = limit;
  return (
    <Text size="xs" c={full ? 'red' : 'dimmed'} ta="center">
      <Trans>
        {currentCount} of {maxCount} QR codes used on your plan.
      </Trans>
      {full && offer && (
        <>
          {' '}
          <Anchor component={Link} to="/upgrade" size="xs">
            {translateShared(offer.label)}
          </Anchor>
        </>
      )}
    </Text>
  );
}

/**
 * The plan is full: said at the top of /create before any design work, with the next plan up. Every code
 * counts, static and dynamic alike (maxCodesFor); Save Draft still works, so the design is not lost.
 */
export function limitReachedText(user: PlanHolder | null, max: number, now: Date): string {
  const tier = user ? effectiveTier(user, now) : 'free';
  const offer = user ? upgradeOffer(user, now) : null;
  const plan = translateShared(plans[tier].name);
  if (offer?.tier === 'pro') {
    const proLimit = PRO_PLAN_LIMIT;
    return translate`You have used all ${max} QR codes of the ${plan} plan (static and dynamic codes both count). Upgrade to Pro to create up to ${proLimit}, delete a code you no longer need, or save this design as a draft.`;
  }
  if (offer?.tier === 'premium') {
    return translate`You have used all ${max} QR codes of the ${plan} plan (static and dynamic codes both count). Upgrade to Premium for unlimited QR codes, delete a code you no longer need, or save this design as a draft.`;
  }
  return translate`You have used all ${max} QR codes of the ${plan} plan (static and dynamic codes both count). Delete a code you no longer need, or save this design as a draft.`;
}

function LimitReachedAlert({ max }: { max: number }) {
  const { t } = useLingui();
  const user = useCurrentUser();
  const offer = user ? upgradeOffer(user, new Date()) : null;
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconCrown size={20} aria-hidden />}
      title={t`You have reached your plan's limit`}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{limitReachedText(user ?? null, max, new Date())}</Text>
        {offer && (
          <Button component={Link} to="/upgrade" size="xs" leftSection={<IconCrown size={16} aria-hidden />}>
            {translateShared(offer.label)}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** The designer for editors and up; a viewer of the workspace reads why it is not offered. */
export function CreateQrPage() {
  return (
    <EditorOnly>
      <CreateQrForm />
    </EditorOnly>
  );
}

function CreateQrForm() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const draftStore = useDraft();
  // A saved draft is restored when the user comes back to /create.
  const [draft, setDraft] = useState<{ savedAt: string; restored: boolean } | null>(() => {
    const stored = draftStore.load();
    return stored ? { savedAt: stored.savedAt, restored: true } : null;
  });
  const [initialValues, setInitialValues] = useState<DesignerValues>(() => {
    const stored = draftStore.load();
    return stored ? valuesOf(stored) : initialCreateValues();
  });
  const [formKey, setFormKey] = useState(0);
  const [limit, setLimit] = useState<LimitInfo | null>(null);
  const [limitOpened, setLimitOpened] = useState(false);
  const limitDialog = useLazyDialog(loadLimitDialog, limitOpened, {
    onFailed: () => setLimitOpened(false),
  });
  const [fieldRefusal, setFieldRefusal] = useState<FieldRefusal | null>(null);
  const planLimit = trpc.qr.limit.useQuery().data;
  // "Create and download": the file is made from the created code, so a dynamic one holds its short link.
  const downloadAfterCreate = useRef<DownloadFormat | undefined>(undefined);

  const refreshCodes = useQrCacheRefresh();
  const create = trpc.qr.create.useMutation({
    onSuccess: async (created) => {
      draftStore.clear();
      notify.success(t`QR Code Created`, t`Your QR code is ready to download and share.`);
      const format = downloadAfterCreate.current;
      downloadAfterCreate.current = undefined;
      if (format) {
        try {
          const fileName = await downloadQr(format, imageDataOf(created), created.customization, created);
          notify.success(t`QR Code Downloaded`, t`Saved as ${fileName}.`);
        } catch {
          notify.error(t`Download Failed`, t`The code was created; download it from My QR Codes.`);
        }
      }
      await refreshCodes({ saved: created });
      await navigate({ to: '/my-qr-codes' });
    },
    onError: (error) => {
      downloadAfterCreate.current = undefined;
      // The short link was taken since the check, or its domain is no longer offered: said on the field,
      // nothing typed is lost.
      const refusal = fieldRefusalOf(error);
      if (refusal) {
        setFieldRefusal(refusal);
        return;
      }
      const createFailed = t(CREATE_FAILED);
      const { message, extras } = apiError(error, createFailed);
      const reached = limitFromError(extras, planLimit);
      if (reached) {
        setLimit(reached);
        setLimitOpened(true);
        // The server counts codes this page has not seen (made in another tab, say): catch up.
        void refreshCodes();
        return;
      }
      notify.error(t`Error Creating QR Code`, message || createFailed);
    },
  });

  const saveDraft = (values: DesignerValues) => {
    if (draftStore.save(values)) {
      setDraft({ savedAt: new Date().toISOString(), restored: false });
      notify.success(t`Draft Saved`, t`Your draft is kept in this browser until you create the code.`);
    } else {
      notify.error(t`Draft Not Saved`, t`This browser does not allow saving drafts.`);
    }
  };

  const discardDraft = () => {
    draftStore.clear();
    setDraft(null);
    setInitialValues(initialCreateValues());
    // The new form starts without the old one's refusal.
    setFieldRefusal(null);
    setFormKey((k) => k + 1);
  };

  const savedAt = draft ? formatSavedAt(draft.savedAt, i18n.locale) : null;

  return (
    <Stack gap="md">
      <div>
        {/* The header already shows the page's name: said once on screen, kept for the outline. */}
        <VisuallyHidden>
          <Title order={2}>
            <Trans>Create QR Code</Trans>
          </Title>
        </VisuallyHidden>
        <Text c="dimmed" size="sm">
          <Trans>Pick a type, add the content and design your code. The preview updates as you go.</Trans>
        </Text>
      </div>

      {planLimit && planLimit.maxCount !== null && planLimit.currentCount >= planLimit.maxCount && (
        <LimitReachedAlert max={planLimit.maxCount} />
      )}

      {draft && (
        <Alert
          variant="light"
          color="blue"
          icon={<IconDeviceFloppy size={20} aria-hidden />}
          title={draft.restored ? t`Draft restored` : t`Draft saved`}
          role="status"
        >
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">
              {draft.restored
                ? savedAt
                  ? t`We restored the draft you saved on ${savedAt}.`
                  : t`We restored the draft you saved.`
                : t`Your draft is kept in this browser until you create the code.`}
            </Text>
            <Button size="xs" variant="subtle" color="red" onClick={discardDraft}>
              <Trans>Discard draft</Trans>
            </Button>
          </Group>
        </Alert>
      )}

      <QrDesigner
        key={formKey}
        mode="create"
        initialValues={initialValues}
        submitLabel={t`Create QR Code`}
        submittingLabel={t`Creating...`}
        submitting={create.isPending}
        errorTitle={t`Error Creating QR Code`}
        onSubmit={(values, content, download) => {
          downloadAfterCreate.current = download;
          // An empty Short link field sends nothing: the server draws a random back-half. The app's own
          // address is the server's default domain.
          const slug = values.isDynamic ? slugToSend(values.slug) : null;
          const domainId = values.isDynamic ? domainIdToSend(values.domainId) : undefined;
          create.mutate({
            name: values.name.trim(),
            type: values.type,
            content,
            isDynamic: values.isDynamic,
            customization: values.customization,
            folderId: values.folderId,
            ...smartPayloadOf(values),
            ...(slug ? { slug } : {}),
            ...(domainId === undefined ? {} : { domainId }),
          });
        }}
        onSaveDraft={saveDraft}
        actionsFooter={<PlanUsage />}
        fieldRefusal={fieldRefusal}
      />

      {limitDialog.Dialog && limitDialog.mounted && (
        <limitDialog.Dialog opened={limitDialog.opened} limit={limit} onClose={() => setLimitOpened(false)} />
      )}
    </Stack>
  );
}
