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
      notify.success('User created', `${created.username} can now log in.`);
      await refresh();
      onClose();
    },
    onError: (error) => notify.error(`Failed to create user: ${apiError(error, 'Error').message}`),
  });
  const update = trpc.admin.updateUser.useMutation({
    onSuccess: async (updated) => {
      notify.success('User updated', `${updated.username} was saved.`);
      await refresh();
      onClose();
    },
    onError: (error) => notify.error(`Failed to update user: ${apiError(error, 'Error').message}`),
  });

  const submit = () => {
    const found: Record<string, string> = {};
    if (values.username.trim().length === 0) found.username = 'Username is required';
    else if (values.username.trim().length < 3) found.username = 'Username must be at least 3 characters';
    if (!editing) {
      if (values.password.length === 0) found.password = 'Password is required';
      else if (values.password.length < 6) found.password = 'Password must be at least 6 characters';
    }
    if (values.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) {
      found.email = 'Invalid email address';
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

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit ${user.username}` : 'Create User'}
      centered
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Username"
            required
            data-autofocus
            value={values.username}
            error={errors.username}
            onChange={(e) => set('username')(e.currentTarget.value)}
          />
          {!editing && (
            <PasswordInput
              label="Password"
              required
              description="At least 6 characters"
              value={values.password}
              error={errors.password}
              onChange={(e) => set('password')(e.currentTarget.value)}
            />
          )}
          <TextInput
            label="Full Name"
            value={values.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
          />
          <TextInput
            label="Email"
            type="email"
            value={values.email}
            error={errors.email}
            onChange={(e) => set('email')(e.currentTarget.value)}
          />
          <Switch
            label="Administrator"
            description="Admins manage users and subscriptions"
            checked={values.isAdmin}
            onChange={(e) => set('isAdmin')(e.currentTarget.checked)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? 'Save changes' : 'Create user'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
