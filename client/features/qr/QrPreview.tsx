import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Skeleton, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import { DOWNLOAD_PNG_PX, renderQrSvg } from '../../lib/qr-render';
import { queuePreview, sizedSvg } from './preview-queue';

export interface QrPreviewProps {
  /** The encoded payload. */
  data: string;
  customization: Customization;
  /** Pixel size of the (square) preview. */
  size: number;
  /** Accessible name, e.g. "QR code for My menu". */
  label?: string;
  /**
   * Set the code on its own light tile (default), so a dark code or frame never vanishes against a dark
   * card; the designer turns it off where it draws its own backdrop (e.g. a checkerboard for transparency).
   */
  tile?: boolean;
  /**
   * Drawn in its turn among other deferred previews (preview-queue.ts), those on screen first, rather than
   * at once: for a page of many (My QR Codes' cards).
   */
  deferred?: boolean;
}

const DEBOUNCE_MS = 150;

/**
 * Live QR preview. Re-renders 150 ms after the inputs stop changing; shows a skeleton until the first
 * image is ready and keeps the previous image while a newer one renders.
 *
 * It is drawn at the download's size and scaled down, so a thumbnail is exactly the downloaded file: the
 * quiet zone, frame and logo keep the same proportions (drawn at 160 px, the minimum quiet zone made a
 * framed code fill far less of its tile than in the PNG).
 *
 * The SVG is inserted as markup: it is built by our renderer only — styled-qr-code output carries no user
 * text (the logo is an inlined data: URL), colours are validated hex values and the frame text is
 * XML-escaped by wrapWithFrame.
 */
export function QrPreview({
  data,
  customization,
  size,
  label,
  tile = true,
  deferred = false,
}: QrPreviewProps) {
  const { t } = useLingui();
  const key = useMemo(() => JSON.stringify([data, customization]), [data, customization]);
  const [debouncedKey] = useDebouncedValue(key, DEBOUNCE_MS);
  const [result, setResult] = useState<{ key: string; svg: string | null; error: boolean } | null>(null);

  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    const [d, c] = JSON.parse(debouncedKey) as [string, Customization];
    const draw = () =>
      renderQrSvg(d, c, DOWNLOAD_PNG_PX).then(
        (svg) => {
          if (!cancelled) setResult({ key: debouncedKey, svg, error: false });
        },
        () => {
          if (!cancelled) setResult({ key: debouncedKey, svg: null, error: true });
        },
      );
    const dequeue = deferred ? queuePreview(box.current, draw) : (void draw(), undefined);
    return () => {
      cancelled = true;
      dequeue?.();
    };
  }, [debouncedKey, deferred]);

  const name = label ?? t`QR code`;
  const svg = result?.svg ?? null;
  const pending = result?.key !== key;
  const px = `${size}px`;
  // On its tile the code keeps a white margin, so a dark frame's edge stays visible on a dark card.
  const inner = tile ? size - 2 * Math.max(3, Math.round(size * 0.03)) : size;

  return (
    <Skeleton visible={result === null} width={px} height={px} radius="sm">
      <Box
        ref={box}
        role="img"
        aria-label={name}
        aria-busy={pending}
        style={{
          width: px,
          height: px,
          lineHeight: 0,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          ...(tile ? { backgroundColor: '#fff', borderRadius: 4, color: '#495057' } : {}),
        }}
      >
        {svg ? (
          <Box
            aria-hidden
            style={{ width: inner, height: inner, opacity: pending ? 0.6 : 1, transition: 'opacity 120ms' }}
            dangerouslySetInnerHTML={{ __html: sizedSvg(svg, inner) }}
          />
        ) : result?.error ? (
          <Text size="sm" c="dimmed" ta="center" style={{ lineHeight: 1.4 }}>
            <Trans>Preview unavailable</Trans>
          </Text>
        ) : null}
      </Box>
    </Skeleton>
  );
}
