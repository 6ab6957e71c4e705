import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Card, Group, Loader, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconLinkOff, IconRefresh } from '@tabler/icons-react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { destinationCheckMessages, downMark } from '../../../src/qr/destination-check';
import type { DestinationIssue } from '../../../src/qr/destination-check.schema';
import { normalizeQrType, redirectingQrTypes } from '../../../src/qr/qr-types';
import type { QrCode } from '../../../src/qr/qr.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
import { exactTime, relativeTime } from '../../lib/format';
import { apiError, trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';
import { useDestinationIssuesQuery } from '../my-qr-codes/use-destination-issues';
import { useCanEdit } from '../workspaces/use-current-workspace';
import classes from './destination-check.module.css';

/** Long links break anywhere rather than widen the page (375 px phones). */
const wrap = { overflowWrap: 'anywhere' } as const;

const states = {
  down: {
    word: msg({ message: 'Down', context: 'a destination that does not answer' }),
    color: 'red',
    text: classes.down,
    icon: IconLinkOff,
  },
  // Orange text would not read at 4.5:1 on white: the badge and icon carry the colour.
  failing: { word: msg`Failed once`, color: 'orange', text: undefined, icon: IconAlertTriangle },
  ok: {
    word: msg({ message: 'Answers', context: 'a destination that answers the check' }),
    color: 'green',
    text: classes.ok,
    icon: IconCircleCheck,
  },
} as const;

/** What the code's URLs are now: its destination, its rules' and its fallback URL, as one string. */
const urlsOf = (code: QrCode) => JSON.stringify([code.content, code.redirectOptions]);

/** The address asks for a check on load: the one click of the "destination down" mail. */
const CHECK_PARAM = 'check';

function IssueLine({ issue, now }: { issue: DestinationIssue; now: number }) {
  const { t } = useLingui();
  const state = states[issue.state];
  const ago = issue.checkedAt ? relativeTime(issue.checkedAt, now) : null;
  return (
    <Group
      component="li"
      wrap="nowrap"
      align="flex-start"
      gap="sm"
      data-destination-state={issue.state}
      data-label={issue.label}
    >
      <ThemeIcon variant="light" color={state.color} size={28} radius="xl" aria-hidden>
        <state.icon size={16} />
      </ThemeIcon>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group gap={6} wrap="wrap">
          <Text size="sm" fw={600}>
            {translateShared(issue.label)}
          </Text>
          <Badge size="sm" variant="light" color={state.color}>
            {t(state.word)}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" style={wrap}>
          {issue.url}
        </Text>
        <Text size="sm" className={state.text} fw={issue.state === 'ok' ? undefined : 500}>
          {issue.state === 'ok'
            ? t(states.ok.word)
            : // downMark's words come from src/qr/destination-check.ts: translated before the fallback's.
              `${translateShared(downMark(issue, new Date(now)))}${issue.usingFallback ? ` · ${t`scans go to the fallback URL`}` : ''}`}
        </Text>
        {issue.state === 'failing' && (
          <Text size="xs" c="dimmed">
            <Trans>Failed once: marked down if the next check fails too.</Trans>
          </Text>
        )}
        {issue.checkedAt && (
          <Text size="xs" c="dimmed">
            <Trans>
              Last checked{' '}
              <time dateTime={issue.checkedAt} title={exactTime(issue.checkedAt)}>
                {ago}
              </time>
            </Trans>
          </Text>
        )}
      </Stack>
    </Group>
  );
}

/**
 * The details page's "Destination check" (issue 35, item 4: dead destinations caught), for a dynamic code
 * that redirects: each of its URLs that fails the daily check (failed once, or down after two failures in
 * a row), or that every one answers; "Check again" (editors) checks them all now and shows each one's
 * state. Opened from the "destination down" mail (`?check=destination`), it checks once by itself and
 * takes the parameter out of the address.
 */
export function DestinationCheckCard({ code }: { code: QrCode }) {
  const { t } = useLingui();
  const applies = code.isDynamic && redirectingQrTypes.includes(normalizeQrType(code.type));
  const canEdit = useCanEdit();
  const now = useNow();
  const issues = useDestinationIssuesQuery();
  const utils = trpc.useUtils();
  // The last check's answer (every URL, ok ones included), for the URLs the code had then.
  const [result, setResult] = useState<{ items: DestinationIssue[]; urls: string } | null>(null);
  const check = trpc.destinations.check.useMutation({
    onSuccess: (answer) => {
      setResult({ items: answer.items, urls: urlsOf(code) });
      // The cards, the dashboard and this card's own list read the workspace's issues again.
      void utils.destinations.issues.invalidate();
    },
  });
  const { mutate } = check;

  const asked = useRouterState({
    select: (s) => (s.location.search as Record<string, unknown>)[CHECK_PARAM] === 'destination',
  });
  const navigate = useNavigate();
  const autoChecked = useRef(false);
  const cardRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!asked || autoChecked.current) return;
    autoChecked.current = true;
    // The mail's reader came for this card: in view, below the code's figures on a phone too.
    cardRef.current?.scrollIntoView({ block: 'start' });
    // A viewer (or a code with nothing to check) just lands on the page: the server would refuse.
    if (applies && canEdit) mutate({ id: code.id });
    void navigate({
      to: '.',
      search: (prev: Record<string, unknown>) => {
        const { [CHECK_PARAM]: _asked, ...rest } = prev;
        return rest;
      },
      replace: true,
    });
  }, [asked, applies, canEdit, code.id, mutate, navigate]);

  if (!applies) return null;

  const checked = result && result.urls === urlsOf(code) ? result.items : null;
  const known = checked ?? issues.data?.items.filter((issue) => issue.codeId === code.id);
  const failing = known?.filter((issue) => issue.state !== 'ok') ?? [];
  // After a check every URL is listed with its state (ok ones in green); otherwise the failing ones only.
  const listed = checked ?? failing;
  const lastChecked = checked
    ?.map((issue) => issue.checkedAt)
    .filter((at): at is string => at !== null)
    .sort()
    .at(-1);
  const lastAgo = lastChecked ? relativeTime(lastChecked, now) : null;

  return (
    <Card
      ref={cardRef}
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby="destination-check"
      data-destination-check
    >
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Title order={3} size="h4" id="destination-check">
          <Trans>Destination check</Trans>
        </Title>
        {canEdit && (
          <Button
            variant="default"
            size="xs"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={check.isPending}
            onClick={() => mutate({ id: code.id })}
          >
            <Trans>Check again</Trans>
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {canEdit
          ? t`Every destination of this code is checked once a day. One that fails twice in a row is marked down, and you get a mail.`
          : t`Every destination of this code is checked once a day. One that fails twice in a row is marked down, and its editors get a mail.`}
      </Text>

      <Stack gap="sm" aria-live="polite" aria-busy={check.isPending}>
        {check.isPending && (
          <Group gap="xs" data-checking>
            <Loader size="xs" aria-hidden />
            <Text size="sm">
              <Trans>Checking the destinations now…</Trans>
            </Text>
          </Group>
        )}
        {check.isError && (
          <ErrorAlert>
            {apiError(check.error, t`The destinations could not be checked. Please try again.`).message}
          </ErrorAlert>
        )}
        {!known ? (
          issues.isError ? (
            <Text size="sm" className={classes.down} role="alert">
              <Trans>Error loading the destination checks. Please try again later.</Trans>
            </Text>
          ) : (
            <Stack gap={6} aria-busy="true" aria-label={t`Loading the destination checks`}>
              <Skeleton h={14} w="50%" />
              <Skeleton h={12} w="80%" />
            </Stack>
          )
        ) : (
          <>
            {failing.length === 0 &&
              (checked && checked.length === 0 ? (
                <Text size="sm" c="dimmed" data-destination-summary="none">
                  <Trans>Nothing to check now: a paused or ended code sends nobody anywhere.</Trans>
                </Text>
              ) : (
                <Group gap="xs" wrap="nowrap" align="flex-start" data-destination-summary="ok">
                  <IconCircleCheck
                    size={20}
                    color="var(--mantine-color-green-8)"
                    aria-hidden
                    style={{ flexShrink: 0 }}
                  />
                  <Text size="sm">
                    <Text span size="sm" fw={600} className={classes.ok}>
                      {translateShared(destinationCheckMessages.allGood)}
                    </Text>
                    {lastChecked ? (
                      <>
                        {' · '}
                        <Trans>
                          checked{' '}
                          <time dateTime={lastChecked} title={exactTime(lastChecked)}>
                            {lastAgo}
                          </time>
                        </Trans>
                      </>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        {' '}
                        <Trans>(as of the last daily check)</Trans>
                      </Text>
                    )}
                  </Text>
                </Group>
              ))}
            {listed.length > 0 && (
              <Stack
                component="ul"
                gap="md"
                m={0}
                p={0}
                style={{ listStyle: 'none' }}
                aria-label={t`Destinations checked`}
              >
                {listed.map((issue) => (
                  <IssueLine key={`${issue.label} ${issue.url}`} issue={issue} now={now} />
                ))}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
