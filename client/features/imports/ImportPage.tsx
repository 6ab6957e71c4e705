import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { ImportPreview } from '../../../src/imports/import.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { trpc } from '../../lib/trpc';
import { importRoute } from '../../routes';
import { EditorOnly } from '../workspaces/EditorOnly';
import { callFailure } from './import-errors';
import { ReviewSkeleton, ReviewStep } from './ReviewStep';
import { SourceStep } from './SourceStep';

/**
 * /import (issue 35, item 3): links from Shlink, Kutt, YOURLS or Bitly become dynamic codes of the
 * workspace with the same short link. A source is read into an import kept on the server for a day;
 * `?id=` names it, so a reload or a second tab resumes the review. Editors and up; a viewer reads why not.
 */
export function ImportPage() {
  return (
    <EditorOnly>
      <ImportFlow />
    </EditorOnly>
  );
}

function ImportFlow() {
  const { id } = importRoute.useSearch();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const discard = trpc.imports.discard.useMutation();

  const open = (preview: ImportPreview) => {
    // The answer is the import as `imports.get` gives it: shown at once, not asked for again.
    utils.imports.get.setData({ id: preview.id }, preview);
    void navigate({ to: '/import', search: { id: preview.id } });
  };
  const importMore = () => void navigate({ to: '/import', search: {} });
  const startOver = () => {
    // An import nothing was done with is of no more use; one partly done keeps its day (codes stay anyway).
    const preview = id ? utils.imports.get.getData({ id }) : undefined;
    if (id && preview && preview.totals.done === 0)
      discard.mutate({ id }, { onSuccess: () => void utils.imports.get.invalidate({ id }) });
    importMore();
  };

  return (
    <Stack gap="md">
      <div>
        {/* The header already shows the page's name: said once on screen, kept for the outline. */}
        <VisuallyHidden>
          <Title order={2}>
            <Trans>Import links</Trans>
          </Title>
        </VisuallyHidden>
        <Text c="dimmed" size="sm">
          <Trans>
            Bring your short links from Shlink, Kutt, YOURLS or Bitly: each becomes a dynamic QR code with the
            same short link, so what is printed keeps working once the link points here.
          </Trans>
        </Text>
      </div>
      {id ? (
        <Review key={id} id={id} onImportMore={importMore} onStartOver={startOver} />
      ) : (
        <SourceStep onRead={open} />
      )}
    </Stack>
  );
}

function Review({
  id,
  onImportMore,
  onStartOver,
}: {
  id: string;
  onImportMore: () => void;
  onStartOver: () => void;
}) {
  const { t } = useLingui();
  const query = trpc.imports.get.useQuery({ id });
  if (query.isError) {
    const gone = query.error.data?.code === 'NOT_FOUND';
    return (
      <ErrorAlert>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {gone
              ? t`This import is no longer kept: an import is kept for a day after it was read. Read your links again to import them.`
              : callFailure(query.error, t`The import could not be loaded. Please try again.`)}
          </Text>
          {gone ? (
            <Button size="compact-sm" variant="light" color="red" onClick={onImportMore}>
              <Trans>Start a new import</Trans>
            </Button>
          ) : (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              loading={query.isFetching}
              onClick={() => void query.refetch()}
            >
              <Trans>Try again</Trans>
            </Button>
          )}
        </Stack>
      </ErrorAlert>
    );
  }
  if (!query.data) return <ReviewSkeleton />;
  return <ReviewStep preview={query.data} onImportMore={onImportMore} onStartOver={onStartOver} />;
}
