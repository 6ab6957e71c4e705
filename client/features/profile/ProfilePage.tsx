import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { updateProfileInput } from '../../../src/auth/account.schema';
import type { User } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc, trpcUtils } from '../../lib/trpc';
import { PasswordForm } from '../account/PasswordForm';
import { ProfilePictureButton } from '../account/ProfilePictureButton';
import { useCurrentUser } from '../auth/use-auth';

function ProfileForm({ user }: { user: User }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: user.name ?? '', email: user.email ?? '' },
    validate: (values) => {
      const result = updateProfileInput.safeParse(values);
      if (result.success) return {};
      const errors: Record<string, string> = {};
      for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
      return errors;
    },
  });
  const update = trpc.account.updateProfile.useMutation({
    onSuccess: (updated) => {
      const emailChanged = updated.email !== user.email;
      trpcUtils.auth.me.setData(undefined, updated);
      form.resetDirty({ name: updated.name ?? '', email: updated.email ?? '' });
      notify.success(
        'Success',
        emailChanged
          ? `Profile updated. We sent a verification link to ${updated.email}.`
          : 'Profile updated.',
      );
    },
    onError: (error) =>
      notify.error('Failed to update profile', apiError(error, 'Failed to update profile').message),
  });
  return (
    <form onSubmit={form.onSubmit((values) => update.mutate(values))} noValidate>
      <Stack gap="sm" maw={480}>
        <TextInput
          label="Username"
          value={user.username}
          readOnly
          disabled
          description="Username cannot be changed"
        />
        <TextInput label="Full Name" autoComplete="name" {...form.getInputProps('name')} />
        <TextInput
          label="Email Address"
          type="email"
          autoComplete="email"
          description="Required for subscription upgrades and notifications"
          rightSectionWidth={user.email ? 96 : undefined}
          rightSection={
            user.email && !form.isDirty('email') ? (
              <Badge size="xs" variant="light" color={user.emailVerified ? 'teal' : 'yellow'}>
                {user.emailVerified ? 'Verified' : 'Unverified'}
              </Badge>
            ) : undefined
          }
          {...form.getInputProps('email')}
        />
        <Button
          type="submit"
          loading={update.isPending}
          disabled={!form.isDirty()}
          style={{ alignSelf: 'flex-start' }}
        >
          Save Changes
        </Button>
      </Stack>
    </form>
  );
}

/** /profile: the picture, name and e-mail, and the profile's password form. */
export function ProfilePage() {
  const user = useCurrentUser();
  if (!user) return null;
  const name = user.name?.trim() || user.username;
  return (
    <Stack gap="lg" maw={720}>
      <Title order={2}>Profile</Title>
      <Card withBorder radius="md" padding="lg">
        <Group gap="lg" wrap="nowrap" align="center">
          <ProfilePictureButton user={user} />
          <Stack gap={2} miw={0}>
            <Text fw={700} size="lg" truncate="end">
              {name}
            </Text>
            <Text c="dimmed" size="sm" truncate="end">
              @{user.username}
            </Text>
          </Stack>
        </Group>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          Personal Information
        </Title>
        <ProfileForm key={`${user.id}-${user.email ?? ''}-${user.name ?? ''}`} user={user} />
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          Change Password
        </Title>
        <PasswordForm variant="profile" />
      </Card>
    </Stack>
  );
}
