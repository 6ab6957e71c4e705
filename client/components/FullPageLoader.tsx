import { useLingui } from '@lingui/react/macro';
import { Center, Loader } from '@mantine/core';

export function FullPageLoader() {
  const { t } = useLingui();
  return (
    <Center h="100dvh" role="status" aria-label={t`Loading`}>
      <Loader />
    </Center>
  );
}
