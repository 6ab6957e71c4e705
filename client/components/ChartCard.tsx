import { Box, Card, Center, Group, Skeleton, Title } from '@mantine/core';
import { useId } from 'react';

/** Every chart is 300 px tall. */
export const CHART_HEIGHT = 300;

/** A titled card around a chart: a 300 px skeleton while loading, `empty` in its place when set. */
export function ChartCard({
  title,
  action,
  loading = false,
  empty,
  children,
}: {
  title: string;
  /** Controls on the title line (a period select…). */
  action?: React.ReactNode;
  loading?: boolean;
  /** Shown instead of the chart when there is nothing real to draw. */
  empty?: React.ReactNode;
  children?: React.ReactNode;
}) {
  const id = useId();
  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby={id}
      aria-busy={loading}
      h="100%"
    >
      <Group justify="space-between" align="center" mb="md" gap="xs" wrap="wrap">
        <Title order={3} size="h4" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {loading ? (
        <Skeleton h={CHART_HEIGHT} radius="md" />
      ) : empty ? (
        <Center mih={CHART_HEIGHT}>{empty}</Center>
      ) : (
        <Box miw={0}>{children}</Box>
      )}
    </Card>
  );
}
