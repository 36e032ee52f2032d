import { ConfigError } from '../core/config/fields';
import { memoLast } from './memo-last';
import { CellCheckSlot, RunSlot, type CellCheck } from './sweep-jobs';
import { cellConfig, checkValidationCost, parseSweep, type Sweep } from '../core/sweep/cells';
import type { SweepCell } from '../core/sweep/document';
import { checkSweepWorkTotals } from '../core/sweep/limits';
import type { SweepCheckAnswer, SweepCheckRequest } from '../worker/sweep-check-worker';
import { decodeSweepLink, type SweepView } from '../core/sweep/link';
import { SWEEP_PRESETS } from '../core/sweep/presets';
import type { AxisValue, SweepInput } from '../core/sweep/schema';
import { browserThreads, connectSweepWorker } from '../worker/browser-session';
import { startSweep } from '../worker/sweep-client';
import { draftOf, loadExperiment } from './link-actions';
import { closesDrawer } from './drawer-on-open';
import { isValid, useApp, type AppState } from './state';
import type { SweepAxisDraft, SweepRun, SweepState } from './sweep-state';

// The Sweep view's actions: edit the axes, run the sweep in Web Workers (one share of the cells
// each), cancel it, open a cell in the explorer, open a sweep link. The base of a sweep is always
// the explorer's experiment (its settings as they are now), so what a cell opens is what it ran.

const get = () => useApp.getState();
const setSweep = (partial: Partial<SweepState>) => useApp.setState((s) => ({ sweep: { ...s.sweep, ...partial } }));

/** The sweep running now (one at a time). */
const running = new RunSlot<{ cancel(): void }>();

/** A value as typed: a number when it reads as one, true/false/null, else the text. */
export function parseAxisValue(text: string): AxisValue {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (t === 'null') return null;
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return Number(t);
  return t;
}

/** An axis as the editor shows it: its values as comma-separated text. */
const axisDraft = (a: { path: string; values: readonly AxisValue[] }): SweepAxisDraft => ({ path: a.path, values: a.values.map((v) => (v === null ? 'null' : String(v))).join(', ') });

/** An axis's values text as a list ("" between commas is refused by the schema: it names the place). */
export const parseAxisValues = (text: string): AxisValue[] => (text.trim() === '' ? [] : text.split(',').map(parseAxisValue));

/** The sweep document of the current axes over the explorer's experiment, or why there is none. */
export function sweepDocOf(s: Pick<AppState, 'draft' | 'plan' | 'fieldErrors' | 'configError' | 'sweep'>): { ok: true; doc: SweepInput } | { ok: false; message: string } {
  if (s.plan === null || Object.keys(s.fieldErrors).length > 0 || s.configError !== null)
    return { ok: false, message: 'The explorer’s experiment is invalid: fix its settings first (the sweep runs over it)' };
  return { ok: true, doc: docOver(s.draft, s.sweep.axes) };
}

const docOver = (draft: AppState['draft'], axes: readonly SweepAxisDraft[]): SweepInput => ({
  version: 1,
  base: { ...draft, version: 1 },
  axes: axes.map((a) => ({ path: a.path.trim(), values: parseAxisValues(a.values) })),
});

/**
 * Parse the sweep a decoded link will show before it is opened (checkSweep keeps the last one), so
 * that the Sweep view's first render, in the task that opens the link, does not parse it again.
 */
export function prepareSweepLink(d: ReturnType<typeof decodeSweepLink>): void {
  if (d.ok) checkSweep(docOver(draftOf(d.doc.base), d.doc.axes.map(axisDraft)));
}

/**
 * The sweep parsed (schema, base, axes, the cost of checking its cells), memoized on the
 * document; its cells are resolved in a worker by cellsChecked, never here: a 4,096-cell sweep
 * resolved in one go blocks the page for seconds.
 */
export const checkSweep = memoLast((doc: SweepInput) => [JSON.stringify(doc)], (doc): { ok: true; sweep: Sweep } | { ok: false; message: string } => {
  try {
    const sweep = parseSweep(doc, { resolve: 'none' });
    checkValidationCost(sweep);
    return { ok: true, sweep };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { ok: false, message: e.message };
  }
});

