import { memo } from 'react';
import { effectiveAxis, metricSeries, type MetricPoint } from '../../charts/derive';
import { METRIC, X_AXIS } from '../../../core/metrics/names';
import { usesDiscountedObjective } from '../../../core/env/discounted';
import { METRICS, type MetricName } from '../../live';
import { setMetric, useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { AlgorithmLegend, fmt3, fmtX, idClass, seriesTip, useDerived, useVisible, SLOTS } from './common';
import { Lines, Plot } from './Plot';
import { niceTicks, xExtent, zeroBasedDomain } from './plot-geometry';

const HEIGHT = 280;
const value = (p: MetricPoint) => p.value;

function maxValue(series: readonly { points: readonly MetricPoint[] }[]): number {
  let max = -Infinity;
  for (const s of series) for (const p of s.points) if (p.value !== null && p.value > max) max = p.value;
  return max;
}

/** A training diagnostic per algorithm, picked from METRICS. */
export const MetricChart = memo(function MetricChart({ height = HEIGHT }: { height?: number }) {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const metric = useApp((s) => s.metric);
  const series = useDerived((p, l, x) => metricSeries(p, l, metric, x).map((a) => ({ ...a, className: idClass(a.id) })), [metric], SLOTS.metric);
  const visible = useVisible(series);
  const hover = useApp((s) => s.hoverLine);
  if (!plan) return null;
  const axis = effectiveAxis(plan.exp, xAxis);
  const xTitle = X_AXIS[axis].title;
  const { label, note, share } = METRIC[metric];
  // J_γ is recorded only where it is the learners' objective (γ < 1 and per-turn rewards): offered there, or when a link asked for it
  const discounted = usesDiscountedObjective(plan.exp.env);
  const choices = METRICS.filter((m) => m !== 'Jgamma' || discounted || m === metric);
  const x = { domain: xExtent(series, 0), format: fmtX, title: xTitle };
  const y = share ? { domain: [0, 1] as [number, number], ticks: niceTicks(0, 1, 4) } : zeroBasedDomain(maxValue(series), 4);
  return (
    <figure className="card chart chart-metric" data-testid="chart-metric" data-metric={metric} data-lines={series.length}
      aria-label={`${label} of ${series.map((a) => a.label).join(', ')} against ${xTitle}`}>
      <figcaption className="chart-head">
        <h2>{label}</h2>
        <label className="chart-select">
          <span>Metric</span>
          <select data-testid="metric-picker" aria-label="Metric" value={metric} onChange={(e) => setMetric(e.target.value as MetricName)}>
            {choices.map((m) => (
              <option key={m} value={m}>
                {METRIC[m].label}
              </option>
            ))}
          </select>
        </label>
        <ChartExport chart="metric" />
        <p className="muted">{note}</p>
      </figcaption>
      <Plot height={height} x={x} y={{ ...y, format: fmt3, width: 64 }} tip={seriesTip(visible, value, axis)}>
        {(f) => <Lines f={f} series={visible} value={value} hover={hover} />}
      </Plot>
      <AlgorithmLegend algorithms={series} />
    </figure>
  );
});
