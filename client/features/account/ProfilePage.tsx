import { Badge, Button, Card, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { accountMessages, updateProfileInput } from '../../../src/auth/account.schema';
import type { User } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc, trpcUtils } from '../../lib/trpc';
import { PasswordForm } from './PasswordForm';
import { ProfilePictureButton } from './ProfilePictureButton';
import { useCurrentUser } from '../auth/use-auth';

/**
 * Beside the Unverified badge: mails a new verification link to the address (one a minute, five an hour:
 * the server says when to try again). An address verified meanwhile (another tab) refreshes the badge.
 */
function SendVerificationLink({ email }: { email: string }) {
  const send = trpc.account.sendVerificationLink.useMutation({
    onSuccess: ({ message }) => notify.success('Verification link sent', message),
    onError: async (error) => {
      const { message } = apiError(error, 'Failed to resend email');
      notify.error('Failed to resend email', message);
      if (error.data?.code === 'CONFLICT') await trpcUtils.auth.me.invalidate();
    },
  });
  return (
    <Group gap="xs" wrap="wrap" justify="space-between" data-testid="verification-prompt">
      <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
        {send.isSuccess
          ? `Sent to ${email}: open the link in that mail to verify your address.`
          : 'Not verified yet: open the link we mailed you, or ask for a new one.'}
      </Text>
      <Button
        type="button"
        size="xs"
        variant="light"
        leftSection={<IconMailForward size={16} aria-hidden />}
        loading={send.isPending}
        onClick={() => send.mutate()}
      >
        Send verification link
      </Button>
    </Group>
  );
}

function ProfileForm({ user }: { user: User }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: user.name ?? '', email: user.email ?? '', currentPassword: '' },
    validate: (values) => {
      const result = updateProfileInput.safeParse(values);
      const errors: Record<string, string> = {};
      if (!result.success) {
        for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
      }
      if (needsPassword(values.email) && values.currentPassword === '') {
        errors.currentPassword = accountMessages.passwordForEmail;
      }
      return errors;
    },
  });
  // Leaving a verified address needs the current password (the server asks for it too).
  const needsPassword = (email: string) =>
    Boolean(user.email && user.emailVerified) &&
    email.trim().toLowerCase() !== (user.email ?? '').toLowerCase();
  const update = trpc.account.updateProfile.useMutation({
    onSuccess: (updated) => {
      const emailChanged = updated.email !== user.email;
      trpcUtils.auth.me.setData(undefined, updated);
      form.setFieldValue('currentPassword', '');
      form.resetDirty({ name: updated.name ?? '', email: updated.email ?? '', currentPassword: '' });
      notify.success(
        'Success',
        emailChanged
          ? `Profile updated. We sent a verification link to ${updated.email}; your previous address can undo the change for 7 days.`
          : 'Profile updated.',
      );
    },
    onError: (error) => {
      const { message, extras } = apiError(error, 'Failed to update profile');
      if (extras.field === 'currentPassword') form.setFieldError('currentPassword', message);
      notify.error('Failed to update profile', message);
    },
  });
  return (
    <form
      onSubmit={form.onSubmit(({ name, email, currentPassword }) =>
        update.mutate({ name, email, ...(needsPassword(email) ? { currentPassword } : {}) }),
      )}
      noValidate
    >
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
        {user.email && !user.emailVerified && !form.isDirty('email') && (
          <SendVerificationLink email={user.email} />
        )}
        {needsPassword(form.values.email) && (
          <PasswordInput
            label="Password to confirm the new address"
            autoComplete="current-password"
            description="Needed to change a verified address. Until the new one is verified, password reset links go to the old one, which can also undo the change for 7 days."
            {...form.getInputProps('currentPassword')}
          />
        )}
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
