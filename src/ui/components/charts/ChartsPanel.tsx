import { useEffect, useState, type ReactNode } from 'react';
import { X_AXES, type XAxis } from '../../live';
import { axisAvailable, AXIS_LABELS, effectiveAxis } from '../../charts/derive';
import { setXAxis, useApp } from '../../store';
import { GapChart } from './GapChart';
import { MetricChart } from './MetricChart';
import { ReturnChart } from './ReturnChart';
import { SeedMultiples } from './SeedMultiples';
import { TurnHeatmaps } from './TurnHeatmaps';
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
              {AXIS_LABELS[x]}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/**
 * The return chart's plot height: what the window leaves under the header, the transport and the
 * switches, so that the chart and the verdicts beside it are on the first screen (1366×768 too).
 */
function useReturnHeight(): number {
  const fit = () => Math.round(Math.max(220, Math.min(560, (typeof innerHeight === 'number' ? innerHeight : 900) - 500)));
  const [h, setH] = useState(fit);
  useEffect(() => {
    const on = () => setH(fit());
    addEventListener('resize', on);
    return () => removeEventListener('resize', on);
  }, []);
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
  const height = useReturnHeight();
  const hide = { verdicts: useHidden('verdicts'), gap: useHidden('chart-gap'), metric: useHidden('chart-metric'), seeds: useHidden('chart-seeds'), heatmap: useHidden('chart-heatmap') };
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
      <div className={`charts-top${hide.verdicts ? ' alone' : ''}`}>
        {mounted >= 1 ? <ReturnChart height={height} /> : <div />}
        {!hide.verdicts && <VerdictPanel />}
      </div>
      {caption}
      {mounted >= 2 && !(hide.gap && hide.metric) && (
        <div className="charts-pair">
          {!hide.gap && <GapChart />}
          {mounted >= 3 && !hide.metric && <MetricChart />}
        </div>
      )}
      {mounted >= 4 && !hide.seeds && <SeedMultiples />}
      {mounted >= 4 && !hide.heatmap && <TurnHeatmaps />}
    </section>
  );
}
