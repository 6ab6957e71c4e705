import { Button, Card, Loader, Select, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconDeviceFloppy, IconQrcode } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import { qrTypeLabels, type QrType } from '../../../src/qr/qr-types';
import { imageDataOf, QR_NAME_MAX, type Folder, type QrCode } from '../../../src/qr/qr.schema';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ContentForm } from './ContentForm';
import { CustomizationPanel, type CustomizationSection } from './CustomizationPanel';
import {
  customizationProblem,
  defaultNameFor,
  fieldsFor,
  payloadOf,
  validateDesigner,
  type DesignerValues,
} from './designer-values';
import { PreviewCard } from './PreviewCard';
import classes from './qr-designer.module.css';
import { TypePicker } from './TypePicker';

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
  /** Called with valid values and the encoded payload. */
  onSubmit: (values: DesignerValues, content: string) => void;
  /** Create only: Save Draft. */
  onSaveDraft?: (values: DesignerValues) => void;
  /** Under the action buttons (e.g. how many codes the plan still allows). */
  actionsFooter?: React.ReactNode;
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
  const data = useMemo(
    () => [
      { value: ROOT_FOLDER, label: 'No folder' },
      ...folders.map((f) => ({ value: String(f.id), label: f.name })),
    ],
    [folders],
  );
  return (
    <Select
      label="Folder"
      description="Optional: keep the code organised in My QR Codes."
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
}: QrDesignerProps) {
  const editing = mode === 'edit';
  // Two columns from 992 px (with the 256 px sidebar the form still gets ~420 px); one column below,
  // where the preview comes first and the actions last.
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const [sections, setSections] = useState<CustomizationSection[]>(['templates', 'colors']);

  const form = useForm<DesignerValues>({
    mode: 'controlled',
    initialValues,
    validate: validateDesigner,
    validateInputOnBlur: true,
  });
  const { type, fields, customization, name, isDynamic } = form.values;
  const foldersQuery = trpc.folders.list.useQuery(undefined, { enabled: !editing });
  const folders = foldersQuery.data ?? [];
  // A folder deleted since the draft was saved falls back to the root.
  const knownFolder = (id: number | null) =>
    id !== null && foldersQuery.isSuccess && folders.some((f) => f.id === id) ? id : null;
  const payload = useMemo(() => payloadOf(type, fields), [type, fields]);
  const previewData = editing && code ? (payload === null ? null : imageDataOf(code)) : payload;

  const selectType = (next: QrType) => {
    if (editing) return;
    form.setValues({ type: next, fields: fieldsFor(next), name: defaultNameFor(next) });
  };
  const updateCustomization = (update: (c: Customization) => Customization) =>
    form.setFieldValue('customization', update);

  const handleSubmit = form.onSubmit(
    (values) => {
      const problem = customizationProblem(values.customization);
      if (problem) {
        const section: CustomizationSection = /logo/i.test(problem)
          ? 'logo'
          : /frame/i.test(problem)
            ? 'frame'
            : 'colors';
        setSections((open) => (open.includes(section) ? open : [...open, section]));
        notify.error(errorTitle, problem);
        return;
      }
      const content = payloadOf(values.type, values.fields);
      if (content === null) return; // validated above; never happens
      onSubmit({ ...values, folderId: editing ? values.folderId : knownFolder(values.folderId) }, content);
    },
    (errors) => {
      const first = Object.keys(errors)[0];
      if (first) document.querySelector<HTMLElement>(`[data-path="${first}"]`)?.focus();
    },
  );

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
            Save Draft
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
      customization={customization}
      name={name}
      type={type}
      pendingShortLink={!editing && isDynamic}
      shortUrl={editing ? code?.shortUrl : null}
      layout={wide ? 'column' : 'row'}
    >
      {wide ? actions : null}
    </PreviewCard>
  );

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={editing ? 'Edit QR code' : 'Create QR code'}>
      <div className={classes.layout}>
        {!wide && preview}
        <Stack gap="md" miw={0}>
          <Card withBorder padding="md" radius="md">
            <Stack gap="sm">
              <TextInput
                label="Name"
                withAsterisk
                maxLength={QR_NAME_MAX}
                autoComplete="off"
                {...form.getInputProps('name')}
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
                  Type
                </Title>
                <TypePicker
                  value={type}
                  onChange={selectType}
                  locked={editing}
                  onLockedClick={() =>
                    notify.error(
                      'Cannot Change Type',
                      'The type of a saved QR code cannot be changed. Create a new QR code instead.',
                    )
                  }
                />
              </div>
              {!editing && (
                <Switch
                  label="Dynamic QR code"
                  description={
                    isDynamic
                      ? 'Dynamic: the code holds a short link you can edit and track later.'
                      : 'Static: the content is printed directly in the code and cannot be edited.'
                  }
                  {...form.getInputProps('isDynamic', { type: 'checkbox' })}
                />
              )}
              <div>
                <Title order={3} size="h5" mb="xs">
                  {qrTypeLabels[type]} content
                </Title>
                <ContentForm form={form} type={type} />
              </div>
            </Stack>
          </Card>

          <Card withBorder padding="md" radius="md">
            <Title order={3} size="h5" mb="sm">
              Design
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
    </form>
  );
}
