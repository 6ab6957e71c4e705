import { Trans, useLingui } from '@lingui/react/macro';
import { Select, Stack, TextInput, VisuallyHidden } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconCheck } from '@tabler/icons-react';
import { translateShared } from '../../i18n/shared-messages';
import type { DesignerValues } from './designer-values';
import classes from './qr-designer.module.css';
import { APP_DOMAIN, lowerCaseNote, type SlugCheck } from './short-link';

/**
 * "Short link": the end of a dynamic code's link, chosen by its owner (issue 35). The fixed part of the
 * link sits before the input; under it, the live check's answer: a loader while asking, "Available", or
 * the server's or the local check's reason in red. A refused back-half blocks saving (QrDesigner).
 * When the workspace has short domains, a "Domain" select comes first: the app's own address or one of
 * them, which the fixed part then shows.
 */
export function ShortLinkField({
  form,
  prefix,
  check,
  savedSlug,
  domains,
  domainId,
  lostDomain,
}: {
  form: UseFormReturnType<DesignerValues>;
  /** The chosen base without its scheme (`localhost:3000/r/`, `go.example.com/`), shown before the input. */
  prefix: string;
  check: SlugCheck;
  /** Editing: the saved back-half; creating: null (an empty field means a random one). */
  savedSlug: string | null;
  /** The Domain select's choices (short-link.ts domainChoices); empty: no select. */
  domains: readonly { value: string; label: string }[];
  /** The domain chosen (null: the app's own address). */
  domainId: number | null;
  /** The chosen domain is one the workspace has lost since the code took it. */
  lostDomain: boolean;
}) {
  const { t } = useLingui();
  const creating = savedSlug === null;
  const input = form.getInputProps('slug');
  // The check's words are src/'s or the server's English: said in the app's language.
  const checkMessage =
    check.state === 'available' || check.state === 'refused' ? translateShared(check.message) : '';
  // An error the form holds (a refused save) wins; otherwise the live check's reason.
  const error: React.ReactNode =
    (input.error as React.ReactNode) || (check.state === 'refused' ? checkMessage : null);
  const available = !error && check.state === 'available';
  const note = lowerCaseNote(form.values.slug, savedSlug);
  // Said to screen readers as the answer arrives; sighted people see it under the input.
  const announcement =
    check.state === 'available' || check.state === 'refused' ? `${prefix}${check.slug}: ${checkMessage}` : '';

  return (
    <Stack gap="sm" className={classes.shortLinkField}>
      {domains.length > 0 && (
        <Select
          label={t`Domain`}
          description={
            lostDomain
              ? t`No longer offered to this workspace: the code keeps it until you pick another.`
              : undefined
          }
          data={domains}
          value={domainId === null ? APP_DOMAIN : String(domainId)}
          onChange={(value) =>
            form.setFieldValue('domainId', value && value !== APP_DOMAIN ? Number(value) : null)
          }
          error={
            typeof form.errors.domainId === 'string'
              ? translateShared(form.errors.domainId)
              : form.errors.domainId
          }
          allowDeselect={false}
          data-path="domainId"
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <TextInput
        label={t`Short link`}
        description={
          <>
            {/* The fixed part is drawn beside the input and hidden from screen readers there: said here. */}
            <VisuallyHidden>
              <Trans>The link starts with {prefix}.</Trans>{' '}
            </VisuallyHidden>
            {creating
              ? t`Leave empty for a random one.`
              : t`Changing it changes what the code holds: download it again after saving.`}
            {note && (
              <>
                <br />
                {note}
              </>
            )}
          </>
        }
        placeholder={
          creating
            ? t({
                message: 'menu',
                comment: 'an example back-half of a short link: lower case letters, digits and hyphens only',
              })
            : undefined
        }
        autoComplete="off"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        {...input}
        error={error || undefined}
        success={
          available ? (
            <>
              <IconCheck size={14} aria-hidden className={classes.shortLinkCheck} />
              {checkMessage}
            </>
          ) : undefined
        }
        // Mantine's success colour (teal 8) reads at 3.9:1 on white: a darker one in light, a brighter
        // one in dark (qr-designer.module.css).
        styles={{ success: { color: 'var(--short-link-available)' } }}
        classNames={{ input: classes.shortLinkInput }}
        loading={check.state === 'checking'}
        inputContainer={(children) => (
          <div className={classes.shortLink}>
            <span className={classes.shortLinkPrefix} aria-hidden>
              {prefix}
            </span>
            {children}
          </div>
        )}
      />
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
    </Stack>
  );
}
