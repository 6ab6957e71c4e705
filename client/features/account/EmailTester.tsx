import { Alert, Button, Card, Group, List, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { accountMessages, type MailCheckResult } from '../../../src/auth/account.schema';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';

/** Shown when the mail server refused the sender: the addresses to verify with the mail provider. */
function SenderHelp({ senders }: { senders: string[] }) {
  const { t } = useLingui();
  return (
    <Alert color="yellow" variant="light" title={t`Sender address not verified`} role="alert">
      <Stack gap="xs">
        <Text size="sm">
          <Trans>
            The mail server refused the sender. Most providers only send from addresses you have verified with
            them. Verify these sender addresses with your mail provider, then try again:
          </Trans>
        </Text>
        <List size="sm">
          {senders.map((s) => (
            <List.Item key={s}>
              <Text span ff="monospace" size="sm">
                {s}
              </Text>
            </List.Item>
          ))}
        </List>
        <Text size="xs" c="dimmed">
          <Trans>
            They come from MAIL_FROM (the no-reply address) and MAIL_SUPPORT (the support address).
          </Trans>
        </Text>
      </Stack>
    </Alert>
  );
}

const sendersOf = (extras: Record<string, unknown>): string[] | null =>
  extras.senderRejected === true && Array.isArray(extras.senders)
    ? extras.senders.filter((s): s is string => typeof s === 'string')
    : null;

/** Admins: check the mail service and send a test e-mail. */
export function EmailTester() {
  const { t } = useLingui();
  const [senders, setSenders] = useState<string[] | null>(null);
  const [status, setStatus] = useState<MailCheckResult | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      to: '',
      subject: t`QR Creator test email`,
      message: t`This is a test email from QR Creator.`,
      from: '',
    },
    validate: (v) =>
      v.to.trim() && v.subject.trim() && v.message.trim() ? {} : { to: accountMessages.emailTestFields },
  });
  const verify = trpc.account.verifyEmailService.useMutation({
    onSuccess: (result) => {
      setSenders(null);
      setStatus(result);
      notify.success(t`Success`, translateShared(result.message));
    },
    onError: (error) => {
      const { message, extras } = apiError(error, t`Failed to verify email service`);
      setStatus({ success: false, message });
      setSenders(sendersOf(extras));
      notify.error(t`Failed to verify email service`, message);
    },
  });
  const send = trpc.account.sendTestEmail.useMutation({
    onSuccess: (result) => {
      setSenders(null);
      notify.success(t`Success`, translateShared(result.message));
    },
    onError: (error) => {
      const { message, extras } = apiError(error, t`Failed to send email`);
      setSenders(sendersOf(extras));
      notify.error(t`Failed to send email`, message);
    },
  });
  // src/'s message, in English there: shown in the active language.
  const toError = typeof form.errors.to === 'string' ? translateShared(form.errors.to) : form.errors.to;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <div>
          <Title order={3} size="h4">
            <Trans>Email configuration</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Check that this server can send e-mail, and send a test message.</Trans>
          </Text>
        </div>
        <Group>
          <Button
            variant="light"
            leftSection={<IconMailCheck size={18} aria-hidden />}
            loading={verify.isPending}
            onClick={() => verify.mutate()}
          >
            <Trans>Verify Email Service</Trans>
          </Button>
        </Group>
        {status && (
          <Text size="sm" c={status.success ? 'teal' : 'red'} role="status">
            {translateShared(status.message)}
          </Text>
        )}
        <form
          noValidate
          onSubmit={form.onSubmit(
            (v) =>
              send.mutate({
                to: v.to,
                subject: v.subject,
                message: v.message,
                ...(v.from.trim() ? { from: v.from.trim() } : {}),
              }),
            () => notify.error(t`Error`, translateShared(accountMessages.emailTestFields)),
          )}
        >
          <Stack gap="sm" maw={520}>
            <TextInput
              label={t({ message: 'To', context: 'recipient of an e-mail' })}
              type="email"
              placeholder="you@example.com"
              {...form.getInputProps('to')}
              error={toError}
            />
            <TextInput
              label={t`From (optional)`}
              placeholder={t`The server's sender`}
              {...form.getInputProps('from')}
            />
            <TextInput label={t`Subject`} {...form.getInputProps('subject')} />
            <Textarea
              label={t({ message: 'Message', context: 'body of an e-mail' })}
              autosize
              minRows={3}
              {...form.getInputProps('message')}
            />
            <Button type="submit" loading={send.isPending} style={{ alignSelf: 'flex-start' }}>
              <Trans>Send Test Email</Trans>
            </Button>
          </Stack>
        </form>
        {senders && senders.length > 0 && <SenderHelp senders={senders} />}
      </Stack>
    </Card>
  );
}