/**
 * Every cell of a sweep resolved (the CLI's check) in a Web Worker (worker/sweep-check-worker.ts),
 * never on the page's thread; the store's sweep.checked changes when it ends, so the view re-renders.
 */
const cellChecks = new CellCheckSlot(
  (sweep, end) => {
    const worker = new Worker(new URL('../worker/sweep-check-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-sweep-check' });
    worker.onmessage = (e: MessageEvent<SweepCheckAnswer>) => end(e.data.ok ? { state: 'ok', work: e.data.work } : { state: 'error', message: e.data.message });
    worker.onerror = (e) => end({ state: 'error', message: `The sweep's cells could not be checked: ${e.message || 'the worker failed'}` });
    worker.postMessage({ doc: { version: 1, base: sweep.base, axes: sweep.axes } } satisfies SweepCheckRequest);
    return worker;
  },
  () => setSweep({ checked: get().sweep.checked + 1 }),
);
const cellsChecked = (sweep: Sweep): CellCheck => cellChecks.status(sweep);

/** Why the Sweep view cannot run now (invalid experiment or axes, cells still being checked), or null. */
export const sweepBlocked = memoLast(
  (s: Pick<AppState, 'draft' | 'plan' | 'fieldErrors' | 'configError' | 'sweep'>) => [s.draft, s.plan, s.fieldErrors, s.configError, s.sweep.axes, s.sweep.checked],
  (s): string | null => {
    const d = sweepDocOf(s);
    if (!d.ok) return d.message;
    const c = checkSweep(d.doc);
    if (!c.ok) return c.message;
    const cells = cellsChecked(c.sweep);
    return cells.state === 'ok' ? null : cells.state === 'error' ? cells.message : `Checking the sweep’s ${c.sweep.cells.toLocaleString('en-US')} cells…`;
  },
);

export function setSweepAxis(i: number, axis: SweepAxisDraft): void {
  const axes = get().sweep.axes.slice();
  axes[i] = axis;
  setSweep({ axes });
}

/** Add a second axis, or remove one (at least one stays). */
export function addSweepAxis(axis: SweepAxisDraft): void {
  if (get().sweep.axes.length < 2) setSweep({ axes: [...get().sweep.axes, axis] });
}
export function removeSweepAxis(i: number): void {
  if (get().sweep.axes.length > 1) setSweep({ axes: get().sweep.axes.filter((_, j) => j !== i) });
}
/** Swap the axes (x ↔ y). */
export function swapSweepAxes(): void {
  const a = get().sweep.axes;
  if (a.length === 2) setSweep({ axes: [a[1]!, a[0]!] });
}

export const setSweepView = (view: Partial<SweepView>) => setSweep({ view: { ...get().sweep.view, ...view } });

