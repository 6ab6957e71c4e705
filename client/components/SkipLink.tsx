import { Trans } from '@lingui/react/macro';
import type { MouseEvent } from 'react';

/**
 * "Skip to content": the first tab stop of every page, past the header and the navigation, to the page's
 * <main>. Focused by script: a bare #fragment would go through the router as a change of location, and a
 * <main> that is not focusable would leave the focus on the link.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.querySelector<HTMLElement>('main');
    if (!target) return;
    event.preventDefault();
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.setAttribute('data-skip-target', '');
    target.focus();
    target.scrollIntoView({ block: 'start' });
  };
  return (
    <a className="skip-link" href="#main" onClick={skip}>
      <Trans>Skip to content</Trans>
    </a>
  );
}
