import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Accordion,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  IconArrowsSplit,
  IconCalendarTime,
  IconFlask,
  IconLock,
  IconPlus,
  IconTag,
} from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { SMART_RULES_MAX } from '../../../src/qr/smart-limits';
import { translateShared } from '../../i18n/shared-messages';
import type { DesignerValues } from './designer-values';
import { checkSmart, newRule, smartPartOf, smartParts, smartSummaries, type SmartPart } from './smart-values';
import type { SmartSections } from './use-smart-sections';
import { timeZoneChoices } from './zoned-time';

// The parts' fields come with their code when a part is first opened: the rules' editor, the scan tester
// (with the lists of countries and languages) and the settings' number and date fields are not part of
// /create's first load.
const RuleEditor = lazy(() => import('./RuleEditor').then((m) => ({ default: m.RuleEditor })));
const ScanTester = lazy(() => import('./ScanTester').then((m) => ({ default: m.ScanTester })));
const settings = () => import('./SmartSettings');
const ScheduleFields = lazy(() => settings().then((m) => ({ default: m.ScheduleFields })));
const PasswordFields = lazy(() => settings().then((m) => ({ default: m.PasswordFields })));
const TrackingFields = lazy(() => settings().then((m) => ({ default: m.TrackingFields })));

function PartLoading() {
  const { t } = useLingui();
  return (
    <Group justify="center" py="sm">
      <Loader size="sm" aria-label={t`Loading`} />
    </Group>
  );
}

const partLoading = <PartLoading />;

const partTitles: Record<SmartPart, MessageDescriptor> = {
  rules: msg`Rules`,
  test: msg`Test a scan`,
  schedule: msg`Schedule and limits`,
  password: msg({ message: 'Password', context: 'a part of the smart redirect: the password' }),
  tracking: msg`Tracking`,
};

const partIcons: Record<SmartPart, React.ReactNode> = {
  rules: <IconArrowsSplit size={18} aria-hidden />,
  test: <IconFlask size={18} aria-hidden />,
  schedule: <IconCalendarTime size={18} aria-hidden />,
  password: <IconLock size={18} aria-hidden />,
  tracking: <IconTag size={18} aria-hidden />,
};

function PartControl({
  part,
  summary,
  problem,
}: {
  part: SmartPart;
  summary: string | null;
  problem: boolean;
}) {
  const { t } = useLingui();
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" pr="xs">
      <Group gap="xs" wrap="nowrap" miw={0}>
        {partIcons[part]}
        <Text fw={600} size="sm">
          {t(partTitles[part])}
        </Text>
      </Group>
      {(summary || problem) && (
        <Badge
          variant="light"
          color={problem ? 'red' : 'gray'}
          size="sm"
          style={{ textTransform: 'none', flexShrink: 0 }}
        >
          {problem ? t({ message: 'Check', context: 'badge: a part holds a problem' }) : summary}
        </Badge>
      )}
    </Group>
  );
}

interface SmartRedirectSectionProps {
  form: UseFormReturnType<DesignerValues>;
  sections: SmartSections;
  /** The code's own link (its content), or null while the content is incomplete. */
  destination: string | null;
}

/**
 * Smart redirect of a dynamic link code: rules, a scan tester, schedule and limits, a password and
 * tracking, each part folded with a summary.
 */
