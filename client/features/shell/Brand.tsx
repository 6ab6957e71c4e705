import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';

/** The product's name and mark, linking to the dashboard. */
export function Brand() {
  return (
    <Link to="/" activeOptions={{ exact: true }} style={{ textDecoration: 'none', color: 'inherit' }}>
      <Group gap="xs" wrap="nowrap">
        <ThemeIcon size="lg" radius="md" variant="filled" aria-hidden>
          <IconQrcode size={22} />
        </ThemeIcon>
        <Text component="span" fw={800} size="lg">
          QR Creator
        </Text>
      </Group>
    </Link>
  );
}
