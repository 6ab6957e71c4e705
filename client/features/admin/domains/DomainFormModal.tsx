import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, MultiSelect, Radio, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { ShortDomain } from '../../../../src/qr/short-domain.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { translateShared } from '../../../i18n/shared-messages';
import { notify } from '../../../lib/notify';
import { trpc } from '../../../lib/trpc';
import {
  domainInputOf,
  domainRefusalOf,
  formValuesOf,
  localDomainErrors,
  workspaceOptions,
  type DomainField,
  type DomainFieldErrors,
  type DomainFormValues,
} from './domain-form';

/** How many workspaces one search shows: type more of a name to find others. */
const FOUND_MAX = 20;
/** The host name the domain field shows as an example: an address, no words to translate. */
const EXAMPLE_HOST = 'go.example.com';

/** Refreshes every list the change affects: the admin's, and the designer's list of domains to choose from. */
export function useRefreshDomains() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.admin.domains.invalidate(), utils.qr.domains.invalidate()]);
}

/**
 * The workspaces field: the admin's team workspaces, searched by the server (name or owner) as on
 * /admin/workspaces, with the chosen ones kept as pills whatever the search shows.
 */
function WorkspacesField({
  chosen,
  error,
  onChange,
}: {
  chosen: DomainFormValues['workspaces'];
  error: string | undefined;
  onChange: (workspaces: DomainFormValues['workspaces']) => void;
}) {
  const { t } = useLingui();
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  const found = trpc.admin.workspaces.useQuery(
    { search: searched || undefined, sort: 'name', order: 'asc', page: 1, pageSize: FOUND_MAX },
    { placeholderData: (previous) => previous },
  );
  const rows = found.data?.rows ?? [];
  const foundIds = new Set(rows.map((w) => w.id));
  const options = workspaceOptions(chosen, rows);
  const filtering = search.trim() !== '';
  return (
    <MultiSelect<number>
      label={t`Workspaces`}
      description={t`The team workspaces whose codes may use it. Type to search by name or owner.`}
      placeholder={chosen.length === 0 ? t`Search workspaces` : undefined}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      data={options}
      value={chosen.map((w) => w.id)}
      onChange={(ids) =>
        onChange(
          ids.flatMap((id) => options.filter((o) => o.value === id).map((o) => ({ id, name: o.label }))),
        )
      }
      // The server has searched already (owners too): show what it found, and the chosen ones only when
      // nothing is typed.
      filter={({ options: all }) => all.filter((o) => 'value' in o && (!filtering || foundIds.has(o.value)))}
      nothingFoundMessage={
        found.isFetching
          ? t`Searching…`
          : found.isError
            ? t`Workspaces could not be loaded`
            : t`No workspace found`
      }
      error={error}
      required
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Add domain and Edit <domain>: the domain, who may use it, and where its own pages send visitors. */
export function DomainFormModal({ domain, onClose }: { domain: ShortDomain | null; onClose: () => void }) {
  const { t } = useLingui();
  const editing = domain !== null;
  const refresh = useRefreshDomains();
  const [values, setValues] = useState<DomainFormValues>(() => formValuesOf(domain));
  const [errors, setErrors] = useState<DomainFieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  // The errors are the shared schema's or the server's English: said in the app's language.
  const shown = (error: string | undefined) => (error ? translateShared(error) : undefined);

  // A field's error goes as soon as it is edited; everything typed stays.
  const set = <K extends keyof DomainFormValues>(key: K, value: DomainFormValues[K], field: DomainField) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const saved = async (title: string, result: ShortDomain) => {
    notify.success(title, result.hostname);
    await refresh();
    onClose();
  };
  const refused = (error: unknown) => {
    const { field, message } = domainRefusalOf(error, t`The domain could not be saved`);
    if (field) setErrors((e) => ({ ...e, [field]: message }));
    else setFailure(message);
  };
  const create = trpc.admin.createDomain.useMutation({
    onSuccess: (created) => saved(t`Domain added`, created),
    onError: refused,
  });
  const update = trpc.admin.updateDomain.useMutation({
    onSuccess: (updated) => saved(t`Domain saved`, updated),
    onError: refused,
  });

  const submit = () => {
    setFailure(null);
    const found = localDomainErrors(
      values,
      t`Choose at least one workspace, or make it available to all workspaces`,
    );
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const input = domainInputOf(values);
    if (domain) update.mutate({ id: domain.id, ...input });
    else create.mutate(input);
  };

  const hostname = domain?.hostname ?? '';
  return (
    <Modal opened onClose={onClose} title={editing ? t`Edit ${hostname}` : t`Add domain`} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t`Domain`}
            description={t`The host name alone: no https://, port or path.`}
            placeholder={EXAMPLE_HOST}
            required
            data-autofocus
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="none"
            value={values.hostname}
            error={shown(errors.hostname)}
            onChange={(e) => set('hostname', e.currentTarget.value, 'hostname')}
          />
          <Radio.Group
            label={t`Available to`}
            description={t`Which workspaces' codes may use this domain for their short links.`}
            value={values.allWorkspaces ? 'all' : 'chosen'}
            onChange={(v) => set('allWorkspaces', v === 'all', 'workspaceIds')}
          >
            <Group gap="md" mt={6}>
              <Radio value="all" label={t`All workspaces`} />
              <Radio value="chosen" label={t`Chosen workspaces`} />
            </Group>
          </Radio.Group>
          {!values.allWorkspaces && (
            <WorkspacesField
              chosen={values.workspaces}
              error={shown(errors.workspaceIds)}
              onChange={(workspaces) => set('workspaces', workspaces, 'workspaceIds')}
            />
          )}
          <TextInput
            label={t`Home page`}
            description={t`Where the domain itself sends visitors. Empty: a “not found” page.`}
            placeholder="https://example.com"
            type="url"
            autoComplete="url"
            value={values.rootUrl}
            error={shown(errors.rootUrl)}
            onChange={(e) => set('rootUrl', e.currentTarget.value, 'rootUrl')}
          />
          <TextInput
            label={t`Unknown links`}
            description={t`Where a link the domain does not know sends visitors. Empty: a “not found” page.`}
            placeholder="https://example.com/not-found"
            type="url"
            autoComplete="url"
            value={values.notFoundUrl}
            error={shown(errors.notFoundUrl)}
            onChange={(e) => set('notFoundUrl', e.currentTarget.value, 'notFoundUrl')}
          />
          {failure && <ErrorAlert>{translateShared(failure)}</ErrorAlert>}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? t`Save changes` : t`Add domain`}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