export function SmartRedirectSection({ form, sections, destination }: SmartRedirectSectionProps) {
  const { t } = useLingui();
  const smart = form.values.smart;
  const [announcement, setAnnouncement] = useState('');
  const check = useMemo(() => checkSmart(smart), [smart]);
  // Written in the app's language (useLingui makes this render again when it changes).
  const summaries = smartSummaries(smart);
  const zones = useMemo(() => timeZoneChoices(smart.timeZone), [smart.timeZone]);
  // Parts holding a shown error get a red badge, so a closed part never hides a problem.
  const problems = new Set(
    Object.entries(form.errors)
      .filter(([, error]) => typeof error === 'string' && error !== '')
      .map(([path]) => smartPartOf(path)),
  );

  const focusLater = (selector: string, fallback?: string) =>
    requestAnimationFrame(() => {
      const target = document.querySelector<HTMLElement>(selector);
      if (target && !target.hasAttribute('disabled')) target.focus();
      else if (fallback) document.querySelector<HTMLElement>(fallback)?.focus();
    });

  const move = (from: number, to: number, button: 'up' | 'down') => {
    form.reorderListItem('smart.rules', { from, to });
    const rule = from + 1;
    const position = to + 1;
    setAnnouncement(
      button === 'up'
        ? t`Rule ${rule} moved up to position ${position}.`
        : t`Rule ${rule} moved down to position ${position}.`,
    );
    const other = button === 'up' ? 'down' : 'up';
    focusLater(
      `[data-rule="${to + 1}"] [data-move="${button}"]`,
      `[data-rule="${to + 1}"] [data-move="${other}"]`,
    );
  };

  const remove = (index: number) => {
    form.removeListItem('smart.rules', index);
    const rule = index + 1;
    setAnnouncement(t`Rule ${rule} removed.`);
    focusLater('[data-add-rule]');
  };

  const add = () => {
    form.insertListItem('smart.rules', newRule());
    const rule = smart.rules.length + 1;
    setAnnouncement(t`Rule ${rule} added.`);
  };

  const rulesError = form.errors['smart.rules'];
  const maxRules = SMART_RULES_MAX;
  // The parts opened at least once: a closed panel is drawn but hidden, so its fields wait for a first open.
  const [shown, setShown] = useState<SmartPart[]>(sections.opened);
  if (sections.opened.some((part) => !shown.includes(part)))
    setShown([...new Set([...shown, ...sections.opened])]);

  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby="smart-redirect-title">
      <Title order={3} size="h5" mb={4} id="smart-redirect-title">
        <Trans>Smart redirect</Trans>
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        <Trans>
          Send scans to different places by device, country, language or time; schedule, limit, pause or lock
          the code.
        </Trans>
      </Text>
      <Accordion
        multiple
        variant="contained"
        value={sections.opened}
        onChange={(v) => sections.setOpened(v as SmartPart[])}
        chevronPosition="right"
      >
        {smartParts.map((part) => (
          <Accordion.Item key={part} value={part}>
            <Accordion.Control>
              <PartControl part={part} summary={summaries[part]} problem={problems.has(part)} />
            </Accordion.Control>
            <Accordion.Panel>
              {shown.includes(part) && (
                <Suspense fallback={partLoading}>
                  {part === 'rules' && (
                    <Stack gap="sm">
                      <Text size="sm">
                        <Trans>
                          Rules are checked in order and the first that matches decides; a scan no rule
                          matches goes to the code&apos;s own link.
                        </Trans>
                      </Text>
                      <Select
                        label={t`Time zone`}
                        description={t`For the rules' days and hours and the dates of the schedule.`}
                        data={zones}
                        searchable
                        allowDeselect={false}
                        comboboxProps={{ withinPortal: true }}
                        {...form.getInputProps('smart.timeZone')}
                      />
                      {smart.rules.length === 0 ? (
                        <Text size="sm" c="dimmed" ta="center" py="sm">
                          {destination === null
                            ? t`No rules yet: every scan goes to the code's link.`
                            : t`No rules yet: every scan goes to ${destination}.`}
                        </Text>
                      ) : (
                        smart.rules.map((rule, i) => (
                          <Suspense key={rule.key} fallback={partLoading}>
                            <RuleEditor
                              form={form}
                              index={i}
                              count={smart.rules.length}
                              rule={rule}
                              timeZone={smart.timeZone}
                              onMove={move}
                              onRemove={remove}
                            />
                          </Suspense>
                        ))
                      )}
                      {typeof rulesError === 'string' && (
                        <Text size="xs" c="red" role="alert">
                          {translateShared(rulesError)}
                        </Text>
                      )}
                      <Group>
                        <Button
                          variant="light"
                          leftSection={<IconPlus size={16} aria-hidden />}
                          onClick={add}
                          disabled={smart.rules.length >= SMART_RULES_MAX}
                          data-add-rule
                        >
                          <Trans>Add rule</Trans>
                        </Button>
                        {smart.rules.length >= SMART_RULES_MAX && (
                          <Text size="xs" c="dimmed">
                            {plural(maxRules, { one: 'At most # rule.', other: 'At most # rules.' })}
                          </Text>
                        )}
                      </Group>
                      <VisuallyHidden role="status" aria-live="polite">
                        {announcement}
                      </VisuallyHidden>
                    </Stack>
                  )}
                  {part === 'test' && (
                    <ScanTester
                      options={check.options}
                      problem={check.problem}
                      destination={destination}
                      timeZone={smart.timeZone}
                      password={smart.protect}
                    />
                  )}
                  {part === 'schedule' && <ScheduleFields form={form} />}
                  {part === 'password' && <PasswordFields form={form} />}
                  {part === 'tracking' && <TrackingFields form={form} destination={destination} />}
                </Suspense>
              )}
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Card>
  );
}
