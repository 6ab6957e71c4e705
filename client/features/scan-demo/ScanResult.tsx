import { msg } from '@lingui/core/macro';
import {
  ActionIcon,
  Anchor,
  Avatar,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Divider,
  Group,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconCalendarEvent,
  IconCheck,
  IconCopy,
  IconExternalLink,
  IconMail,
  IconMessage,
  IconPhone,
  IconUser,
} from '@tabler/icons-react';
import { useId } from 'react';
import { formatEventRange, mailtoLink, phoneNumbersIn, smsLink, telLink } from '../../../src/qr/actions';
import { decodeContent, type ContentFields } from '../../../src/qr/content';
import { isHttpUrl } from '../../../src/qr/field-checks';
import { wifiEncryptionOptions } from '../../../src/qr/content-fields';
import { normalizeQrType, qrTypeLabels, type QrType } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';
import { mailtoHref } from './scan-links';
import { useTranslate } from './use-translate';

export interface ScanResultData {
  type: QrType;
  content: string;
}

const wrap = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** One labelled value of a description list; blank optional values are left out. */
function Field({
  label,
  value,
  children,
  optional = false,
}: {
  label: string;
  value: string;
  children?: React.ReactNode;
  optional?: boolean;
}) {
  const _ = useTranslate();
  if (optional && !value.trim()) return null;
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} style={wrap}>
        {children ??
          (value.trim() ? (
            value
          ) : (
            <Text span c="dimmed" fs="italic" inherit>
              {_(msg`Not set`)}
            </Text>
          ))}
      </Text>
    </div>
  );
}

function FieldList({ children }: { children: React.ReactNode }) {
  return (
    <Stack component="dl" gap="sm" m={0}>
      {children}
    </Stack>
  );
}

function Actions({ children }: { children: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="wrap">
      {children}
    </Group>
  );
}

function CallButton({ phone, label }: { phone: string; label?: string }) {
  const _ = useTranslate();
  const href = telLink(phone);
  if (!href) return null;
  return (
    <Button component="a" href={href} leftSection={<IconPhone size={18} aria-hidden />}>
      {label ?? _(msg`Call Number`)}
    </Button>
  );
}

function LinkView({ url }: { url: string }) {
  const _ = useTranslate();
  const safe = isHttpUrl(url);
  return (
    <Stack gap="sm">
      <FieldList>
        <Field label={_(msg`Link`)} value={url}>
          {safe ? (
            <Anchor href={url} target="_blank" rel="noopener noreferrer" style={wrap}>
              {url}
            </Anchor>
          ) : undefined}
        </Field>
      </FieldList>
      {safe ? (
        <Actions>
          <Button
            component="a"
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            leftSection={<IconExternalLink size={18} aria-hidden />}
          >
            {_(msg`Open URL`)}
          </Button>
        </Actions>
      ) : (
        url.trim() && (
          <Text size="sm" c="dimmed">
            {_(msg`This is not a web (http or https) link, so it is not opened.`)}
          </Text>
        )
      )}
    </Stack>
  );
}

/** The text, and each phone number it mentions (up to three, as the landing page finds them) to call. */
function TextView({ text }: { text: string }) {
  const _ = useTranslate();
  const phones = phoneNumbersIn(text);
  const callLabel = (number: string) => _(msg`Call ${number}`);
  return (
    <Stack gap="sm">
      <FieldList>
        <Field label={_(msg`Text`)} value={text} />
        {phones.map((p) => (
          <Field key={p.href} label={_(msg`Phone number found`)} value={p.label} />
        ))}
      </FieldList>
      {phones.length > 0 && (
        <Actions>
          {phones.map((p) => (
            <CallButton
              key={p.href}
              phone={p.label}
              label={phones.length > 1 ? callLabel(p.label) : undefined}
            />
          ))}
        </Actions>
      )}
    </Stack>
  );
}

function EmailView({ fields, content }: { fields: ContentFields; content: string }) {
  const _ = useTranslate();
  const href = mailtoHref(content, fields);
  return (
    <Stack gap="sm">
      <FieldList>
        <Field
          label={_(msg({ message: 'To', context: 'the address an e-mail is sent to' }))}
          value={fields.email ?? ''}
        />
        <Field label={_(msg`Subject`)} value={fields.subject ?? ''} optional />
        <Field label={_(msg`Message`)} value={fields.body ?? ''} optional />
      </FieldList>
      {href && (
        <Actions>
          <Button component="a" href={href} leftSection={<IconMail size={18} aria-hidden />}>
            {_(msg`Send Email`)}
          </Button>
        </Actions>
      )}
    </Stack>
  );
}

function SmsView({ fields }: { fields: ContentFields }) {
  const _ = useTranslate();
  const phone = fields.phone ?? '';
  const message = fields.message ?? '';
  const href = smsLink(phone, message);
  return (
    <Stack gap="sm">
      <FieldList>
        <Field label={_(msg`Phone number`)} value={phone} />
        <Field label={_(msg`Message`)} value={message} optional />
      </FieldList>
      {href && (
        <Actions>
          <Button component="a" href={href} leftSection={<IconMessage size={18} aria-hidden />}>
            {_(msg`Send SMS`)}
          </Button>
        </Actions>
      )}
    </Stack>
  );
}

function PhoneView({ phone }: { phone: string }) {
  const _ = useTranslate();
  return (
    <Stack gap="sm">
      <FieldList>
        <Field label={_(msg`Phone number`)} value={phone} />
      </FieldList>
      <Actions>
        <CallButton phone={phone} />
      </Actions>
    </Stack>
  );
}

