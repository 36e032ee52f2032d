import { useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { useApp } from '../store';
import type { ChartRow } from '../stream';

const WIDTH = 880;
const HEIGHT = 420;

type Point = Record<string, number | null>;

/** recharts reads values by key: lay each row out as { iteration, a0, a1, … }. */
function toPoints(rows: ChartRow[]): Point[] {
  return rows.map((r) => {
    const p: Point = { iteration: r.iteration };
    r.means.forEach((m, i) => (p[`a${i}`] = m));
    return p;
  });
}

const fmt = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : String(v));

export function ReturnChart() {
  const plan = useApp((s) => s.plan);
  const rows = useApp((s) => s.chart);
  const total = useApp((s) => s.total);
  const data = useMemo(() => toPoints(rows), [rows]);
  if (!plan) return null;
  const { exp, Jstar, rewardRange } = plan;
  return (
    <figure className="card chart" data-testid="chart-return">
      <figcaption>
        <h2>Mean return J over {exp.seeds} seeds</h2>
        {plan.envTitle && (
          <p className="muted">
            <strong>{plan.envTitle}.</strong> {plan.envDescription}
          </p>
        )}
      </figcaption>
      <LineChart width={WIDTH} height={HEIGHT} data={data} margin={{ top: 12, right: 24, bottom: 12, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="iteration" type="number" domain={[0, total]} allowDecimals={false}
          label={{ value: 'iteration', position: 'insideBottom', offset: -6 }} />
        <YAxis type="number" domain={rewardRange} tickCount={6} tickFormatter={(v: number) => String(Number(v.toFixed(2)))}
          label={{ value: 'J', angle: -90, position: 'insideLeft' }} />
        <ReferenceLine y={Jstar} className="jstar" strokeDasharray="6 4" strokeWidth={1.5}
          label={{ value: `J* = ${fmt(Jstar)}`, position: 'insideTopRight' }} />
        {plan.algorithms.map((a, i) => (
          <Line key={a.id} dataKey={`a${i}`} name={a.label} stroke={a.color} strokeWidth={2} dot={false}
            type="linear" connectNulls isAnimationActive={false} />
        ))}
        <Tooltip isAnimationActive={false} formatter={fmt} labelFormatter={(k) => `iteration ${String(k)}`} />
        <Legend verticalAlign="bottom" itemSorter={null} wrapperStyle={{ paddingTop: 16 }} />
      </LineChart>
    </figure>
  );
}
