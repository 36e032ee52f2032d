import { memo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, XAxis, YAxis } from 'recharts';
import { AXIS_TITLES, chartDomain, effectiveAxis, seedLines, type SeedLines, type SeedRow } from '../../charts/derive';
import { useApp } from '../../store';
import { fmtX, fmtY, idClass, useDerived } from './common';

const MAX_SEEDS = 32;
const MAX_POINTS = 120;
const HEIGHT = 170;

const seedKey = (i: number) => (r: SeedRow) => r.seeds[i];
const SEED_KEYS = Array.from({ length: MAX_SEEDS }, (_, i) => seedKey(i));

const Multiple = memo(function Multiple({ s, Jstar, domain }: { s: SeedLines; Jstar: number; domain: [number, number] }) {
  return (
    <figure className={`multiple ${idClass(s.id)}`} data-algorithm={s.id}
      aria-label={`${s.label}: J of ${s.drawn} of ${s.total} seeds and their mean`}>
      <figcaption>
        <span className="swatch" style={{ background: s.color }} />
        {s.label}
        {s.drawn < s.total ? <span className="muted-inline"> (first {s.drawn} of {s.total} seeds)</span> : null}
      </figcaption>
      <LineChart responsive style={{ width: '100%', height: HEIGHT }} data={s.rows} margin={{ top: 6, right: 10, bottom: 0, left: -18 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="x" type="number" domain={['dataMin', 'dataMax']} tickFormatter={fmtX} allowDecimals={false} tickCount={3} />
        <YAxis type="number" domain={domain} allowDataOverflow tickCount={3} tickFormatter={fmtY} />
        <ReferenceLine y={Jstar} className="jstar" strokeDasharray="6 4" />
        {SEED_KEYS.slice(0, s.drawn).map((key, i) => (
          <Line key={i} dataKey={key} stroke={s.color} strokeOpacity={0.25} strokeWidth={1} dot={false}
            isAnimationActive={false} activeDot={false} legendType="none" tooltipType="none" className="seed" />
        ))}
        <Line dataKey="mean" name={`${s.label} mean`} stroke={s.color} strokeWidth={2.5} dot={false} activeDot={false}
          isAnimationActive={false} className="mean" />
      </LineChart>
    </figure>
  );
});

/** One small chart per algorithm: its seeds, faint, behind their bold mean. */
export function SeedMultiples() {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const all = useDerived((p, l, x) => (p ? p.algorithms.map((_, a) => seedLines(p, l, a, x, MAX_SEEDS, MAX_POINTS)!) : []));
  if (!plan || all.length === 0) return null;
  return (
    <section className="card chart chart-seeds" data-testid="chart-seeds" aria-label="J of individual seeds, one small chart per algorithm">
      <h2>Seeds</h2>
      <p className="muted">
        Each faint line is one seed; the bold line is the mean over all {plan.exp.seeds} seeds. Dashed: J*. x: {AXIS_TITLES[effectiveAxis(plan.exp, xAxis)]}.
      </p>
      <div className="multiples">
        {all.map((s) => (
          <Multiple key={s.id} s={s} Jstar={plan.Jstar} domain={chartDomain(plan.rewardRange)} />
        ))}
      </div>
    </section>
  );
}
