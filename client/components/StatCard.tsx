import { Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';

/** A labelled number; a skeleton in place of the value while it loads. */
export function StatCard({
  label,
  value,
  icon,
  color = 'blue',
  loading = false,
  valueSize = 28,
  children,
}: {
  label: string;
  value?: React.ReactNode;
  icon: React.ReactNode;
  color?: string;
  loading?: boolean;
  /** Font size of the value in px. */
  valueSize?: number;
  /** Extra lines under the value. */
  children?: React.ReactNode;
}) {
  return (
    <Card withBorder padding="lg" radius="md" role="group" aria-label={label} aria-busy={loading}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={4} miw={0}>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          {loading ? (
            <Skeleton h={34} w={90} mt={2} />
          ) : (
            value !== undefined && (
              <Text fz={valueSize} fw={700} lh={1.2} data-stat-value>
                {value}
              </Text>
            )
          )}
          {loading ? <Skeleton h={12} w={140} mt={4} /> : children}
        </Stack>
        <ThemeIcon variant="light" color={color} size={42} radius="md" aria-hidden>
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
