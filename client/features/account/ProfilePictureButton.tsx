import { ActionIcon, Avatar, Box, FileButton, Loader, Tooltip } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { IconCamera } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { accountMessages } from '../../../src/auth/account.schema';
import type { User } from '../../../src/auth/auth.schema';
import { initialsOf } from '../../../src/auth/initials';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { trpcUtils } from '../../lib/trpc';

const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
const ACCEPTED = ['image/jpeg', 'image/png', 'image/svg+xml'];

/** The profile picture rules, checked before sending: JPEG, PNG or SVG, under 5MB. */
export function checkPictureFile(file: File): string | null {
  const typeOk = file.type ? ACCEPTED.includes(file.type) : /\.(jpe?g|png|svg)$/i.test(file.name);
  if (!typeOk) return accountMessages.pictureType;
  if (file.size >= PICTURE_MAX_BYTES) return accountMessages.pictureSize;
  return null;
}

/** The server's message of a failed upload, else the status. */
async function failureOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON
  }
  return `${response.status}: ${response.statusText}`;
}

/** The avatar with a camera button that uploads a new profile picture (POST /api/upload/profile-picture). */
export function ProfilePictureButton({ user, size = 96 }: { user: User; size?: number }) {
  const { t } = useLingui();
  const [uploading, setUploading] = useState(false);
  const resetRef = useRef<() => void>(null);
  const name = user.name?.trim() || user.username;

  const upload = async (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    const problem = checkPictureFile(file);
    if (problem) {
      notify.error(t`Upload failed`, translateShared(problem));
      return;
    }
    setUploading(true);
    try {
      const body = new FormData();
      body.append('profilePicture', file);
      const response = await fetch('/api/upload/profile-picture', {
        method: 'POST',
        body,
        credentials: 'include',
      });
      if (!response.ok) throw new Error(await failureOf(response));
      const { user: updated } = (await response.json()) as { user: User };
      trpcUtils.auth.me.setData(undefined, updated);
      notify.success(t`Profile picture updated`);
    } catch (error) {
      notify.error(
        t`Upload failed`,
        error instanceof Error ? translateShared(error.message) : t`Upload failed`,
      );
    } finally {
      setUploading(false);
    }
  };

  return (
    <Box pos="relative" w={size} h={size} style={{ flexShrink: 0 }}>
      <Avatar
        src={user.profilePicture}
        alt={name}
        size={size}
        radius={size}
        color="blue"
        data-testid="profile-avatar"
      >
        {initialsOf(user)}
      </Avatar>
      <FileButton
        onChange={(file) => void upload(file)}
        accept="image/png,image/jpeg,image/svg+xml"
        resetRef={resetRef}
      >
        {(props) => (
          <Tooltip label={t`Change profile picture`}>
            <ActionIcon
              {...props}
              variant="filled"
              radius="xl"
              size="lg"
              aria-label={t`Change profile picture`}
              disabled={uploading}
              pos="absolute"
              bottom={0}
              right={0}
              style={{ border: '2px solid var(--mantine-color-body)' }}
            >
              {uploading ? <Loader size={16} color="white" /> : <IconCamera size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </FileButton>
    </Box>
  );
}
