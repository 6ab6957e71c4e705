import { Badge, Button, Card, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconMailForward } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { accountMessages, updateProfileInput } from '../../../src/auth/account.schema';
import type { User } from '../../../src/auth/auth.schema';
import { translateShared } from '../../i18n/shared-messages';
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
  const { t } = useLingui();
  const send = trpc.account.sendVerificationLink.useMutation({
    onSuccess: ({ message }) => notify.success(t`Verification link sent`, translateShared(message)),
    onError: async (error) => {
      const { message } = apiError(error, t`Failed to resend email`);
      notify.error(t`Failed to resend email`, message);
      if (error.data?.code === 'CONFLICT') await trpcUtils.auth.me.invalidate();
    },
  });
  return (
    <Group gap="xs" wrap="wrap" justify="space-between" data-testid="verification-prompt">
      <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
        {send.isSuccess
          ? t`Sent to ${email}: open the link in that mail to verify your address.`
          : t`Not verified yet: open the link we mailed you, or ask for a new one.`}
      </Text>
      <Button
        type="button"
        size="xs"
        variant="light"
        leftSection={<IconMailForward size={16} aria-hidden />}
        loading={send.isPending}
        onClick={() => send.mutate()}
      >
        <Trans>Send verification link</Trans>
      </Button>
    </Group>
  );
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useLingui();
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
      const email = updated.email;
      trpcUtils.auth.me.setData(undefined, updated);
      form.setFieldValue('currentPassword', '');
      form.resetDirty({ name: updated.name ?? '', email: updated.email ?? '', currentPassword: '' });
      notify.success(
        t`Success`,
        emailChanged
          ? t`Profile updated. We sent a verification link to ${email}; your previous address can undo the change for 7 days.`
          : t`Profile updated.`,
      );
    },
    onError: (error) => {
      const { message, extras } = apiError(error, t`Failed to update profile`);
      if (extras.field === 'currentPassword') form.setFieldError('currentPassword', message);
      notify.error(t`Failed to update profile`, message);
    },
  });
  // src/'s checks write their messages in English: shown in the active language.
  const inputProps = (name: 'name' | 'email' | 'currentPassword') => {
    const error = form.errors[name];
    return { ...form.getInputProps(name), error: typeof error === 'string' ? translateShared(error) : error };
  };
  return (
    <form
      onSubmit={form.onSubmit(({ name, email, currentPassword }) =>
        update.mutate({ name, email, ...(needsPassword(email) ? { currentPassword } : {}) }),
      )}
      noValidate
    >
      <Stack gap="sm" maw={480}>
        <TextInput
          label={t`Username`}
          value={user.username}
          readOnly
          disabled
          description={t`Username cannot be changed`}
        />
        <TextInput label={t`Full Name`} autoComplete="name" {...inputProps('name')} />
        <TextInput
          label={t`Email Address`}
          type="email"
          autoComplete="email"
          description={t`Required for subscription upgrades and notifications`}
          rightSectionWidth={user.email ? 96 : undefined}
          rightSection={
            user.email && !form.isDirty('email') ? (
              <Badge size="xs" variant="light" color={user.emailVerified ? 'teal' : 'yellow'}>
                {user.emailVerified ? t`Verified` : t`Unverified`}
              </Badge>
            ) : undefined
          }
          {...inputProps('email')}
        />
        {user.email && !user.emailVerified && !form.isDirty('email') && (
          <SendVerificationLink email={user.email} />
        )}
        {needsPassword(form.values.email) && (
          <PasswordInput
            label={t`Password to confirm the new address`}
            autoComplete="current-password"
            description={t`Needed to change a verified address. Until the new one is verified, password reset links go to the old one, which can also undo the change for 7 days.`}
            {...inputProps('currentPassword')}
          />
        )}
        <Button
          type="submit"
          loading={update.isPending}
          disabled={!form.isDirty()}
          style={{ alignSelf: 'flex-start' }}
        >
          <Trans>Save Changes</Trans>
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
      <Title order={2}>
        <Trans>Profile</Trans>
      </Title>
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
          <Trans>Personal Information</Trans>
        </Title>
        <ProfileForm key={`${user.id}-${user.email ?? ''}-${user.name ?? ''}`} user={user} />
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          <Trans>Change Password</Trans>
        </Title>
        <PasswordForm variant="profile" />
      </Card>
    </Stack>
  );
}
