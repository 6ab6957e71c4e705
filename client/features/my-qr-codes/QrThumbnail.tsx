import { Trans } from '@lingui/react/macro';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import { DOWNLOAD_PNG_PX, renderQrSvg } from '../../lib/qr-render';
import { queuePreview, sizedSvg } from '../qr/preview-queue';
import classes from './plain.module.css';

/** The tile's size in px; the code inside it keeps a white margin (as QrPreview's tile). */
const SIZE = 160;
const INNER = SIZE - 2 * Math.max(3, Math.round(SIZE * 0.03));

/**
 * A card's image of its code: QrPreview's deferred tile (drawn at the download's size in its turn among
 * the page's codes, those on screen first; a skeleton until then) in plain elements, without its
 * debounce, which a list's codes do not need.
 */
export function QrThumbnail({
  data,
  customization,
  label,
}: {
  data: string;
  customization: Customization;
  label: string;
}) {
  const key = useMemo(() => JSON.stringify([data, customization]), [data, customization]);
  const [result, setResult] = useState<{ key: string; svg: string | null } | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    const [d, c] = JSON.parse(key) as [string, Customization];
    const draw = () =>
      renderQrSvg(d, c, DOWNLOAD_PNG_PX).then(
        (svg) => {
          if (!cancelled) setResult({ key, svg });
        },
        () => {
          if (!cancelled) setResult({ key, svg: null });
        },
      );
    const dequeue = queuePreview(box.current, draw);
    return () => {
      cancelled = true;
      dequeue();
    };
  }, [key]);

  const svg = result?.svg ?? null;
  const pending = result?.key !== key;
  return (
    <div
      className={result === null ? classes.skeleton : classes.skeletonDone}
      style={{ width: SIZE, height: SIZE, flex: 'none' }}
    >
      <div ref={box} role="img" aria-label={label} aria-busy={pending} className={classes.tile}>
        {svg ? (
          <div
            aria-hidden
            className={classes.tileImage}
            style={{ opacity: pending ? 0.6 : 1 }}
            dangerouslySetInnerHTML={{ __html: sizedSvg(svg, INNER) }}
          />
        ) : result ? (
          <p className={`${classes.text} ${classes.sm} ${classes.dimmed} ${classes.unavailable}`}>
            <Trans>Preview unavailable</Trans>
          </p>
        ) : null}
      </div>
    </div>
  );
}
