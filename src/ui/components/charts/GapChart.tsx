import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TITLES, GAP_FLOOR, effectiveAxis, gapSeries, logTicks } from '../../charts/derive';
import { useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { AlgorithmLegend, CHART_MARGIN, fmtX, idClass, SeriesTooltip, useDerived, SLOTS } from './common';

const HEIGHT = 280;

const fmtPow = (v: unknown) => (typeof v === 'number' ? (v >= 0.01 && v <= 100 ? String(v) : `1e${Math.round(Math.log10(v))}`) : String(v));

/** J* − J per algorithm on a log scale: how many digits of the optimum each has. */
export function GapChart() {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const { series, ticks } = useDerived((p, l, x) => {
    const series = gapSeries(p, l, x);
    return { series, ticks: logTicks(series.flatMap((a) => a.points.map((q) => q.gap)), GAP_FLOOR) };
  }, [], SLOTS.gap);
  if (!plan || series.length === 0) return null;
  const axis = effectiveAxis(plan.exp, xAxis);
  const xTitle = AXIS_TITLES[axis];
  return (
    <figure className="card chart chart-gap" data-testid="chart-gap" data-lines={series.length}
      aria-label={`Gap to the optimum J* − J of ${series.map((a) => a.label).join(', ')} on a log scale against ${xTitle}`}>
      <figcaption className="chart-head">
        <h2>Gap to the optimum, J* − J</h2>
        <ChartExport chart="gap" />
        <p className="muted">Log scale; a gap below {GAP_FLOOR.toExponential(0)} (or a mean above J*) is drawn at {GAP_FLOOR.toExponential(0)}.</p>
      </figcaption>
      <LineChart responsive style={{ width: '100%', height: HEIGHT }} margin={CHART_MARGIN}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="x" type="number" domain={['dataMin', 'dataMax']} tickFormatter={fmtX} allowDecimals={false}
          label={{ value: xTitle, position: 'insideBottom', offset: -12 }} />
        <YAxis type="number" scale="log" domain={[ticks[0], ticks[ticks.length - 1]]} ticks={ticks} allowDataOverflow
          tickFormatter={fmtPow} label={{ value: 'J* − J', angle: -90, position: 'insideLeft' }} />
        {series.map((a) => (
          <Line key={a.id} data={a.points} dataKey="gap" name={a.label} type="linear" stroke={a.color} strokeWidth={2} dot={false}
            isAnimationActive={false} className={idClass(a.id)} data-algorithm={a.id} />
        ))}
        <Tooltip isAnimationActive={false} content={(p) => <SeriesTooltip {...p} axis={axis} valueKey="gap" />} />
      </LineChart>
      <AlgorithmLegend algorithms={series} />
    </figure>
  );
}
