import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, PasswordInput, Stack, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { AdminUser } from '../../../../src/admin/admin.schema';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';

interface Props {
  /** The user to edit; none: a new user. */
  user?: AdminUser;
  opened: boolean;
  onClose: () => void;
}

function useRefresh() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.admin.users.invalidate(), utils.admin.subscriptions.invalidate()]);
}

/** Create User and Edit user: username, (password), full name, e-mail, administrator. */
export function UserFormModal({ user, opened, onClose }: Props) {
  const { t } = useLingui();
  const editing = user !== undefined;
  const refresh = useRefresh();
  const [values, setValues] = useState({
    username: user?.username ?? '',
    password: '',
    name: user?.name ?? '',
    email: user?.email ?? '',
    isAdmin: user?.isAdmin ?? false,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A field's error goes as soon as it is edited.
  const set = (key: keyof typeof values) => (value: string | boolean) => {
    setValues({ ...values, [key]: value });
    if (errors[key]) setErrors({ ...errors, [key]: '' });
  };

  const create = trpc.admin.createUser.useMutation({
    onSuccess: async (created) => {
      const username = created.username;
      notify.success(t`User created`, t`${username} can now log in.`);
      await refresh();
      onClose();
    },
    onError: (error) => {
      const reason = apiError(error, t`Error`).message;
      notify.error(t`Failed to create user: ${reason}`);
    },
  });
  const update = trpc.admin.updateUser.useMutation({
    onSuccess: async (updated) => {
      const username = updated.username;
      notify.success(t`User updated`, t`${username} was saved.`);
      await refresh();
      onClose();
    },
    onError: (error) => {
      const reason = apiError(error, t`Error`).message;
      notify.error(t`Failed to update user: ${reason}`);
    },
  });

  const submit = () => {
    const found: Record<string, string> = {};
    if (values.username.trim().length === 0) found.username = t`Username is required`;
    else if (values.username.trim().length < 3) found.username = t`Username must be at least 3 characters`;
    if (!editing) {
      if (values.password.length === 0) found.password = t`Password is required`;
      else if (values.password.length < 6) found.password = t`Password must be at least 6 characters`;
    }
    if (values.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) {
      found.email = t`Invalid email address`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const common = {
      username: values.username.trim(),
      name: values.name.trim() || null,
      email: values.email.trim() || null,
      isAdmin: values.isAdmin,
    };
    if (editing) update.mutate({ id: user.id, ...common });
    else create.mutate({ ...common, password: values.password });
  };

  const username = user?.username ?? '';
  return (
    <Modal opened={opened} onClose={onClose} title={editing ? t`Edit ${username}` : t`Create User`} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t`Username`}
            required
            data-autofocus
            value={values.username}
            error={errors.username}
            onChange={(e) => set('username')(e.currentTarget.value)}
          />
          {!editing && (
            <PasswordInput
              label={t`Password`}
              required
              description={t`At least 6 characters`}
              value={values.password}
              error={errors.password}
              onChange={(e) => set('password')(e.currentTarget.value)}
            />
          )}
          <TextInput
            label={t`Full Name`}
            value={values.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
          />
          <TextInput
            label={t`Email`}
            type="email"
            value={values.email}
            error={errors.email}
            onChange={(e) => set('email')(e.currentTarget.value)}
          />
          <Switch
            label={t`Administrator`}
            description={t`Admins manage users and subscriptions`}
            checked={values.isAdmin}
            onChange={(e) => set('isAdmin')(e.currentTarget.checked)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? t`Save changes` : t`Create user`}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
