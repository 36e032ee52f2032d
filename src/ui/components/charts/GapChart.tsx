import { memo } from 'react';
import { GAP_FLOOR, effectiveAxis, gapSeries, logTicks, type GapPoint } from '../../charts/derive';
import { X_AXIS } from '../../../core/metrics/names';
import { useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { AlgorithmLegend, fmtX, idClass, seriesTip, useDerived, useVisible, SLOTS } from './common';
import { Lines, Plot } from './Plot';
import { xExtent } from './plot-geometry';

const HEIGHT = 280;
const gap = (p: GapPoint) => p.gap;
const fmtPow = (v: number) => (v >= 0.01 && v <= 100 ? String(v) : `1e${Math.round(Math.log10(v))}`);

/** J* − J per algorithm on a log scale: how many digits of the optimum each has. */
export const GapChart = memo(function GapChart({ height = HEIGHT }: { height?: number }) {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const { series, ticks } = useDerived((p, l, x) => {
    const series = gapSeries(p, l, x).map((a) => ({ ...a, className: idClass(a.id) }));
    return { series, ticks: logTicks(series.flatMap((a) => a.points.map((q) => q.gap)), GAP_FLOOR) };
  }, [], SLOTS.gap);
  const visible = useVisible(series);
  const hover = useApp((s) => s.hoverLine);
  if (!plan || series.length === 0) return null;
  const axis = effectiveAxis(plan.exp, xAxis);
  const xTitle = X_AXIS[axis].title;
  const x = { domain: xExtent(series), format: fmtX, title: xTitle };
  const y = { domain: [ticks[0], ticks[ticks.length - 1]] as [number, number], ticks, format: fmtPow, title: 'J* − J', log: true };
  return (
    <figure className="card chart chart-gap" data-testid="chart-gap" data-lines={series.length}
      aria-label={`Gap to the optimum J* − J of ${series.map((a) => a.label).join(', ')} on a log scale against ${xTitle}`}>
      <figcaption className="chart-head">
        <h2>Gap to the optimum, J* − J</h2>
        <ChartExport chart="gap" />
        <p className="muted">Log scale; a gap below {GAP_FLOOR.toExponential(0)} (or a mean above J*) is drawn at {GAP_FLOOR.toExponential(0)}.</p>
      </figcaption>
      <Plot height={height} x={x} y={y} tip={seriesTip(visible, gap, axis)}>
        {(f) => <Lines f={f} series={visible} value={gap} hover={hover} />}
      </Plot>
      <AlgorithmLegend algorithms={series} />
    </figure>
  );
});
