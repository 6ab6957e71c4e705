import { useLingui } from '@lingui/react/macro';
import { Card, Group, SimpleGrid, Skeleton, Stack } from '@mantine/core';

/** One QR code card while it loads: the thumbnail, name, badges, content and the action row. */
function CardSkeleton() {
  return (
    <Card withBorder padding="md" radius="md">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Skeleton w={160} h={160} radius="sm" style={{ flexShrink: 0 }} />
        <Stack gap={8} style={{ flex: 1 }}>
          <Skeleton h={18} w="70%" />
          <Group gap={6}>
            <Skeleton h={18} w={48} radius="xl" />
            <Skeleton h={18} w={64} radius="xl" />
          </Group>
          <Skeleton h={12} w="90%" />
          <Skeleton h={12} w="60%" />
        </Stack>
      </Group>
      <Group gap="xs" mt="md">
        {[110, 64, 64, 60].map((w, i) => (
          <Skeleton key={i} h={30} w={w} radius="sm" />
        ))}
      </Group>
    </Card>
  );
}

/** The My QR Codes grid while the list loads: card-shaped placeholders, not a spinner. */
export function CardGridSkeleton({ count = 4 }: { count?: number }) {
  const { t } = useLingui();
  return (
    <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} aria-busy="true" aria-label={t`Loading QR codes`}>
      {Array.from({ length: count }, (_, i) => (
        <CardSkeleton key={i} />
      ))}
    </SimpleGrid>
  );
}

/** The whole My QR Codes page while its code loads (the route's pending view). */
export function MyQrCodesPageSkeleton() {
  const { t } = useLingui();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t`Loading My QR Codes`}>
      <Group justify="space-between">
        <Skeleton h={34} w={200} />
        <Skeleton h={36} w={260} />
      </Group>
      <Skeleton h={36} w={320} />
      <Skeleton h={32} w={240} radius="xl" />
      <Skeleton h={36} />
      <CardGridSkeleton />
    </Stack>
  );
}
