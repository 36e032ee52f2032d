import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { X_AXES, type XAxis } from '../../live';
import { axisAvailable, effectiveAxis } from '../../charts/derive';
import { X_AXIS } from '../../../core/metrics/names';
import { setXAxis, useApp } from '../../store';
import { GapChart } from './GapChart';
import { MetricChart } from './MetricChart';
import { ReturnChart } from './ReturnChart';
import { SeedMultiples } from './SeedMultiples';
import { TurnHeatmaps } from './TurnHeatmaps';
import { PolicyTree } from './PolicyTree';
import { VerdictPanel } from '../VerdictPanel';
import { useHidden } from '../../hide';
import './charts.css';

/** The x-axis picker: an axis this experiment cannot draw is disabled, with the reason as its title. */
export function AxisPicker() {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const shown = plan ? effectiveAxis(plan.exp, xAxis) : xAxis;
  return (
    <label className="chart-select">
      <span>X axis</span>
      <select data-testid="x-axis" aria-label="X axis" value={shown} onChange={(e) => setXAxis(e.target.value as XAxis)}>
        {X_AXES.map((x) => {
          const why = plan ? axisAvailable(plan.exp, x) : null;
          return (
            <option key={x} value={x} disabled={why !== null} title={why ?? undefined}>
              {X_AXIS[x].label}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** Room the return chart's card takes besides its plot: title, one-line note, axis titles, legend. */
const CARD_EXTRA = 190;
/** Room a secondary chart's card takes besides its plot. */
const PAIR_EXTRA = 175;
/** From this window width the gap and metric charts stand beside the return chart (charts.css), stacked. */
export const WIDE_LAYOUT = '(min-width: 1700px) and (min-height: 900px)';

interface Heights {
  /** The return chart's plot. */
  main: number;
  /** The gap and metric charts' plots (their default when they are not beside the return chart). */
  pair: number | undefined;
}

/**
 * The return chart's plot height: what the window leaves below the chart's top (under the header,
 * a lesson banner, the transport and the switches), so that the chart and the verdicts beside it
 * are on the first screen (1366×768 too); between 220 and 560 px. Follows window resizes and
 * anything above that grows or shrinks (a banner opened, a notice).
 */
function useChartHeights(top: RefObject<HTMLElement | null>, layoutKey: unknown): Heights {
  const [h, setH] = useState<Heights>({ main: 340, pair: undefined });
  useEffect(() => {
    const fit = () => {
      const el = top.current;
      if (!el) return;
      const y = el.getBoundingClientRect().top + scrollY;
      const main = Math.round(Math.max(220, Math.min(560, innerHeight - y - CARD_EXTRA)));
      // wide screens: the gap and metric charts share the height beside the return chart
      const wide = typeof matchMedia === 'function' && matchMedia(WIDE_LAYOUT).matches;
      const pair = wide ? Math.round(Math.max(150, Math.min(280, (innerHeight - y - 12) / 2 - PAIR_EXTRA))) : undefined;
      setH((old) => (old.main === main && old.pair === pair ? old : { main, pair }));
    };
    fit();
    addEventListener('resize', fit);
    const main = top.current?.closest('.main, .app');
    const watch = typeof ResizeObserver === 'undefined' || !main ? null : new ResizeObserver(fit);
    if (watch && main) for (const child of Array.from(main.children)) if (!child.contains(top.current)) watch.observe(child);
    return () => {
      removeEventListener('resize', fit);
      watch?.disconnect();
    };
  }, [top, layoutKey]);
  return h;
}

/** Charts of the panel, in the order they are mounted. */
const CHARTS = 4;

/** Mounts the charts one per task, as soon as there is a plan (before any run), so that no single task builds them all. */
function useStaggeredMount(active: boolean): number {
  const [mounted, setMounted] = useState(0);
  useEffect(() => {
    if (!active) {
      setMounted(0);
      return;
    }
    if (mounted >= CHARTS) return;
    const t = setTimeout(() => setMounted((m) => m + 1), 0);
    return () => clearTimeout(t);
  }, [active, mounted]);
  return active ? mounted : 0;
}

/**
 * Every chart of the running (or finished) experiment, or how to start one: the return chart with
 * the verdict panel beside it, then `caption` (what the numbers say), then the other charts.
 */
export function ChartsPanel({ caption, axisPicker = true }: { caption?: ReactNode; axisPicker?: boolean }) {
  const plan = useApp((s) => s.plan);
  const live = useApp((s) => s.live);
  const mounted = useStaggeredMount(plan !== null);
  const topRef = useRef<HTMLDivElement>(null);
  const height = useChartHeights(topRef, live === null); // the note above the charts goes once a run starts
  const hide = { verdicts: useHidden('verdicts'), gap: useHidden('chart-gap'), metric: useHidden('chart-metric'), seeds: useHidden('chart-seeds'), heatmap: useHidden('chart-heatmap'), tree: useHidden('chart-tree') };
  if (!plan)
    return (
      <section className="card charts-empty" data-testid="charts-empty">
        <p>Fix the settings marked in red to draw the charts.</p>
      </section>
    );
  return (
    <section className="charts" aria-label="Charts">
      {!live && (
        <p className="card charts-empty" data-testid="charts-empty">
          Press Run to train; curves stream in as the workers compute.
        </p>
      )}
      {axisPicker && (
        <div className="charts-toolbar">
          <AxisPicker />
        </div>
      )}
      <div ref={topRef} className={`charts-top${hide.verdicts ? ' alone' : ''}`}>
        {mounted >= 1 ? <ReturnChart height={height.main} /> : <div />}
        {!hide.verdicts && <VerdictPanel />}
      </div>
      {caption}
      {mounted >= 2 && !hide.tree && <PolicyTree />}
      {mounted >= 2 && !(hide.gap && hide.metric) && (
        <div className="charts-pair">
          {!hide.gap && <GapChart height={height.pair} />}
          {mounted >= 3 && !hide.metric && <MetricChart height={height.pair} />}
        </div>
      )}
      {mounted >= 4 && !hide.seeds && <SeedMultiples />}
      {mounted >= 4 && !hide.heatmap && <TurnHeatmaps />}
    </section>
  );
}