/** Run the sweep: checked in full (every cell, and the work limit) before any worker starts. */
export function runSweep(): void {
  if (running.busy) return;
  const s = get();
  const d = sweepDocOf(s);
  if (!d.ok) return setSweep({ status: 'error', error: d.message });
  const c = checkSweep(d.doc);
  if (!c.ok) return setSweep({ status: 'error', error: c.message });
  const sweep = c.sweep;
  const cells = cellsChecked(sweep);
  if (cells.state === 'error') return setSweep({ status: 'error', error: cells.message });
  if (cells.state !== 'ok') return; // Run is off until the check ends
  try {
    checkSweepWorkTotals(sweep, cells.work, null);
  } catch (e) {
    if (e instanceof ConfigError) return setSweep({ status: 'error', error: `${e.message.replace(/, or split the sweep with --shard.*$/, '')} (the command line can split a sweep over machines: seeupo-explorer sweep --shard I/N)` });
    throw e;
  }
  const doc: SweepInput = { version: 1, base: sweep.base, axes: sweep.axes };
  const now = performance.now();
  const threads = browserThreads();
  const run: SweepRun = { doc, cells: new Array(sweep.cells), done: 0, total: 0, startedAt: now, updatedAt: now, warnings: [], threads };
  setSweep({ status: 'running', error: null, run });
  // cells arrive in bursts (a batch finishes many at once): the store takes them once per frame
  let pending: SweepCell[] = [];
  let progress: [number, number] | null = null;
  let frame = 0;
  const flush = () => {
    frame = 0;
    const cur = get().sweep.run;
    if (!cur || cur !== runRef) return;
    const cells = cur.cells.slice();
    for (const cell of pending) cells[cell.index] = cell;
    pending = [];
    runRef = { ...cur, cells, ...(progress ? { done: progress[0], total: progress[1], updatedAt: performance.now() } : {}) };
    setSweep({ run: runRef });
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(flush) || 1;
  };
  let runRef: SweepRun = run;
  const h = startSweep(doc, sweep.cells, threads, connectSweepWorker, {
    progress(done, total) {
      progress = [done, total];
      schedule();
    },
    cell(cell) {
      pending.push(cell);
      schedule();
    },
    done(warnings) {
      running.end();
      if (frame) cancelAnimationFrame(frame);
      flush();
      runRef = { ...runRef, warnings, done: runRef.total };
      setSweep({ status: 'done', run: runRef });
    },
    error(message) {
      running.end();
      if (frame) cancelAnimationFrame(frame);
      flush();
      setSweep({ status: 'error', error: `The sweep stopped: ${message}` });
    },
  });
  runRef = { ...run, threads: h.workers };
  setSweep({ run: runRef });
  running.start(h);
}

/** Stop the sweep: its workers end; the cells already done stay on the maps. */
export function cancelSweep(): void {
  if (running.cancel()) setSweep({ status: 'cancelled' });
}

/** Open cell `index` of the sweep that ran as an experiment of its own in the explorer. */
export function openSweepCell(index: number): void {
  const run = get().sweep.run;
  if (!run) return;
  const c = checkSweep(run.doc);
  if (!c.ok) return setSweep({ error: c.message });
  loadExperiment(cellConfig(c.sweep, index), undefined, null, { page: 'explorer', notice: `Opened cell ${index + 1} of the sweep; press Run.` });
}

/**
 * Open a sweep link: the explorer takes the sweep's base, the Sweep view its axes and drawing.
 * Returns false (and says why in the link banner) when the link is refused.
 */
export function openSweepLink(text: string, source: 'startup' | 'history'): boolean {
  return openDecodedSweepLink(decodeSweepLink(text), text, source);
}

/** openSweepLink with the link decoded already (decodeSweepLink(text) is `d`): the page opens it in a task of its own. */
export function openDecodedSweepLink(d: ReturnType<typeof decodeSweepLink>, text: string, source: 'startup' | 'history'): boolean {
  if (!d.ok) {
    const kept = source === 'startup' ? 'the default experiment' : 'what it showed';
    useApp.setState({ linkError: `This sweep link cannot be opened: ${d.message}. Nothing from it was applied; the page keeps ${kept}.` });
    return false;
  }
  cancelSweep();
  const axes = d.doc.axes.map(axisDraft);
  // a sweep link opened with the page leaves the explorer's settings drawer closed, as any link does
  const drawer = closesDrawer(text, source, false) ? { settingsOpen: false } : {};
  loadExperiment(d.doc.base, undefined, null, { page: 'sweep', linkError: null, sweep: { ...get().sweep, axes, view: d.view, status: 'idle', error: null, run: null }, ...drawer });
  return true;
}

/** Load one of the page's sweeps (core/sweep/presets.ts): its base into the explorer, its axes here. */
export function loadSweepPreset(id: string): void {
  const p = SWEEP_PRESETS.find((x) => x.id === id);
  if (!p || running.busy) return;
  const axes = p.doc.axes.map(axisDraft);
  loadExperiment(p.doc.base, undefined, null, { page: 'sweep', sweep: { ...get().sweep, axes, view: { ...p.view }, status: 'idle', error: null, run: null } });
}
