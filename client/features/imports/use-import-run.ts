import { t } from '@lingui/core/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImportPreview, ImportRowDecision, ImportRowsAnswer } from '../../../src/imports/import.schema';
import { trpc } from '../../lib/trpc';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';
import { callFailure } from './import-errors';
import { inCalls } from './import-decisions';

/** How a run ended: every row sent, stopped by the user, a call failed, or the plan is full. */
export type RunEnd = 'done' | 'stopped' | 'error' | 'limit';

export type RunState =
  | { phase: 'idle' }
  | { phase: 'running'; imported: number; total: number; stopping: boolean }
  | {
      phase: 'ended';
      end: RunEnd;
      imported: number;
      total: number;
      /** Why a call failed (end 'error'). */
      error: string | null;
      /** The plan's count and limit after the last call. */
      limit: { currentCount: number; maxCount: number } | null;
    };

const makesCode = (d: ImportRowDecision) => d.action === 'create' || d.action === 'rename';

/** The cached import with a call's results in: those rows are done, their conflicts gone. */
function withResults(preview: ImportPreview, answer: ImportRowsAnswer): ImportPreview {
  const results = new Map(answer.results.map(({ row, ...result }) => [row, result]));
  return {
    ...preview,
    links: preview.links.map((link) => {
      const result = results.get(link.row);
      return result ? { ...link, result, conflict: null } : link;
    }),
    totals: { ...preview.totals, done: answer.done },
  };
}

/**
 * Carries out an import's decisions in calls of IMPORT_ROWS_PER_CALL, one after the other: "Imported X of
 * N links" as each call answers (N: the rows not skipped), Stop after the current call, never two runs at
 * once. A failed call ends the run with its message: the rows it held are sent again by the next run,
 * which the server answers with their first result. A full plan ends it before rows that would only fail.
 * Each answer is put in the cached import (imports.get); at the end the codes and the import are fetched
 * again.
 */
export function useImportRun(id: string) {
  const utils = trpc.useUtils();
  const run = trpc.imports.run.useMutation();
  const refreshCodes = useQrCacheRefresh();
  const [state, setState] = useState<RunState>({ phase: 'idle' });
  const busy = useRef(false);
  const stopAsked = useRef(false);

  // Leaving the page stops the run after the call under way.
  useEffect(
    () => () => {
      stopAsked.current = true;
    },
    [],
  );

  const start = useCallback(
    async (rows: ImportRowDecision[], target: { folderId: number | null; domainId: number | null }) => {
      if (busy.current || rows.length === 0) return;
      busy.current = true;
      stopAsked.current = false;
      const total = rows.filter((d) => d.action !== 'skip').length;
      let imported = 0;
      let end: RunEnd = 'done';
      let error: string | null = null;
      let limit: { currentCount: number; maxCount: number } | null = null;
      let failed = false;
      setState({ phase: 'running', imported, total, stopping: false });
      const calls = inCalls(rows);
      try {
        for (const [i, call] of calls.entries()) {
          if (stopAsked.current) {
            end = 'stopped';
            break;
          }
          const answer = await run.mutateAsync({ id, ...target, rows: call });
          utils.imports.get.setData({ id }, (preview) => preview && withResults(preview, answer));
          imported += call.filter((d) => d.action !== 'skip').length;
          failed ||= answer.results.some((r) => r.status === 'failed');
          setState((s) => (s.phase === 'running' ? { ...s, imported } : s));
          if (answer.maxCount !== null && answer.currentCount >= answer.maxCount) {
            limit = { currentCount: answer.currentCount, maxCount: answer.maxCount };
            // The rest would only fail for the plan: kept unsent for a run after an upgrade.
            if (calls.slice(i + 1).some((c) => c.some(makesCode))) {
              end = 'limit';
              break;
            }
          }
        }
      } catch (failure) {
        end = 'error';
        error = callFailure(failure, t`The import stopped: the server did not answer. Please try again.`);
      } finally {
        busy.current = false;
      }
      // Rows failed with the plan full: the failures say so; the page adds the way to a bigger plan.
      if (end === 'done' && limit) {
        if (failed) end = 'limit';
        else limit = null;
      }
      setState({ phase: 'ended', end, imported, total, error, limit });
      void refreshCodes();
      void utils.imports.get.invalidate({ id });
    },
    [id, run, utils, refreshCodes],
  );

  const stop = useCallback(() => {
    stopAsked.current = true;
    setState((s) => (s.phase === 'running' ? { ...s, stopping: true } : s));
  }, []);

  const reset = useCallback(() => setState({ phase: 'idle' }), []);

  return { state, start, stop, reset };
}
