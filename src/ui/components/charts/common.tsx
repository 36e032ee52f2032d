import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { TooltipContentProps } from 'recharts';
import { useApp } from '../../store';
import type { Live, XAxis } from '../../live';
import type { Plan } from '../../plan';

// What every chart reads from the store. `live` is mutated in place, so derived data is keyed on a
// version. The store bumps `version` up to once per frame while results stream; redrawing every
// chart that often would take most of the main thread, so charts follow a throttled copy of it:
// at once when they have not redrawn for FRAME_MS, else at the end of that interval (the last
// version always shows). (Not useDeferredValue: under a steady stream of updates a deferred render
// keeps being abandoned, and the curves would only appear at the end.)

const FRAME_MS = 100;
/**
 * Charts redraw in turn, one per task (slot k waits k·SLOT_MS): a redraw of every chart in one
 * task would block the page for longer than 50 ms; one chart at a time stays below it.
 */
export const SLOTS = { return: 0, gap: 1, metric: 2, seeds: 3, heatmap: 4 } as const;
const SLOT_MS = 12;
const slotCount = Object.keys(SLOTS).length;
const shown = new Array<number>(slotCount).fill(useApp.getState()?.version ?? 0);
let lastPublish = -Infinity;
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = Array.from({ length: slotCount }, () => new Set<() => void>());

function publish(): void {
  timer = null;
  const v = useApp.getState().version;
  lastPublish = performance.now();
  for (let k = 0; k < slotCount; k++)
    setTimeout(() => {
      shown[k] = v;
      listeners[k].forEach((l) => l());
    }, k * SLOT_MS);
}

useApp.subscribe((s, prev) => {
  if (s.version === prev?.version || timer !== null) return;
  const wait = lastPublish + FRAME_MS - performance.now();
  if (wait <= 0) publish();
  else timer = setTimeout(publish, wait);
});

/** The store's `version`, throttled to one change per FRAME_MS, for the chart in `slot`. */
export function useChartVersion(slot = 0): number {
  const subscribe = useCallback((l: () => void) => {
    listeners[slot].add(l);
    return () => {
      listeners[slot].delete(l);
    };
  }, [slot]);
  return useSyncExternalStore(subscribe, () => shown[slot]);
}

export function useDerived<T>(derive: (plan: Plan | null, live: Live | null, xAxis: XAxis) => T, extra: readonly unknown[] = [], slot = 0): T {
  const plan = useApp((s) => s.plan);
  const live = useApp((s) => s.live);
  const version = useChartVersion(slot);
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

export const CHART_MARGIN = { top: 12, right: 24, bottom: 20, left: 4 };

const X_UNITS: Record<XAxis, string> = { iterations: 'iterations', steps: 'steps', rollouts: 'rollouts' };

/** Tooltip listing each line under the pointer (bands and markers left out), with the seeds it averages. */
export function SeriesTooltip(props: TooltipContentProps & { axis: XAxis; valueKey: string }) {
  const { active, payload, axis, valueKey } = props;
  const rows = (payload ?? []).filter((p) => p.dataKey === valueKey);
  if (!active || rows.length === 0) return null;
  const first = rows[0].payload as { x?: number } | undefined;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-head">{axis === 'iterations' ? `iteration ${fmtX(first?.x)}` : `${fmtX(first?.x)} ${X_UNITS[axis]}`}</div>
      {rows.map((p, i) => {
        const row = p.payload as Record<string, unknown> & { n?: number; k?: number };
        const extra = [axis !== 'iterations' && row.k !== undefined ? `iteration ${row.k}` : '', typeof row.n === 'number' ? `n = ${row.n}` : '']
          .filter(Boolean)
          .join(', ');
        return (
          <div key={i} className="chart-tooltip-row">
            <span className="swatch" style={{ background: p.color ?? p.stroke }} />
            {String(p.name)}: {fmt3(row[valueKey])}
            {extra ? <span className="muted-inline"> ({extra})</span> : null}
          </div>
        );
      })}
    </div>
  );
}

/** An HTML legend (readable in both themes): one swatch per algorithm. */
export function AlgorithmLegend({ algorithms }: { algorithms: { id: string; label: string; color: string }[] }) {
  return (
    <ul className="chart-legend">
      {algorithms.map((a) => (
        <li key={a.id} data-algorithm={a.id}>
          <span className="swatch" style={{ background: a.color }} />
          {a.label}
        </li>
      ))}
    </ul>
  );
}
