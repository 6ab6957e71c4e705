import { TextInput, VisuallyHidden } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconCheck } from '@tabler/icons-react';
import type { DesignerValues } from './designer-values';
import classes from './qr-designer.module.css';
import { lowerCaseNote, type SlugCheck } from './short-link';

/**
 * "Short link": the end of a dynamic code's link, chosen by its owner (issue 35). The fixed part of the
 * link sits before the input; under it, the live check's answer: a loader while asking, "Available", or
 * the server's or the local check's reason in red. A refused back-half blocks saving (QrDesigner).
 */
export function ShortLinkField({
  form,
  prefix,
  check,
  savedSlug,
}: {
  form: UseFormReturnType<DesignerValues>;
  /** `<origin>/r/`, shown before the input. */
  prefix: string;
  check: SlugCheck;
  /** Editing: the saved back-half; creating: null (an empty field means a random one). */
  savedSlug: string | null;
}) {
  const creating = savedSlug === null;
  const input = form.getInputProps('slug');
  // An error the form holds (a refused save) wins; otherwise the live check's reason.
  const error: React.ReactNode =
    (input.error as React.ReactNode) || (check.state === 'refused' ? check.message : null);
  const available = !error && check.state === 'available';
  const note = lowerCaseNote(form.values.slug, savedSlug);
  // Said to screen readers as the answer arrives; sighted people see it under the input.
  const announcement =
    check.state === 'available' || check.state === 'refused'
      ? `${prefix}${check.slug}: ${check.message}`
      : '';

  return (
    <div className={classes.shortLinkField}>
      <TextInput
        label="Short link"
        description={
          <>
            {/* The fixed part is drawn beside the input and hidden from screen readers there: said here. */}
            <VisuallyHidden>The link starts with {prefix}. </VisuallyHidden>
            {creating
              ? 'Leave empty for a random one.'
              : 'Changing it changes what the code holds: download it again after saving.'}
            {note && (
              <>
                <br />
                {note}
              </>
            )}
          </>
        }
        placeholder={creating ? 'menu' : undefined}
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
              {check.message}
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
    </div>
  );
}
