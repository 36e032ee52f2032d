import type { ReactElement } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TITLES, returnSeries, type ViolationMarker } from '../../charts/derive';
import { AlgorithmLegend, CHART_MARGIN, fmt3, fmtX, fmtY, idClass, SeriesTooltip, useDerived } from './common';

const HEIGHT = 340;

/** A small triangle at the mean where some seed's J dropped, more opaque the more seeds dropped; its title gives the count. */
function markerShape(label: string, color: string, seeds: number) {
  return function Marker(props: unknown): ReactElement {
    const { cx, cy, payload } = props as { cx?: number; cy?: number; payload?: ViolationMarker };
    if (cx === undefined || cy === undefined || !payload) return <g />;
    const where = payload.from === payload.to ? `iteration ${payload.to}` : `iterations ${payload.from}–${payload.to}`;
    const share = payload.seeds / Math.max(1, seeds);
    return (
      <g className="violation" data-seeds={payload.seeds} opacity={0.35 + 0.65 * share}>
        <title>{`${label}: J dropped in ${payload.seeds} of ${seeds} seed${seeds === 1 ? '' : 's'} at ${where} (${payload.drops} drop${payload.drops === 1 ? '' : 's'})`}</title>
        <path d={`M${cx},${cy - 4.5} L${cx + 4},${cy + 2.5} L${cx - 4},${cy + 2.5} Z`} fill={color} />
      </g>
    );
  };
}

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
      <figcaption>
        <h2>Mean return J{seeds > 1 ? ` over ${seeds} seeds` : ''}</h2>
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
        {data.algorithms.map((a) => (
          <Area key={`band-${a.id}`} data={a.points} dataKey="band" type="linear" stroke="none" fill={a.color} fillOpacity={0.15}
            isAnimationActive={false} legendType="none" tooltipType="none" activeDot={false} connectNulls={false}
            className={`band ${idClass(a.id)}`} />
        ))}
        {data.algorithms.map((a) => (
          <Line key={`line-${a.id}`} data={a.points} dataKey="mean" name={a.label} type="linear" stroke={a.color} strokeWidth={2}
            dot={false} isAnimationActive={false} className={idClass(a.id)} data-algorithm={a.id} />
        ))}
        {data.algorithms.map((a) =>
          a.markers.length ? (
            <Scatter key={`drops-${a.id}`} data={a.markers} dataKey="y" name={`${a.label} drops`} fill={a.color}
              shape={markerShape(a.label, a.color, seeds)} isAnimationActive={false} legendType="none" tooltipType="none"
              className={`violations ${idClass(a.id)}`} />
          ) : null,
        )}
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
