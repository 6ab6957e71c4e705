import { Trans, useLingui } from '@lingui/react/macro';
import {
  Accordion,
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Flex,
  Group,
  List,
  Modal,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAddressBook,
  IconCalendarEvent,
  IconChartBar,
  IconFileText,
  IconFolders,
  IconHelp,
  IconHelpCircle,
  IconInfoCircle,
  IconLink,
  IconMail,
  IconMessage,
  IconPalette,
  IconPhone,
  IconQrcode,
  IconRocket,
  IconShieldLock,
  IconSparkles,
  IconWifi,
} from '@tabler/icons-react';
import type { TablerIcon } from '@tabler/icons-react';
import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType } from 'react';
import { translateShared } from '../../i18n/shared-messages';
import classes from './HelpDialog.module.css';
import {
  closeHelpLabel,
  faqItems,
  featureSections,
  gettingStartedSteps,
  helpDialogTitle,
  helpTabs,
  moreTypesNote,
  qrTypeCards,
} from './help-content';
import type { FeatureValue, HelpQrType, HelpTab, HelpTabValue } from './help-content';

export interface HelpDialogProps {
  opened: boolean;
  onClose: () => void;
}

const tabIcons: Record<HelpTabValue, TablerIcon> = {
  'getting-started': IconRocket,
  'qr-types': IconQrcode,
  features: IconSparkles,
  faq: IconHelpCircle,
};

const typeIcons: Record<HelpQrType, TablerIcon> = {
  url: IconLink,
  email: IconMail,
  text: IconFileText,
  sms: IconMessage,
  wifi: IconWifi,
  vcard: IconAddressBook,
  event: IconCalendarEvent,
  phone: IconPhone,
};

const featureIcons: Record<FeatureValue, TablerIcon> = {
  customisation: IconPalette,
  analytics: IconChartBar,
  organisation: IconFolders,
  security: IconShieldLock,
};

/** A message whose text values are src/'s names (the templates'), with those names in the app's language. */
function withSharedNames(message: MessageDescriptor): MessageDescriptor {
  if (!message.values) return message;
  const values = Object.fromEntries(
    Object.entries(message.values).map(([key, value]) => [
      key,
      typeof value === 'string' ? translateShared(value) : value,
    ]),
  );
  return { ...message, values };
}

function PanelHeading({ tab }: { tab: HelpTab }) {
  const { t } = useLingui();
  return (
    <Stack gap={4} mb="md">
      <Title order={3}>{t(tab.heading)}</Title>
      <Text c="dimmed" size="sm">
        {t(tab.intro)}
      </Text>
    </Stack>
  );
}

function GettingStartedPanel() {
  const { t } = useLingui();
  return (
    <Flex component="ol" direction="column" gap="lg" className={classes.steps}>
      {gettingStartedSteps.map((step, index) => (
        <Flex component="li" key={index} align="flex-start" wrap="nowrap" gap="md">
          <ThemeIcon size="lg" radius="xl" variant="filled" aria-hidden>
            <Text component="span" fw={700} size="sm" c="inherit">
              {index + 1}
            </Text>
          </ThemeIcon>
          <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
            <Title order={4}>{t(step.title)}</Title>
            <Text size="sm">{t(step.description)}</Text>
            <List size="sm" spacing={4} withPadding>
              {step.tips.map((tip, i) => (
                <List.Item key={i}>{t(tip)}</List.Item>
              ))}
            </List>
          </Stack>
        </Flex>
      ))}
    </Flex>
  );
}

