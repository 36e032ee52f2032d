/// <reference lib="webworker" />
// Web Worker entry: every cell of a sweep resolved (the check `seeupo-explorer sweep` makes before
// running), off the page's main thread, so opening a 4,096-cell sweep never blocks the page.
// Answers with the summed work of the cells (core/sweep/limits.ts) or the first invalid cell's message.
import { ConfigError } from '../core/config/fields';
import { parseSweep, resolveCell } from '../core/sweep/cells';
import { addWork, emptyWork, type SweepWork } from '../core/sweep/limits';

export type SweepCheckRequest = { doc: unknown };
export type SweepCheckAnswer = { ok: true; work: SweepWork } | { ok: false; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<SweepCheckRequest>) => {
  let answer: SweepCheckAnswer;
  try {
    const sweep = parseSweep(e.data.doc, { resolve: 'none' });
    const work = emptyWork();
    for (let c = 0; c < sweep.cells; c++) addWork(work, resolveCell(sweep, c));
    answer = { ok: true, work };
  } catch (err) {
    answer = { ok: false, message: err instanceof ConfigError ? err.message : `the check failed: ${String(err).slice(0, 200)}` };
  }
  scope.postMessage(answer);
};
