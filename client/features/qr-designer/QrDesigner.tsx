import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Affix,
  Button,
  Card,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  Title,
  Transition,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useIntersection, useMediaQuery } from '@mantine/hooks';
import { IconDeviceFloppy, IconQrcode } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import { suggestQrName } from '../../../src/qr/suggest-name';
import { qrTypeLabels, type QrType } from '../../../src/qr/qr-types';
import { imageDataOf, QR_NAME_MAX } from '../../../src/qr/qr-limits';
import type { Folder, QrCode } from '../../../src/qr/qr.schema';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { QrPreview } from '../qr/QrPreview';
import { ContentForm } from './ContentForm';
import { CustomizationPanel, type CustomizationSection } from './CustomizationPanel';
import {
  contentProblem,
  customizationProblem,
  defaultNameFor,
  fieldsFor,
  payloadOf,
  validateDesigner,
  type DesignerValues,
} from './designer-values';
import { applyScanFix } from '../../../src/qr/scan-safety';
import { useScanCheck } from '../scan-safety/use-scan-check';
import { PreviewCard, type DownloadFormat } from './PreviewCard';
import { ShortLinkField } from './ShortLinkField';
import {
  domainChoices,
  knownDomainId,
  shortLinkBaseOf,
  shortLinkPrefix,
  slugToSend,
  standInShortLink,
  type FieldRefusal,
} from './short-link';
import { SmartRedirectSection } from './SmartRedirectSection';
import { smartRedirectApplies } from './smart-values';
import { useSlugCheck } from './use-slug-check';
import { useSmartSections } from './use-smart-sections';
import classes from './qr-designer.module.css';
import { TypePicker } from './TypePicker';
import { useLazyDialog } from '../../lib/use-lazy-dialog';
import { loadUnscannableDialog } from './lazy-dialogs';

const ROOT_FOLDER = 'root';

export interface QrDesignerProps {
  mode: 'create' | 'edit';
  initialValues: DesignerValues;
  /** Editing: the saved code (its short link is what the printed code holds). */
  code?: QrCode;
  submitLabel: string;
  submittingLabel: string;
  submitting: boolean;
  /** Toast title when the design itself would be refused ('Error Creating QR Code'…). */
  errorTitle: string;
  /**
   * Called with valid values and the encoded payload; `download` when the user chose "Create and
   * download" (a dynamic code's file must hold its short link, so it is made once the code exists).
   */
  onSubmit: (values: DesignerValues, content: string, download?: DownloadFormat) => void;
  /** Create only: Save Draft. */
  onSaveDraft?: (values: DesignerValues) => void;
  /** Under the action buttons (e.g. how many codes the plan still allows). */
  actionsFooter?: React.ReactNode;
  /**
   * The server refused the save because of the short link ("This short link is taken", "This domain is
   * not available in this workspace"): said on its field, which takes the focus; everything typed stays.
   * A new object each time, so the same message twice is said twice.
   */
  fieldRefusal?: FieldRefusal | null;
}