function QrTypesPanel() {
  const { t } = useLingui();
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {qrTypeCards.map((card) => {
          const Icon = typeIcons[card.type];
          return (
            <Card key={card.type} withBorder padding="md" radius="md">
              <Group gap="sm" wrap="nowrap" mb="xs">
                <ThemeIcon size="lg" radius="md" variant="light" aria-hidden>
                  <Icon size={20} stroke={1.75} aria-hidden />
                </ThemeIcon>
                <Title order={4}>{t(card.title)}</Title>
              </Group>
              <Stack gap={6}>
                <Text size="sm">{t(card.description)}</Text>
                {card.note ? (
                  <Text size="sm" c="dimmed">
                    {t(card.note)}
                  </Text>
                ) : null}
                <Text size="sm">
                  <Text component="span" fw={600} size="sm">
                    <Trans>Best for:</Trans>
                  </Text>{' '}
                  {card.bestFor
                    .map((use) => t(use))
                    .join(t({ message: ', ', comment: 'between the uses a type is best for' }))}
                </Text>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      <Alert
        role="note"
        variant="light"
        icon={<IconInfoCircle size={20} aria-hidden />}
        title={t`More link types`}
      >
        {t(moreTypesNote)}
      </Alert>
    </Stack>
  );
}

function FeaturesPanel() {
  const { t } = useLingui();
  return (
    <Accordion variant="separated" order={4}>
      {featureSections.map((section) => {
        const Icon = featureIcons[section.value];
        return (
          <Accordion.Item key={section.value} value={section.value}>
            <Accordion.Control
              icon={
                <ThemeIcon size="md" radius="md" variant="light" aria-hidden>
                  <Icon size={16} stroke={1.75} aria-hidden />
                </ThemeIcon>
              }
            >
              {t(section.title)}
            </Accordion.Control>
            <Accordion.Panel>
              <Text size="sm" mb="sm">
                {t(section.summary)}
              </Text>
              <List size="sm" spacing="xs">
                {section.points.map((point, i) => {
                  const label = t(point.label);
                  return (
                    <List.Item key={i}>
                      <Text component="span" fw={600} size="sm">
                        {t`${label}:`}
                      </Text>{' '}
                      {t(withSharedNames(point.text))}
                    </List.Item>
                  );
                })}
              </List>
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}

function FaqPanel() {
  const { t } = useLingui();
  return (
    <Accordion variant="separated" order={4}>
      {faqItems.map((item) => (
        <Accordion.Item key={item.value} value={item.value}>
          <Accordion.Control>{t(item.question)}</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              {item.paragraphs.map((paragraph, i) => (
                <Text key={i} size="sm">
                  {t(paragraph)}
                </Text>
              ))}
              {item.points ? (
                <List size="sm" spacing={4} withPadding>
                  {item.points.map((point, i) => (
                    <List.Item key={i}>{t(point)}</List.Item>
                  ))}
                </List>
              ) : null}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

const panels: Record<HelpTabValue, ComponentType> = {
  'getting-started': GettingStartedPanel,
  'qr-types': QrTypesPanel,
  features: FeaturesPanel,
  faq: FaqPanel,
};

export function HelpDialog({ opened, onClose }: HelpDialogProps) {
  const { t } = useLingui();
  const isMobile = useMediaQuery('(max-width: 767px)');

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      fullScreen={isMobile}
      title={
        <Flex component="span" align="center" gap="xs">
          <IconHelp size={22} aria-hidden />
          <span>{t(helpDialogTitle)}</span>
        </Flex>
      }
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <Tabs defaultValue="getting-started" keepMounted={false}>
        <Tabs.List mb="md" grow={isMobile}>
          {helpTabs.map((tab) => {
            const Icon = tabIcons[tab.value];
            return (
              <Tabs.Tab key={tab.value} value={tab.value} leftSection={<Icon size={16} aria-hidden />}>
                {t(tab.label)}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>

        {helpTabs.map((tab) => {
          const Panel = panels[tab.value];
          return (
            <Tabs.Panel key={tab.value} value={tab.value}>
              <PanelHeading tab={tab} />
              <Panel />
            </Tabs.Panel>
          );
        })}
      </Tabs>

      <Box className={classes.footer}>
        {/* For scripts: the REST API's reference, served by this server. */}
        <Anchor href="/api/docs" size="sm">
          <Trans>API documentation</Trans>
        </Anchor>
        <Button onClick={onClose}>{t(closeHelpLabel)}</Button>
      </Box>
    </Modal>
  );
}
