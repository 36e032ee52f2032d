import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TITLES, effectiveAxis, METRIC_LABELS, metricSeries } from '../../charts/derive';
import { METRICS, type MetricName } from '../../live';
import { setMetric, useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { AlgorithmLegend, CHART_MARGIN, fmt3, fmtX, idClass, SeriesTooltip, useDerived, SLOTS } from './common';

const HEIGHT = 280;

const NOTES: Record<MetricName, string> = {
  entropy: "Mean per-token entropy (nats) along the policy's trajectories, at each iteration.",
  kl: 'KL(π_old‖π_new) of each iteration, averaged over visited nodes; drawn at the iteration it leads to.',
  clipFraction: 'Share of ratios the clip cut off in each iteration (0 for rules that do not clip).',
  zeroVarianceGroups: 'Share of groups whose rewards were all equal (no learning signal) in each iteration.',
  gradNorm: 'Norm of the policy gradient in each iteration.',
};

/** A training diagnostic per algorithm, picked from METRICS. */
export function MetricChart() {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const metric = useApp((s) => s.metric);
  const series = useDerived((p, l, x) => metricSeries(p, l, metric, x), [metric], SLOTS.metric);
  if (!plan) return null;
  const axis = effectiveAxis(plan.exp, xAxis);
  const xTitle = AXIS_TITLES[axis];
  const share = metric === 'clipFraction' || metric === 'zeroVarianceGroups';
  return (
    <figure className="card chart chart-metric" data-testid="chart-metric" data-metric={metric} data-lines={series.length}
      aria-label={`${METRIC_LABELS[metric]} of ${series.map((a) => a.label).join(', ')} against ${xTitle}`}>
      <figcaption className="chart-head">
        <h2>{METRIC_LABELS[metric]}</h2>
        <label className="chart-select">
          <span>Metric</span>
          <select data-testid="metric-picker" aria-label="Metric" value={metric} onChange={(e) => setMetric(e.target.value as MetricName)}>
            {METRICS.map((m) => (
              <option key={m} value={m}>
                {METRIC_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <ChartExport chart="metric" />
        <p className="muted">{NOTES[metric]}</p>
      </figcaption>
      <LineChart responsive style={{ width: '100%', height: HEIGHT }} margin={CHART_MARGIN}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="x" type="number" domain={[0, 'dataMax']} tickFormatter={fmtX} allowDecimals={false}
          label={{ value: xTitle, position: 'insideBottom', offset: -12 }} />
        <YAxis type="number" domain={share ? [0, 1] : [0, 'auto']} allowDataOverflow={share} tickFormatter={(v: number) => fmt3(v)}
          width={64} />
        {series.map((a) => (
          <Line key={a.id} data={a.points} dataKey="value" name={a.label} type="linear" stroke={a.color} strokeWidth={2} dot={false}
            isAnimationActive={false} className={idClass(a.id)} data-algorithm={a.id} />
        ))}
        <Tooltip isAnimationActive={false} content={(p) => <SeriesTooltip {...p} axis={axis} valueKey="value" />} />
      </LineChart>
      <AlgorithmLegend algorithms={series} />
    </figure>
  );
}