function FolderPicker({
  folders,
  loading,
  value,
  onChange,
}: {
  folders: readonly Folder[];
  loading: boolean;
  /** null or an unknown folder: 'No folder'. */
  value: number | null;
  onChange: (folderId: number | null) => void;
}) {
  const { t } = useLingui();
  const data = useMemo(
    () => [
      { value: ROOT_FOLDER, label: t`No folder` },
      ...folders.map((f) => ({ value: String(f.id), label: f.name })),
    ],
    [folders, t],
  );
  return (
    <Select
      label={t`Folder`}
      description={t`Optional: keep the code organised in My QR Codes.`}
      data={data}
      value={value === null ? ROOT_FOLDER : String(value)}
      onChange={(v) => onChange(v && v !== ROOT_FOLDER ? Number(v) : null)}
      allowDeselect={false}
      disabled={loading}
      rightSection={loading ? <Loader size={14} /> : undefined}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** What the dynamic switch says, per type: Wi-Fi is better static (phones join in one tap). */
function dynamicDescription(type: QrType, isDynamic: boolean): MessageDescriptor {
  if (type === 'wifi') {
    return isDynamic
      ? msg`Dynamic Wi-Fi: guests who scan get a web page showing the network name and password to copy by hand; phones cannot join in one tap. You can change the network later.`
      : msg`Static is best for Wi-Fi: phones join the network in one tap, with no web page in between.`;
  }
  return isDynamic
    ? msg`Dynamic: the code holds a short link you can edit and track later.`
    : msg`Static: the content is printed directly in the code and cannot be edited.`;
}

/** The name the designer suggests from the content, until the user types one ('URL QR Code' without it). */
function suggestedName(type: QrType, fields: Record<string, string>): string {
  return suggestQrName(type, fields) ?? defaultNameFor(type);
}

/** The Create / Edit form: details, type and content, design; a live preview with its actions. */
export function QrDesigner({
  mode,
  initialValues,
  code,
  submitLabel,
  submittingLabel,
  submitting,
  errorTitle,
  onSubmit,
  onSaveDraft,
  actionsFooter,
  fieldRefusal,
}: QrDesignerProps) {
  const { t, i18n } = useLingui();
  const editing = mode === 'edit';
  // Two columns from 992 px (with the 256 px sidebar the form still gets ~420 px); one column below,
  // where the preview comes first and the actions last.
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const [sections, setSections] = useState<CustomizationSection[]>(['templates', 'colors']);
  const smartSections = useSmartSections();
  // The name follows the content ("cafe-luna.com", "Guest Wi-Fi"…) until the user types one; a saved
  // code's or a restored draft's own name is kept.
  const [nameTyped, setNameTyped] = useState(
    () =>
      editing ||
      (initialValues.name !== defaultNameFor(initialValues.type) &&
        initialValues.name !== suggestedName(initialValues.type, initialValues.fields)),
  );
  // Phones: when the preview at the top scrolls away, a small one stays in view with the main action.
  const { ref: previewRef, entry: previewEntry } = useIntersection<HTMLDivElement>({ threshold: 0.15 });

  const form = useForm<DesignerValues>({
    mode: 'controlled',
    initialValues,
    validate: (values) => validateDesigner(values, code?.slug),
    // The errors are src/'s English (the shared schemas) or the server's: said in the app's language.
    enhanceGetInputProps: ({ inputProps }) =>
      typeof inputProps.error === 'string' && inputProps.error
        ? { error: translateShared(inputProps.error) }
        : undefined,
    validateInputOnBlur: true,
    // URL fields say what is wrong while the user types.
    validateInputOnChange: ['fields.url', 'fields.website'],
  });
  const { type, fields, customization, name, isDynamic, slug } = form.values;
  const typeLabel = translateShared(qrTypeLabels[type]);
  const previewName = name.trim() || t`QR code`;
  // The short domains this workspace may use: asked for once a dynamic code shows its Short link field.
  const domainsQuery = trpc.qr.domains.useQuery(undefined, { enabled: isDynamic });
  const savedLink = editing && code ? code : null;
  // A domain taken from the workspace since the draft was saved falls back to the app's own address.
  const domainId = knownDomainId(form.values.domainId, domainsQuery.data, savedLink);
  const shortLinkBase = shortLinkBaseOf({
    domainId,
    available: domainsQuery.data,
    saved: savedLink,
    origin: window.location.origin,
  });
  const foldersQuery = trpc.folders.list.useQuery(undefined, { enabled: !editing });
  const folders = foldersQuery.data ?? [];
  // A folder deleted since the draft was saved falls back to the root.
  const knownFolder = (id: number | null) =>
    id !== null && foldersQuery.isSuccess && folders.some((f) => f.id === id) ? id : null;
  const payload = useMemo(() => payloadOf(type, fields), [type, fields]);
  // Until the user types a name, it follows the content.
  const suggestion = useMemo(() => suggestedName(type, fields), [type, fields]);
  useEffect(() => {
    if (!nameTyped && form.getValues().name !== suggestion) form.setFieldValue('name', suggestion);
  }, [nameTyped, suggestion, form]);
  // Written in the app's language: said again when it changes.
  const locale = i18n.locale;
  const problem = useMemo(
    () => (payload === null && locale ? contentProblem(type, fields) : null),
    [payload, type, fields, locale],
  );
  const previewData = editing && code ? (payload === null ? null : imageDataOf(code)) : payload;
  // The check decodes what will be printed: a new dynamic code will hold a short link on the chosen
  // domain, so a stand-in of the same length and alphabet is checked until the real one exists.
  const pendingShortLink = !editing && isDynamic;
  const checkData =
    previewData === null
      ? null
      : pendingShortLink
        ? standInShortLink(shortLinkBase, slugToSend(slug))
        : previewData;
  const scanCheck = useScanCheck(checkData, customization);
  // The Short link field: dynamic codes only; editing, the saved back-half is its own (never "taken").
  const savedSlug = editing ? (code?.slug ?? null) : null;
  const slugCheck = useSlugCheck(isDynamic ? slugToSend(slug, savedSlug) : undefined, code?.id);
  const utils = trpc.useUtils();
  const saidRefusal = useRef<FieldRefusal | null | undefined>(null);
  useEffect(() => {
    if (!fieldRefusal || saidRefusal.current === fieldRefusal) return;
    saidRefusal.current = fieldRefusal;
    form.setFieldError(fieldRefusal.field, fieldRefusal.message);
    document.querySelector<HTMLElement>(`[data-path="${fieldRefusal.field}"]`)?.focus();
    // What the page knew about this back-half, or about the workspace's domains, is out of date.
    if (fieldRefusal.field === 'slug') void utils.qr.slugAvailability.invalidate();
    else void utils.qr.domains.invalidate();
  }, [fieldRefusal, form, utils]);
  const [confirmUnscannable, setConfirmUnscannable] = useState<{
    values: DesignerValues;
    download?: DownloadFormat;
  } | null>(null);
  const unscannableDialog = useLazyDialog(loadUnscannableDialog, confirmUnscannable !== null, {
    preload: scanCheck.status === 'done' && scanCheck.check.verdict === 'unscannable',
    onFailed: () => setConfirmUnscannable(null),
  });

  const selectType = (next: QrType) => {
    if (editing) return;
    // Wi-Fi starts static: phones join in one tap (a dynamic one opens a page with the password).
    form.setValues({
      type: next,
      fields: fieldsFor(next),
      isDynamic: next !== 'wifi',
      ...(nameTyped ? {} : { name: suggestedName(next, fieldsFor(next)) }),
    });
  };
  const updateCustomization = (update: (c: Customization) => Customization) =>
    form.setFieldValue('customization', update);

  const submit = (values: DesignerValues, download?: DownloadFormat, confirmed = false) => {
    // A back-half the live check found taken (or reserved) is not sent: the field says why and takes the
    // focus. One still being checked goes; the server refuses it if it must (slugRefusal).
    if (values.isDynamic && slugCheck.state === 'refused') {
      form.setFieldError('slug', slugCheck.message);
      document.querySelector<HTMLElement>('[data-path="slug"]')?.focus();
      return;
    }
    const problem = customizationProblem(values.customization);
    if (problem) {
      const section: CustomizationSection = /logo/i.test(problem)
        ? 'logo'
        : /frame/i.test(problem)
          ? 'frame'
          : 'colors';
      setSections((open) => (open.includes(section) ? open : [...open, section]));
      notify.error(errorTitle, translateShared(problem));
      return;
    }
    const content = payloadOf(values.type, values.fields);
    if (content === null) return; // validated before; never happens
    if (!confirmed && scanCheck.status === 'done' && scanCheck.check.verdict === 'unscannable') {
      setConfirmUnscannable({ values, download });
      return;
    }
    onSubmit(
      {
        ...values,
        folderId: editing ? values.folderId : knownFolder(values.folderId),
        domainId: knownDomainId(values.domainId, domainsQuery.data, savedLink),
      },
      content,
      download,
    );
  };
  const focusFirstError = (errors: Record<string, unknown>) => {
    const first = Object.keys(errors)[0];
    // A smart-redirect problem may sit in a closed part: open it, then focus the input.
    if (first && !smartSections.reveal(first)) {
      document.querySelector<HTMLElement>(`[data-path="${first}"]`)?.focus();
    }
  };
  const handleSubmit = form.onSubmit((values) => submit(values), focusFirstError);

  // "Create and download": the same checks as Create, then the page downloads the created code.
  const createAndDownload = (format: DownloadFormat) => {
    const { hasErrors, errors } = form.validate();
    if (hasErrors) focusFirstError(errors);
    else submit(form.getValues(), format);
  };

  const actions = (
    <Stack gap="xs">
      <SimpleGrid cols={wide || !onSaveDraft ? 1 : { base: 1, xs: 2 }} spacing="xs">
        {onSaveDraft && (
          <Button
            variant="default"
            leftSection={<IconDeviceFloppy size={18} aria-hidden />}
            onClick={() => onSaveDraft(form.getValues())}
            disabled={submitting}
          >
            <Trans>Save Draft</Trans>
          </Button>
        )}
        <Button
          type="submit"
          disabled={submitting}
          leftSection={
            submitting ? (
              <Loader size={16} color="currentColor" />
            ) : editing ? (
              <IconDeviceFloppy size={18} aria-hidden />
            ) : (
              <IconQrcode size={18} aria-hidden />
            )
          }
        >
          {submitting ? submittingLabel : submitLabel}
        </Button>
      </SimpleGrid>
      {actionsFooter}
    </Stack>
  );

  const preview = (
    <PreviewCard
      data={previewData}
      problem={problem}
      onCreateAndDownload={editing ? undefined : createAndDownload}
      creating={submitting}
      customization={customization}
      name={name}
      type={type}
      pendingShortLink={pendingShortLink}
      shortUrl={editing ? code?.shortUrl : null}
      layout={wide ? 'column' : 'row'}
      scanCheck={scanCheck}
      onScanFix={(id) => updateCustomization((c) => applyScanFix(id, c))}
      scanNote={pendingShortLink ? t`Checked with a short link like the one it will hold.` : null}
    >
      {wide ? actions : null}
    </PreviewCard>
  );

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={editing ? t`Edit QR code` : t`Create QR code`}>
      <div className={classes.layout} style={wide ? undefined : { paddingBottom: 88 }}>
        {!wide && <div ref={previewRef}>{preview}</div>}
        <Stack gap="md" miw={0}>
          <Card withBorder padding="md" radius="md">
            <Stack gap="sm">
              <TextInput
                label={t({ message: 'Name', context: "the QR code's name" })}
                withAsterisk
                maxLength={QR_NAME_MAX}
                autoComplete="off"
                description={
                  nameTyped || name === defaultNameFor(type)
                    ? undefined
                    : t`Suggested from the content; type your own to keep it.`
                }
                {...form.getInputProps('name')}
                onChange={(event: React.ChangeEvent<HTMLInputElement>) => {
                  setNameTyped(true);
                  form.setFieldValue('name', event.currentTarget.value);
                }}
              />
              {!editing && (
                <FolderPicker
                  folders={folders}
                  loading={foldersQuery.isLoading}
                  value={knownFolder(form.values.folderId)}
                  onChange={(folderId) => form.setFieldValue('folderId', folderId)}
                />
              )}
            </Stack>
          </Card>

          <Card withBorder padding="md" radius="md">
            <Stack gap="md">
              <div>
                <Title order={3} size="h5" mb="xs">
                  <Trans context="heading: the kind of QR code">Type</Trans>
                </Title>
                <TypePicker
                  value={type}
                  onChange={selectType}
                  locked={editing}
                  onLockedClick={() =>
                    notify.error(
                      t`Cannot Change Type`,
                      t`The type of a saved QR code cannot be changed. Create a new QR code instead.`,
                    )
                  }
                />
              </div>
              {!editing && (
                <Switch
                  label={t`Dynamic QR code`}
                  description={t(dynamicDescription(type, isDynamic))}
                  {...form.getInputProps('isDynamic', { type: 'checkbox' })}
                />
              )}
              {isDynamic && (
                <ShortLinkField
                  form={form}
                  prefix={shortLinkPrefix(shortLinkBase)}
                  check={slugCheck}
                  savedSlug={savedSlug}
                  domains={domainChoices(domainsQuery.data, savedLink)}
                  domainId={domainId}
                  lostDomain={
                    domainId !== null &&
                    domainsQuery.data !== undefined &&
                    !domainsQuery.data.items.some((d) => d.id === domainId)
                  }
                />
              )}
              <div>
                <Title order={3} size="h5" mb="xs">
                  <Trans>{typeLabel} content</Trans>
                </Title>
                <ContentForm form={form} type={type} />
              </div>
            </Stack>
          </Card>

          {smartRedirectApplies(type, isDynamic) && (
            <SmartRedirectSection form={form} sections={smartSections} destination={payload} />
          )}

          <Card withBorder padding="md" radius="md">
            <Title order={3} size="h5" mb="sm">
              <Trans context="heading: the code's look">Design</Trans>
            </Title>
            <CustomizationPanel
              value={customization}
              onChange={updateCustomization}
              opened={sections}
              onOpenedChange={setSections}
            />
          </Card>

          {!wide && actions}
        </Stack>
        {wide && <div className={classes.aside}>{preview}</div>}
      </div>
      {!wide && (
        <Affix position={{ bottom: 0, left: 0, right: 0 }} zIndex={150}>
          <Transition transition="slide-up" mounted={previewEntry !== null && !previewEntry.isIntersecting}>
            {(style) => (
              <Paper
                style={style}
                shadow="md"
                withBorder
                radius={0}
                p="xs"
                aria-label={t`Preview and actions`}
                component="section"
              >
                <Group gap="sm" wrap="nowrap">
                  <QrPreview
                    data={previewData ?? 'https://example.com'}
                    customization={customization}
                    size={64}
                    label={previewData ? t`QR code preview: ${previewName}` : t`Placeholder QR code`}
                  />
                  <Button
                    style={{ flex: 1 }}
                    disabled={submitting}
                    onClick={() => handleSubmit()}
                    leftSection={
                      submitting ? (
                        <Loader size={16} color="currentColor" />
                      ) : (
                        <IconQrcode size={18} aria-hidden />
                      )
                    }
                  >
                    {/* Short, so it is not a second "Create QR Code" button on the page. */}
                    {submitting
                      ? submittingLabel
                      : editing
                        ? t({ message: 'Save', context: 'button: save the code' })
                        : t({ message: 'Create', context: 'button: create the code' })}
                  </Button>
                </Group>
              </Paper>
            )}
          </Transition>
        </Affix>
      )}
      {unscannableDialog.Dialog && unscannableDialog.mounted && (
        <unscannableDialog.Dialog
          scanCheck={scanCheck}
          opened={unscannableDialog.opened}
          confirmLabel={editing ? t`Save anyway` : t`Create anyway`}
          onClose={() => setConfirmUnscannable(null)}
          onConfirm={() => {
            const pending = confirmUnscannable;
            setConfirmUnscannable(null);
            if (pending) submit(pending.values, pending.download, true);
          }}
        />
      )}
    </form>
  );
}
