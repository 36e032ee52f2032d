import { CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TITLES, returnSeries } from '../../charts/derive';
import { Bands, Markers } from './ReturnLayers';
import { ChartExport } from './ChartExport';
import { AlgorithmLegend, CHART_MARGIN, fmt3, fmtX, fmtY, idClass, SeriesTooltip, useDerived } from './common';

const HEIGHT = 340;

export function ReturnChart() {
  const data = useDerived(returnSeries);
  if (!data) return null;
  const seeds = data.seeds;
  const dropSeeds = data.algorithms.reduce((s, a) => s + a.markers.length, 0);
  const xTitle = AXIS_TITLES[data.axis];
  const summary =
    `Mean return J of ${data.algorithms.map((a) => a.label).join(', ')} against ${xTitle}, up to iteration ${data.upTo}, ` +
    `with 95% bands over seeds; dashed line J* = ${fmt3(data.Jstar)}` +
    (dropSeeds ? `; triangles mark ${dropSeeds} places where some seed's J dropped` : '');
  return (
    <figure className="card chart chart-return" data-testid="chart-return" data-lines={data.algorithms.length} aria-label={summary}>
      <figcaption className="chart-head">
        <h2>Mean return J{seeds > 1 ? ` over ${seeds} seeds` : ''}</h2>
        <ChartExport chart="return" />
        <p className="muted">
          Shaded: 95% t-interval over seeds. ▲ marks a monotonic-improvement violation (some seed's J dropped; hover for the count).
          {data.jIsEstimate ? ' J is a Monte-Carlo estimate here, so drops are sampling noise and none are marked.' : ''}
        </p>
      </figcaption>
      <ComposedChart responsive style={{ width: '100%', height: HEIGHT }} margin={CHART_MARGIN}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="x" type="number" domain={['dataMin', 'dataMax']} tickFormatter={fmtX} allowDecimals={false}
          label={{ value: xTitle, position: 'insideBottom', offset: -12 }} />
        <YAxis type="number" domain={data.domain} allowDataOverflow tickCount={6} tickFormatter={fmtY}
          label={{ value: 'J', angle: -90, position: 'insideLeft' }} />
        <Bands algorithms={data.algorithms} domain={data.domain} />
        {data.algorithms.map((a) => (
          <Line key={`line-${a.id}`} data={a.points} dataKey="mean" name={a.label} type="linear" stroke={a.color} strokeWidth={2}
            dot={false} isAnimationActive={false} className={idClass(a.id)} data-algorithm={a.id} />
        ))}
        <Markers algorithms={data.algorithms} seeds={seeds} />
        <ReferenceLine y={data.Jstar} className="jstar" strokeDasharray="6 4" strokeWidth={1.5}
          label={{ value: 'J*', position: 'insideTopRight' }} />
        {data.changes.map((c) => (
          <ReferenceLine key={`change-${c.iteration}-${c.x}`} x={c.x} className="hot-change" strokeDasharray="4 4"
            label={c.label ? { value: c.label, position: 'insideTopLeft' } : undefined} />
        ))}
        <Tooltip isAnimationActive={false} content={(p) => <SeriesTooltip {...p} axis={data.axis} valueKey="mean" />} />
      </ComposedChart>
      <AlgorithmLegend algorithms={data.algorithms} />
    </figure>
  );
}
