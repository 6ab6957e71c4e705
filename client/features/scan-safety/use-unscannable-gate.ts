import { useState } from 'react';

/**
 * A download (or the print dialog) of a design that won't scan goes ahead only after the user confirms
 * it: `request(x)` runs `go(x)` at once, or holds it until `confirm()` when `unscannable`. Spread
 * `dialog` into UnscannableConfirm.
 */
export function useUnscannableGate<T>(unscannable: boolean, go: (request: T) => void) {
  const [held, setHeld] = useState<{ request: T } | null>(null);
  return {
    request: (request: T) => (unscannable ? setHeld({ request }) : go(request)),
    dialog: {
      opened: held !== null,
      onClose: () => setHeld(null),
      onConfirm: () => {
        setHeld(null);
        if (held) go(held.request);
      },
    },
  };
}
