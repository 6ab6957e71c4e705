import type { ScanCheckState } from '../scan-safety/use-scan-check';
import { fixHint, UnscannableConfirm } from '../scan-safety/UnscannableConfirm';

/** UnscannableConfirm with the live check's reasons and fixes (loaded apart: lazy-dialogs.ts). */
export function UnscannableDialog({
  scanCheck,
  ...props
}: {
  scanCheck: ScanCheckState | undefined;
  opened: boolean;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const done = scanCheck?.status === 'done' ? scanCheck.check : null;
  return (
    <UnscannableConfirm
      reasons={done ? done.reasons : []}
      hint={done ? fixHint(done.fixes) : null}
      {...props}
    />
  );
}