function WifiView({ fields }: { fields: ContentFields }) {
  const _ = useTranslate();
  const encryption = fields.encryption ?? '';
  const open = encryption === 'nopass';
  // The encryption's name (WPA/WPA2…) comes from src/qr/content-fields.ts.
  const label = wifiEncryptionOptions.find((o) => o.value === encryption)?.label;
  const security = label === undefined ? encryption : translateShared(label);
  const password = fields.password ?? '';
  return (
    <FieldList>
      <Field label={_(msg`Network name (SSID)`)} value={fields.ssid ?? ''} />
      <Field label={_(msg`Security`)} value={open ? _(msg`None (open network)`) : security} />
      {!open && (
        <Field label={_(msg`Password`)} value={password}>
          {password ? (
            <Group gap="xs" wrap="nowrap" align="flex-start" component="span">
              <Text span ff="monospace" style={{ ...wrap, minWidth: 0 }}>
                {password}
              </Text>
              <CopyButton value={password} timeout={2000}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? _(msg`Copied`) : _(msg`Copy password`)} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color={copied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label={copied ? _(msg`Password copied`) : _(msg`Copy password`)}
                    >
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          ) : undefined}
        </Field>
      )}
    </FieldList>
  );
}

function VcardView({ fields }: { fields: ContentFields }) {
  const _ = useTranslate();
  const name = [fields.firstName, fields.lastName].filter((v) => v?.trim()).join(' ');
  const phone = fields.phone ?? '';
  const email = fields.email ?? '';
  const website = fields.website ?? '';
  const tel = telLink(phone);
  const mailto = mailtoLink(email);
  return (
    <Card withBorder radius="md" padding="md">
      <Group gap="sm" wrap="nowrap" align="flex-start" mb="sm">
        <Avatar radius="xl" color="blue" aria-hidden>
          <IconUser size={20} />
        </Avatar>
        <Text fw={700} size="lg" style={{ ...wrap, minWidth: 0 }}>
          {name || _(msg`Unnamed contact`)}
        </Text>
      </Group>
      <FieldList>
        <Field label={_(msg`Organization`)} value={fields.organization ?? ''} optional />
        <Field label={_(msg`Job title`)} value={fields.title ?? ''} optional />
        <Field label={_(msg`Phone`)} value={phone} optional>
          {tel ? <Anchor href={tel}>{phone}</Anchor> : undefined}
        </Field>
        <Field label={_(msg`Email`)} value={email} optional>
          {mailto ? (
            <Anchor href={mailto} style={wrap}>
              {email}
            </Anchor>
          ) : undefined}
        </Field>
        <Field label={_(msg`Website`)} value={website} optional>
          {isHttpUrl(website) ? (
            <Anchor href={website} target="_blank" rel="noopener noreferrer" style={wrap}>
              {website}
            </Anchor>
          ) : undefined}
        </Field>
      </FieldList>
    </Card>
  );
}

function EventView({ fields }: { fields: ContentFields }) {
  const _ = useTranslate();
  // The same words as the event's landing page: in its own time zone, named, else UTC.
  const when = formatEventRange(fields.startDate ?? '', fields.endDate ?? '', fields.timeZone ?? '');
  return (
    <Card withBorder radius="md" padding="md">
      <Group gap="sm" wrap="nowrap" align="flex-start" mb="sm">
        <Avatar radius="md" color="grape" aria-hidden>
          <IconCalendarEvent size={20} />
        </Avatar>
        <Text fw={700} size="lg" style={{ ...wrap, minWidth: 0 }}>
          {fields.title?.trim() || _(msg`Untitled event`)}
        </Text>
      </Group>
      <FieldList>
        <Field label={_(msg({ message: 'When', context: 'the date and time of an event' }))} value={when} />
        <Field label={_(msg`Location`)} value={fields.location ?? ''} optional />
        <Field label={_(msg`Description`)} value={fields.description ?? ''} optional />
      </FieldList>
    </Card>
  );
}

function TypeView({ type, content }: ScanResultData) {
  const fields = decodeContent(type, content);
  switch (type) {
    case 'url':
    case 'social':
    case 'pdf':
    case 'video':
    case 'image':
      return <LinkView url={fields.url ?? ''} />;
    case 'text':
      return <TextView text={fields.text ?? ''} />;
    case 'email':
      return <EmailView fields={fields} content={content} />;
    case 'sms':
      return <SmsView fields={fields} />;
    case 'phone':
      return <PhoneView phone={fields.phone ?? ''} />;
    case 'wifi':
      return <WifiView fields={fields} />;
    case 'vcard':
      return <VcardView fields={fields} />;
    case 'event':
      return <EventView fields={fields} />;
    default:
      return (
        <Text style={wrap} ff="monospace">
          {content}
        </Text>
      );
  }
}

/** What a phone shows for the scanned code: its type, a view of its content, and the raw payload. */
export function ScanResult({ result }: { result: ScanResultData }) {
  const _ = useTranslate();
  const headingId = useId();
  const rawId = useId();
  const type = normalizeQrType(result.type);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={3} size="h4" id={headingId}>
            {_(msg`Scan Result`)}
          </Title>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed">
              {_(msg({ message: 'Type', context: 'the kind of QR code' }))}
            </Text>
            <Badge size="lg" variant="light">
              {translateShared(qrTypeLabels[type])}
            </Badge>
          </Group>
        </Group>
        <TypeView type={type} content={result.content} />
        <Divider />
        <Stack gap={4}>
          <Text size="sm" fw={600} id={rawId}>
            {_(msg`Raw content`)}
          </Text>
          <Code block aria-labelledby={rawId} style={wrap}>
            {result.content || ' '}
          </Code>
        </Stack>
      </Stack>
    </Card>
  );
}
