import { Loader } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ComponentProps, ReactNode, Ref } from 'react';
import classes from './plain.module.css';

// My QR Codes' cards and rows in plain elements with the look of Mantine's (plain.module.css): a Mantine
// Button, Badge or ActionIcon resolves its props, styles and variables per element and mounts a loader's
// transition even while it is not loading; fifty codes of them took most of the time the page took to
// appear. Each takes the props a Mantine Tooltip or Menu.Target gives its child (a ref, handlers, aria-*).

/** The pages of one code. */
export type CodePage = '/qr-details/$id' | '/edit-qr/$id';

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ');

type ButtonLook = {
  variant: 'light' | 'default';
  leftSection?: ReactNode;
  loading?: boolean;
  className?: string;
  children: ReactNode;
};

function buttonClass(variant: ButtonLook['variant'], className?: string) {
  return cx('mantine-focus-auto', 'mantine-active', classes.button, classes[variant], className);
}

function ButtonInside({ leftSection, loading, children }: Omit<ButtonLook, 'variant' | 'className'>) {
  return (
    <>
      {loading && (
        <span className={classes.loader} aria-hidden>
          <Loader color="var(--button-color)" size="calc(1.875rem / 1.8)" />
        </span>
      )}
      <span className={classes.buttonInner}>
        {leftSection && <span className={classes.buttonSection}>{leftSection}</span>}
        <span className={classes.buttonLabel}>{children}</span>
      </span>
    </>
  );
}

/** Button size="xs" in the `light` (the primary colour) or `default` variant. */
export function PlainButton({
  variant,
  leftSection,
  loading = false,
  disabled = false,
  className,
  children,
  ref,
  ...rest
}: ButtonLook & Omit<ComponentProps<'button'>, 'children'> & { ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      type="button"
      {...rest}
      ref={ref}
      className={buttonClass(variant, className)}
      disabled={disabled || loading}
      data-loading={loading || undefined}
      data-disabled={disabled || undefined}
      data-with-left-section={leftSection ? true : undefined}
    >
      <ButtonInside leftSection={leftSection} loading={loading}>
        {children}
      </ButtonInside>
    </button>
  );
}

/** A link to a code's page in the look of PlainButton (Button component={Link}). */
export function PlainLinkButton({
  variant,
  leftSection,
  className,
  children,
  to,
  id,
}: ButtonLook & { to: CodePage; id: number }) {
  return (
    <Link
      to={to}
      params={{ id }}
      className={buttonClass(variant, className)}
      data-with-left-section={leftSection ? true : undefined}
    >
      <ButtonInside leftSection={leftSection}>{children}</ButtonInside>
    </Link>
  );
}

/** Button.Group */
export function PlainButtonGroup({ children }: { children: ReactNode }) {
  return (
    <div className={classes.buttonGroup} role="group">
      {children}
    </div>
  );
}

/** ActionIcon: `default` at size md (a card's), `subtle` gray at size lg (a row's). */
export function PlainActionIcon({
  variant,
  loading = false,
  children,
  ref,
  ...rest
}: { variant: 'default' | 'subtle'; loading?: boolean; children: ReactNode } & Omit<
  ComponentProps<'button'>,
  'children'
> & { ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      type="button"
      {...rest}
      ref={ref}
      className={cx(
        'mantine-focus-auto',
        'mantine-active',
        classes.actionIcon,
        variant === 'default' ? classes.actionIconDefault : classes.actionIconSubtle,
      )}
      disabled={loading || rest.disabled}
      data-loading={loading || undefined}
    >
      {loading && (
        <span className={classes.actionIconLoader} aria-hidden>
          <Loader color="var(--ai-color)" size="calc(var(--ai-size) * 0.55)" />
        </span>
      )}
      <span className={classes.actionIconIcon}>{children}</span>
    </button>
  );
}

const badgeColours = { blue: classes.badgeBlue, teal: classes.badgeTeal, gray: classes.badgeGray };

/** Badge variant="light" (size md). */
export function PlainBadge({ color, children }: { color: keyof typeof badgeColours; children: ReactNode }) {
  return (
    <div className={cx(classes.badge, badgeColours[color])}>
      <span className={classes.badgeLabel}>{children}</span>
    </div>
  );
}

/** VisuallyHidden */
export function Hidden({ children }: { children: ReactNode }) {
  return <span className={classes.hidden}>{children}</span>;
}

export { classes as plain, cx };
