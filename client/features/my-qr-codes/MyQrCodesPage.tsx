import {
  ActionIcon,
  Button,
  Chip,
  Group,
  Modal,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import {
  IconFileImport,
  IconFilterOff,
  IconChartBar,
  IconFolderPlus,
  IconLayoutGrid,
  IconList,
  IconPlus,
  IconQrcode,
  IconSearch,
  IconTableImport,
  IconX,
} from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { describeContent } from '../../../src/qr/content';
import type { QrCode } from '../../../src/qr/qr.schema';
import { CardGridSkeleton } from '../../components/PageSkeletons';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
import { trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';
import { MoveToTeamDialog } from '../workspaces/MoveToTeamDialog';
import { useCanEdit, useCurrentWorkspace, useMoveTargets } from '../workspaces/use-current-workspace';
import { codeMarks } from './code-marks';
import { ExportRedirectsMenu } from './ExportRedirectsMenu';
import { MoveDialog } from './MoveDialog';
import { NewFolderDialog } from './NewFolderDialog';
import { plain } from './PlainControls';
import { QrCodeCard } from './QrCodeCard';
import { QrCodeList, QrCodeListSkeleton, type ListEntry } from './QrCodeList';
import { useQrActions } from './use-qr-actions';
import { useScanFigures } from './use-scan-figures';

const ShareAnalyticsDialog = lazy(() =>
  import('../shares/ShareAnalyticsDialog').then((m) => ({ default: m.ShareAnalyticsDialog })),
);

// Bulk creation (its spreadsheet columns and checks) loads when its dialog is first opened, not with the list.
const BulkCreateDialog = lazy(() =>
  import('../bulk/BulkCreateDialog').then((m) => ({ default: m.BulkCreateDialog })),
);

type Kind = 'all' | 'dynamic' | 'static';
type Sort = 'newest' | 'oldest' | 'name';
type View = 'cards' | 'list';
/** This browser's choice of view (cards or list), kept across visits. */
const VIEW_KEY = 'qr-creator:my-qr-codes-view';
/** 'all', 'root' or a folder id. */
type FolderFilter = string;

/**
 * What search looks in: the name, the content (as listed, in English and in the screens' language, and
 * as encoded) and the short link.
 */
function searchText(code: QrCode): string {
  const summary = describeContent(code.type, code.content);
  return [code.name, summary, translateShared(summary), code.content, code.shortUrl ?? '']
    .join('\n')
    .toLocaleLowerCase();
}

export function MyQrCodesPage() {
  const { t, i18n } = useLingui();
  const codes = trpc.qr.list.useQuery();
  const folders = trpc.folders.list.useQuery();
  const { move, remove, createFolder, deleteFolder } = useQrActions();
  const [kind, setKind] = useState<Kind>('all');
  const [folder, setFolder] = useState<FolderFilter>('all');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>('newest');
  const [newFolderOpened, newFolder] = useDisclosure(false);
  const [bulkOpened, bulk] = useDisclosure(false);
  // Drawn from its first opening on, so that it closes with its transition.
  const [bulkAsked, setBulkAsked] = useState(false);
  if (bulkOpened && !bulkAsked) setBulkAsked(true);
  const [moving, setMoving] = useState<QrCode | null>(null);
  const [movingToTeam, setMovingToTeam] = useState<QrCode | null>(null);
  // A viewer sees the codes and downloads them; creating, editing, moving and deleting take an editor.
  const canEdit = useCanEdit();
  const { workspace } = useCurrentWorkspace();
  const teamMoves = useMoveTargets().length > 0;
  const [deleting, setDeleting] = useState<QrCode | null>(null);
  const [folderToDelete, setFolderToDelete] = useState<{ id: number; name: string } | null>(null);
  const [sharingFolder, setSharingFolder] = useState<{ id: number; name: string } | null>(null);
  const [storedView, setView] = useLocalStorage<View>({
    key: VIEW_KEY,
    defaultValue: 'cards',
    getInitialValueInEffect: false,
  });
  const view: View = storedView === 'list' ? 'list' : 'cards';
  const scanFigures = useScanFigures();
  const now = useNow();

  const folderList = useMemo(() => folders.data ?? [], [folders.data]);
  const folderNames = useMemo(() => new Map(folderList.map((f) => [f.id, f.name])), [folderList]);

  const visible = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase();
    const list = (codes.data ?? []).filter(
      (c) =>
        (kind === 'all' || (kind === 'dynamic') === c.isDynamic) &&
        (folder === 'all' || (folder === 'root' ? c.folderId === null : c.folderId === Number(folder))) &&
        (!needle || searchText(c).includes(needle)),
    );
    return list.sort((a, b) =>
      sort === 'name'
        ? a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true })
        : sort === 'oldest'
          ? a.created.localeCompare(b.created)
          : b.created.localeCompare(a.created),
    );
  }, [codes.data, kind, folder, search, sort]);

  const entries: ListEntry[] = useMemo(
    () =>
      visible.map((code) => ({
        code,
        folderName: code.folderId === null ? null : (folderNames.get(code.folderId) ?? null),
        marks: codeMarks(code, now),
        figures: {
          // A code the summary does not list yet (made since it was read) has had no scan.
          figures:
            scanFigures.figures?.get(code.id) ??
            (scanFigures.figures
              ? { scans: 0, lastScanAt: scanFigures.hasLastScan ? null : undefined }
              : undefined),
          failed: scanFigures.isError,
        },
      })),
    // The marks' words are in the chosen language: read again when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [visible, folderNames, now, scanFigures, i18n.locale],
  );

  const total = codes.data?.length ?? 0;
  const filtered = kind !== 'all' || folder !== 'all' || search.trim() !== '';
  const workspaceName = workspace?.name ?? '';
  const query = search.trim();
  const deletingName = deleting?.name ?? '';
  const folderToDeleteName = folderToDelete?.name ?? '';
  const clearFilters = () => {
    setKind('all');
    setFolder('all');
    setSearch('');
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        {/* The header already shows the page's name: said once on screen, kept for the outline. */}
        <VisuallyHidden>
          <Title order={2}>
            <Trans>My QR Codes</Trans>
          </Title>
        </VisuallyHidden>
        <Group gap="xs">
          {canEdit && (
            <Button
              variant="default"
              leftSection={<IconFolderPlus size={18} aria-hidden />}
              onClick={newFolder.open}
            >
              <Trans>New Folder</Trans>
            </Button>
          )}
          <ExportRedirectsMenu />
          {canEdit && (
            <>
              <Button
                variant="default"
                leftSection={<IconTableImport size={18} aria-hidden />}
                onClick={bulk.open}
              >
                <Trans>Bulk create</Trans>
              </Button>
              <Button
                component={Link}
                to="/import"
                variant="default"
                leftSection={<IconFileImport size={18} aria-hidden />}
              >
                <Trans>Import links</Trans>
              </Button>
              <Button component={Link} to="/create" leftSection={<IconPlus size={18} aria-hidden />}>
                <Trans>Create New QR Code</Trans>
              </Button>
            </>
          )}
        </Group>
      </Group>

      <Tabs value={kind} onChange={(v) => setKind((v as Kind | null) ?? 'all')}>
        <Tabs.List>
          <Tabs.Tab value="all">
            <Trans>All QR Codes</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="dynamic">
            <Trans>Dynamic</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="static">
            <Trans>Static</Trans>
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>

      <ScrollArea type="auto" offsetScrollbars scrollbarSize={6}>
        <Group gap="xs" wrap="nowrap" role="group" aria-label={t`Folder filter`}>
          <Chip checked={folder === 'all'} onChange={() => setFolder('all')} variant="light">
            <Trans>All Folders</Trans>
          </Chip>
          <Chip checked={folder === 'root'} onChange={() => setFolder('root')} variant="light">
            <Trans comment="The top level of My QR Codes, outside any folder">Root</Trans>
          </Chip>
          {folderList.map((f) => {
            const folderName = f.name;
            return (
              <Group key={f.id} gap={2} wrap="nowrap">
                <Chip
                  checked={folder === String(f.id)}
                  onChange={() => setFolder(String(f.id))}
                  variant="light"
                >
                  {f.name} ({f.qrCodeCount})
                </Chip>
                {canEdit && (
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={t`Share analytics of folder ${folderName}`}
                    title={t`Share analytics`}
                    onClick={() => setSharingFolder(f)}
                  >
                    <IconChartBar size={14} aria-hidden />
                  </ActionIcon>
                )}
                {canEdit && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="sm"
                    aria-label={t`Delete folder ${folderName}`}
                    onClick={() => setFolderToDelete(f)}
                  >
                    <IconX size={14} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
            );
          })}
        </Group>
      </ScrollArea>

      <Group gap="sm" wrap="wrap">
        <TextInput
          aria-label={t`Search QR codes`}
          placeholder={t`Search by name, content or short link`}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            search ? (
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t`Clear search`}
                onClick={() => setSearch('')}
              >
                <IconX size={14} aria-hidden />
              </ActionIcon>
            ) : null
          }
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setSearch('');
          }}
          style={{ flex: '1 1 220px' }}
        />
        <Select
          aria-label={t`Sort`}
          value={sort}
          onChange={(v) => setSort(v ?? 'newest')}
          data={[
            { value: 'newest', label: t`Newest first` },
            { value: 'oldest', label: t`Oldest first` },
            { value: 'name', label: t`Name (A–Z)` },
          ]}
          allowDeselect={false}
          w={170}
        />
        <SegmentedControl
          aria-label={t`View`}
          value={view}
          onChange={(v) => setView(v === 'list' ? 'list' : 'cards')}
          data={[
            {
              value: 'cards',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconLayoutGrid size={16} aria-hidden />
                  <span>
                    <Trans>Cards</Trans>
                  </span>
                </Group>
              ),
            },
            {
              value: 'list',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconList size={16} aria-hidden />
                  <span>
                    <Trans>List</Trans>
                  </span>
                </Group>
              ),
            },
          ]}
        />
        {filtered && visible.length > 0 && (
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={clearFilters}
          >
            <Trans>Clear filters</Trans>
          </Button>
        )}
      </Group>

      {codes.isError ? (
        <ErrorAlert>
          <Trans>Error loading QR codes. Please try again later.</Trans>
        </ErrorAlert>
      ) : codes.isPending ? (
        view === 'list' ? (
          <QrCodeListSkeleton />
        ) : (
          <CardGridSkeleton />
        )
      ) : total === 0 ? (
        <Stack align="center" gap="sm" py="xl" ta="center">
          <IconQrcode size={48} stroke={1.2} aria-hidden color="var(--mantine-color-dimmed)" />
          <Text fw={600}>
            {workspace?.kind === 'team'
              ? t`${workspaceName} has no QR codes yet`
              : t`You don't have any QR codes yet`}
          </Text>
          {canEdit ? (
            <>
              <Text size="sm" c="dimmed">
                <Trans>Create your first code: a link, Wi-Fi access, a contact card and more.</Trans>
              </Text>
              <Button component={Link} to="/create" leftSection={<IconPlus size={18} aria-hidden />}>
                <Trans>Create New QR Code</Trans>
              </Button>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              <Trans>The codes its editors create will show here.</Trans>
            </Text>
          )}
        </Stack>
      ) : visible.length === 0 ? (
        <Stack align="center" gap="sm" py="xl" ta="center" role="status">
          <Text c="dimmed">
            {query ? t`No QR codes match “${query}”` : t`No QR codes match these filters.`}
          </Text>
          <Button
            variant="light"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={clearFilters}
          >
            <Trans>Clear filters</Trans>
          </Button>
        </Stack>
      ) : view === 'list' ? (
        <QrCodeList
          entries={entries}
          showLastScan={scanFigures.hasLastScan}
          now={now}
          canEdit={canEdit}
          onMove={setMoving}
          onDelete={setDeleting}
          onMoveToTeam={teamMoves ? setMovingToTeam : undefined}
        />
      ) : (
        <div className={plain.grid}>
          {entries.map(({ code, ...entry }) => (
            <QrCodeCard
              key={code.id}
              code={code}
              {...entry}
              now={now}
              canEdit={canEdit}
              onMove={() => setMoving(code)}
              onDelete={() => setDeleting(code)}
              onMoveToTeam={teamMoves ? () => setMovingToTeam(code) : undefined}
            />
          ))}
        </div>
      )}

      {(bulkOpened || bulkAsked) && (
        <Suspense fallback={null}>
          <BulkCreateDialog opened={bulkOpened} onClose={bulk.close} />
        </Suspense>
      )}
      {sharingFolder && (
        <Suspense fallback={null}>
          <ShareAnalyticsDialog
            opened
            onClose={() => setSharingFolder(null)}
            target={{ folderId: sharingFolder.id, name: sharingFolder.name }}
          />
        </Suspense>
      )}
      <NewFolderDialog
        opened={newFolderOpened}
        onClose={newFolder.close}
        pending={createFolder.isPending}
        onCreate={(name) => createFolder.mutateAsync({ name })}
      />
      <MoveDialog
        code={moving}
        folders={folderList}
        onClose={() => setMoving(null)}
        onMove={(folderId) => {
          if (moving) move.mutate({ id: moving.id, folderId });
          setMoving(null);
        }}
      />
      <MoveToTeamDialog code={movingToTeam} onClose={() => setMovingToTeam(null)} />
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t`Delete QR code?`} centered>
        <Text size="sm">
          <Trans>
            “{deletingName}” will be deleted permanently. Its scan analytics will also be deleted, and a
            printed dynamic code will stop working.
          </Trans>
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setDeleting(null)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => {
              if (deleting) remove.mutate({ id: deleting.id }, { onSettled: () => setDeleting(null) });
            }}
          >
            <Trans>Delete</Trans>
          </Button>
        </Group>
      </Modal>
      <Modal
        opened={folderToDelete !== null}
        onClose={() => setFolderToDelete(null)}
        title={t`Delete folder?`}
        centered
      >
        <Text size="sm">
          <Trans>
            The folder “{folderToDeleteName}” will be deleted. Its QR codes are kept and move to Root.
          </Trans>
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setFolderToDelete(null)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            color="red"
            loading={deleteFolder.isPending}
            onClick={() => {
              if (!folderToDelete) return;
              if (folder === String(folderToDelete.id)) setFolder('all');
              deleteFolder.mutate({ id: folderToDelete.id }, { onSettled: () => setFolderToDelete(null) });
            }}
          >
            <Trans>Delete Folder</Trans>
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
