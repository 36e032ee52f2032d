import { memo, useMemo } from 'react';
import { returnSeries, type SeriesPoint } from '../../charts/derive';
import { METRIC, X_AXIS } from '../../../core/metrics/names';
import { Bands, Markers } from './ReturnLayers';
import { ChartExport } from './ChartExport';
import { AlgorithmLegend, fmt3, fmtX, fmtY, idClass, seriesTip, useDerived, useShownRun, useVisible } from './common';
import { useApp } from '../../store';
import { HLine, Lines, Plot, VLine, type Frame } from './Plot';
import type { TurnStep } from '../../live';
import { niceTicks, xExtent } from './plot-geometry';
import { EndLabels } from './EndLabels';
import { identicalGroups } from '../../charts/groups';

const HEIGHT = 340;
const mean = (p: SeriesPoint) => p.mean;

/**
 * Step one turn on the chart: per algorithm, from its mean J at the iteration being performed to
 * its mean J after the turns updated so far, drawn at iteration + done/T (a partial iteration).
 */
function TurnStepLayer({ f, series, step }: { f: Frame; series: readonly { index: number; id: string; color: string; scale: number; points: readonly SeriesPoint[] }[]; step: TurnStep }) {
  return (
    <g className="turn-step-layer">
      {series.map((a) => {
        const st = step.algorithms[a.index];
        const from = a.points.find((p) => p.k === step.iteration) ?? a.points[a.points.length - 1];
        if (!st || !Number.isFinite(st.J) || !from || from.mean === null) return null;
        const x0 = f.x(from.x), x1 = f.x((step.iteration + step.done / step.turns) * a.scale);
        return (
          <g key={a.id} data-testid="turn-step-point" data-algorithm={a.id} data-j={String(st.J)} data-done={step.done}>
            <line x1={x0} x2={x1} y1={f.y(from.mean)} y2={f.y(st.J)} stroke={a.color} strokeWidth={2} strokeDasharray="4 3" />
            <circle cx={x1} cy={f.y(st.J)} r={4.5} fill={a.color} stroke="var(--card)" strokeWidth={1.5}>
              <title>{`after ${step.done} of ${step.turns} turn steps of iteration ${step.iteration + 1}: J = ${fmt3(st.J)}`}</title>
            </circle>
          </g>
        );
      })}
    </g>
  );
}

export const ReturnChart = memo(function ReturnChart({ height = HEIGHT }: { height?: number }) {
  const data = useDerived(returnSeries);
  const run = useShownRun();
  const classroom = useApp((s) => s.classroom);
  const all = useMemo(() => data?.algorithms.map((a) => ({ ...a, className: idClass(a.id) })) ?? [], [data]);
  const series = useVisible(all);
  const hover = useApp((s) => s.hoverLine);
  // curves equal within a thousandth of the plotted range are drawn on top of one another: label them as a group
  const groups = useMemo(() => (data ? identicalGroups(series, 1e-3 * (data.domain[1] - data.domain[0])) : []), [data, series]);
  const turnStep = useApp((s) => s.turnStep);
  if (!data) return null;
  const seeds = data.seeds;
  const dropSeeds = data.algorithms.reduce((s, a) => s + a.markers.length, 0);
  const xTitle = X_AXIS[data.axis].title;
  const summary =
    `Mean return J of ${data.algorithms.map((a) => a.label).join(', ')} against ${xTitle}, up to iteration ${data.upTo}, ` +
    `with 95% bands over seeds; dashed line J* = ${fmt3(data.Jstar)}` +
    (dropSeeds ? `; triangles mark ${dropSeeds} places where some seed's J dropped` : '');
  // the iteration being stepped (held at its start), or just completed by its last turn step
  const stepping = turnStep && (turnStep.iteration === data.upTo || (turnStep.done === turnStep.turns && turnStep.iteration + 1 === data.upTo)) ? turnStep : null;
  const extent = xExtent(series);
  // while an iteration is stepped turn by turn, the axis reaches the iteration being performed
  const reach = stepping ? Math.max(...series.map((a) => (stepping.iteration + 1) * a.scale)) : -Infinity;
  const x = { domain: [extent[0], Math.max(extent[1], reach)] as [number, number], format: fmtX, title: xTitle };
  const y = { domain: data.domain, ticks: niceTicks(data.domain[0], data.domain[1], 5), format: fmtY, title: METRIC.J.axisLabel };
  return (
    <figure className="card chart chart-return" data-testid="chart-return" data-lines={data.algorithms.length} data-upto={data.upTo} data-run={run} aria-label={summary}>
      <figcaption className="chart-head">
        <h2 data-testid="return-title" data-identical={data.identicalSeeds ? 'true' : 'false'}>
          {data.identicalSeeds ? `Return J: one curve per algorithm (its ${seeds} seeds are identical)` : `Mean return J${seeds > 1 ? ` over ${seeds} seeds` : ''}`}
        </h2>
        <ChartExport chart="return" />
        <p className="muted">
          Shaded: 95% t-interval over seeds. ▲ marks a monotonic-improvement violation (some seed's J dropped; hover for the count).
          {data.jIsEstimate ? ' J is a Monte-Carlo estimate here, so drops are sampling noise and none are marked.' : ''}
        </p>
      </figcaption>
      <Plot height={height} x={x} y={y} tip={seriesTip(series, mean, data.axis)}>
        {(f) => (
          <>
            <Bands f={f} algorithms={series} />
            <Lines f={f} series={series} value={mean} hover={hover} />
            <Markers f={f} algorithms={series} seeds={seeds} />
            <HLine f={f} y={data.Jstar} className="jstar" label="J*" dash="6 4" />
            <EndLabels f={f} groups={groups} format={(v) => v.toFixed(2)} />
            {stepping && <TurnStepLayer f={f} series={series} step={stepping} />}
            {data.changes.map((c) => (
              <VLine key={`change-${c.iteration}-${c.x}`} f={f} x={c.x} className="hot-change" label={c.label || undefined} title={c.title} />
            ))}
          </>
        )}
      </Plot>
      <AlgorithmLegend algorithms={data.algorithms} fold={classroom} />
    </figure>
  );
});
