import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { setHoverLine, toggleLine, useApp } from '../../store';
import type { Live, XAxis } from '../../live';
import type { Plan } from '../../plan';
import type { Tip } from './Plot';
import { nearestIndex } from './plot-geometry';
import { CHART_REDRAW_MS, throttle } from '../../redraw';
import { X_AXIS } from '../../../core/metrics/names';
import { ShownSlots, type Shown } from '../../shown-slots';

// What every chart reads from the store, through the slots of shown-slots.ts. The store bumps
// `version` at most once per CHART_REDRAW_MS while results stream, and at once on a step, a pause
// or a run's end; the slots follow a throttled copy of it, so a burst of those redraws the charts
// no more often: at once when they have not redrawn for CHART_REDRAW_MS, else at the end of that
// interval (the last version always shows). (Not useDeferredValue: under a steady stream of updates
// a deferred render keeps being abandoned, and the curves would only appear at the end.)
/** The page's parts that follow the results, each in a slot (a task) of its own, in this order. */
export const SLOTS = { return: 0, gap: 1, metric: 2, seeds: 3, heatmap: 4, claims: 5, summary: 6, caption: 7 } as const;

const latest = (): Shown => {
  const s = useApp.getState();
  return { version: s?.version ?? 0, live: s?.live ?? null };
};
// at a run's end the verdicts update first: a lesson's verdict is what its reader waits for
const slots = new ShownSlots(
  Object.keys(SLOTS).length,
  latest,
  {
    slotMs: 12,
    pace: 8,
    now: () => performance.now(),
    later: (f, ms) => setTimeout(f, ms),
    cancel: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
  [SLOTS.claims],
);

/** How long the last update of `slot`'s derived data took (ms): its pace while a run streams. */
export function slotTook(slot: number, ms: number): void {
  slots.took(slot, ms);
}

/** Time `compute` as the cost of `slot`'s derived data. */
export function timedSlot<T>(slot: number, compute: () => T): T {
  const t0 = performance.now();
  const value = compute();
  slotTook(slot, performance.now() - t0);
  return value;
}

const poke = throttle(() => slots.publish(), CHART_REDRAW_MS);
useApp.subscribe((s, prev) => {
  if (s.version === prev?.version && s.status === prev?.status) return;
  // what the reader waits for draws at once: a new run's first segment, and a run's end
  poke(slots.changed(s.live, s.status === 'done' && prev?.status !== 'done'));
});

/** The store's `version` and `live` as the part of the page in `slot` shows them (charts, verdicts, summary, caption). */
export function useShownData(slot: number): Shown {
  const subscribe = useCallback((l: () => void) => slots.subscribe(slot, l), [slot]);
  return useSyncExternalStore(subscribe, () => slots.shownIn(slot));
}

/** What `slot` shows now. */
export const shownIn = (slot: number): Shown => slots.shownIn(slot);

const subscribeDrawn = (l: () => void) => {
  const offSlots = slots.subscribeAll(l);
  const offStore = useApp.subscribe(l);
  return () => {
    offSlots();
    offStore();
  };
};

/** Whether every part of the page shows the store's latest results (tests wait on it before reading numbers). */
export function useAllShown(): boolean {
  return useSyncExternalStore(subscribeDrawn, () => slots.allShown());
}

/** The number of the run (its `live`) the chart in `slot` shows, counting from 1 in the page's life; 0: none (tests and benchmarks tell runs apart by it). */
export function useShownRun(slot = 0): number {
  const { live } = useShownData(slot);
  return live ? slots.runNumber(live) : 0;
}

export function useDerived<T>(derive: (plan: Plan | null, live: Live | null, xAxis: XAxis) => T, extra: readonly unknown[] = [], slot = 0): T {
  const plan = useApp((s) => s.plan);
  const { version, live } = useShownData(slot);
  const xAxis = useApp((s) => s.xAxis);
  // version stands for the mutated `live`; extra are the caller's own inputs
  return useMemo(() => derive(plan, live, xAxis), [plan, live, version, xAxis, ...extra]);
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** x ticks: 1.2K, 4.8M. */
export const fmtX = (v: unknown) => (typeof v === 'number' ? compact.format(v) : String(v));
/** y ticks of J and probabilities. */
export const fmtY = (v: unknown) => (typeof v === 'number' ? String(Number(v.toFixed(2))) : String(v));
export const fmt3 = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? (Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(3) : v.toExponential(2)) : '—');

/** A class name made of an algorithm id (ids are free text). */
export const idClass = (id: string) => `algo-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;

interface TipPoint {
  x: number;
  k: number;
  n: number;
}

interface TipRow {
  id: string;
  label: string;
  color: string;
  point: TipPoint;
  value: number;
}

/** Tooltip listing each line's point nearest the pointer, with the seeds it averages. */
function SeriesTooltip({ axis, x, rows }: { axis: XAxis; x: number; rows: TipRow[] }) {
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-head">{axis === 'iterations' ? `iteration ${fmtX(x)}` : `${fmtX(x)} ${X_AXIS[axis].unit}`}</div>
      {rows.map(({ id, label, color, point, value }) => {
        const extra = [axis !== 'iterations' ? `iteration ${point.k}` : '', `n = ${point.n}`].filter(Boolean).join(', ');
        return (
          <div key={id} className="chart-tooltip-row">
            <span className="swatch" style={{ background: color }} />
            {label}: {fmt3(value)}
            <span className="muted-inline"> ({extra})</span>
          </div>
        );
      })}
    </div>
  );
}

/** The tooltip of the plot: per series its point nearest the pointer's x (on the steps axis they differ). */
export function seriesTip<P extends TipPoint>(
  series: readonly { id: string; label: string; color: string; points: readonly P[] }[],
  value: (p: P) => number | null,
  axis: XAxis,
): Tip {
  return (x) => {
    const rows: TipRow[] = [];
    let snap = NaN;
    for (const s of series) {
      const point = s.points[nearestIndex(s.points, x)];
      const v = point ? value(point) : null;
      if (!point || v === null || !Number.isFinite(v)) continue;
      rows.push({ id: s.id, label: s.label, color: s.color, point, value: v });
      if (!(Math.abs(point.x - x) >= Math.abs(snap - x))) snap = point.x;
    }
    if (rows.length === 0) return null;
    const dots = rows.filter((r) => r.point.x === snap).map((r) => ({ y: r.value, color: r.color }));
    return { x: snap, dots, content: <SeriesTooltip axis={axis} x={snap} rows={rows} /> };
  };
}

/** The series the legend has not hidden. */
export function useVisible<T extends { id: string }>(series: readonly T[]): T[] {
  const hidden = useApp((s) => s.hiddenLines);
  return useMemo(() => (hidden.length ? series.filter((s) => !hidden.includes(s.id)) : [...series]), [series, hidden]);
}

/**
 * An HTML legend (readable in both themes): one entry per algorithm; a click hides or shows its
 * lines in every chart, the pointer (or focus) on it makes them stand out. `fold`: more than
 * FOLD_OVER entries fold under one line that opens them (the classroom, where the lines' end labels
 * name them and the chart's height is worth more than four rows of names).
 */
export function AlgorithmLegend({ algorithms, fold = false }: { algorithms: { id: string; label: string; color: string }[]; fold?: boolean }) {
  const hidden = useApp((s) => s.hiddenLines);
  const list = (
    <ul className="chart-legend">
      {algorithms.map((a) => {
        const shown = !hidden.includes(a.id);
        return (
          <li key={a.id} data-algorithm={a.id}>
            <button type="button" className={`legend-entry${shown ? '' : ' off'}`} aria-pressed={shown} data-testid={`legend-${a.id}`}
              title={shown ? `Hide ${a.label}` : `Show ${a.label}`} onClick={() => toggleLine(a.id)}
              onMouseEnter={() => setHoverLine(a.id)} onMouseLeave={() => setHoverLine(null)} onFocus={() => setHoverLine(a.id)} onBlur={() => setHoverLine(null)}>
              <span className="swatch" style={{ background: a.color }} />
              {a.label}
            </button>
          </li>
        );
      })}
    </ul>
  );
  if (!fold || algorithms.length <= FOLD_OVER) return list;
  const off = algorithms.filter((a) => hidden.includes(a.id)).length;
  return (
    <details className="legend-fold" data-testid="legend-fold">
      <summary>{`Legend: ${algorithms.length} algorithms${off ? `, ${off} hidden` : ''}`}</summary>
      {list}
    </details>
  );
}

/** A folding legend folds above this many entries. */
const FOLD_OVER = 4;
