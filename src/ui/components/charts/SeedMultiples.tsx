import { memo } from 'react';
import { chartDomain, effectiveAxis, seedLines, type SeedLines } from '../../charts/derive';
import { X_AXIS } from '../../../core/metrics/names';
import { useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { fmtX, fmtY, idClass, useDerived, SLOTS } from './common';
import { seedsText } from '../../live';
import { linearScale, linePath } from './plot-geometry';

// Small multiples as plain SVG: one path per seed (up to 32 seeds × 9 algorithms).

const MAX_SEEDS = 32;
const MAX_POINTS = 120;
const W = 240;
const H = 100;

const Multiple = memo(function Multiple({ s, Jstar, domain, seedIndices }: { s: SeedLines; Jstar: number; domain: [number, number]; seedIndices: readonly number[] }) {
  const [lo, hi] = domain;
  const x0 = s.rows.length ? s.rows[0].x : 0, x1 = s.rows.length ? s.rows[s.rows.length - 1].x : 0;
  // the same scales and polyline as every other chart (plot-geometry.ts), in the small viewBox
  const sx = x1 > x0 ? linearScale([x0, x1], [0, W]) : () => 0;
  const sy = linearScale([lo, hi], [H, 0]);
  const seeds = Array.from({ length: s.drawn }, (_, i) => linePath(s.rows, (r) => r.seeds[i], sx, sy));
  return (
    <figure className={`multiple ${idClass(s.id)}`} data-algorithm={s.id} aria-label={`${s.label}: J of ${s.drawn} of ${s.total} seeds and their mean`}>
      <figcaption>
        <span className="swatch" style={{ background: s.color }} />
        {s.label}
        {s.drawn < s.total ? <span className="muted-inline"> (first {s.drawn} of {s.total} seeds)</span> : null}
      </figcaption>
      <div className="mult-plot">
        <div className="mult-y" aria-hidden="true">
          <span>{fmtY(hi)}</span>
          <span>{fmtY((lo + hi) / 2)}</span>
          <span>{fmtY(lo)}</span>
        </div>
        <svg className="mult-svg" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-hidden="true">
          {[0, H / 2, H].map((y) => (
            <line key={y} className="mult-grid" x1={0} x2={W} y1={y} y2={y} vectorEffect="non-scaling-stroke" />
          ))}
          <line className="mult-jstar" x1={0} x2={W} y1={sy(Jstar)} y2={sy(Jstar)} vectorEffect="non-scaling-stroke" />
          {seeds.map((d, i) => (
            <path key={i} className="seed" data-seed={seedIndices[i]} d={d} stroke={s.color} strokeOpacity={0.25} strokeWidth={1} fill="none" vectorEffect="non-scaling-stroke" />
          ))}
          <path className="mean" d={linePath(s.rows, (r) => r.mean, sx, sy)} stroke={s.color} strokeWidth={2.5} fill="none"
            strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
        </svg>
        <div className="mult-x" aria-hidden="true">
          <span>{fmtX(x0)}</span>
          <span>{fmtX(x1)}</span>
        </div>
      </div>
    </figure>
  );
});

/** One small chart per algorithm: its seeds, faint, behind their bold mean. */
export const SeedMultiples = memo(function SeedMultiples() {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const all = useDerived((p, l, x) => (p ? p.algorithms.map((_, a) => seedLines(p, l, a, x, MAX_SEEDS, MAX_POINTS)!) : []), [], SLOTS.seeds);
  if (!plan || all.length === 0) return null;
  const domain = chartDomain(plan.rewardRange);
  return (
    <section className="card chart chart-seeds" data-testid="chart-seeds" aria-label="J of individual seeds, one small chart per algorithm">
      <div className="chart-head">
        <h2>Seeds</h2>
        <ChartExport chart="seeds" />
      </div>
      <p className="muted">
        Each faint line is one seed; the bold line is the mean over all {seedsText(plan.exp)}. Dashed: J*. x: {X_AXIS[effectiveAxis(plan.exp, xAxis)].title}.
      </p>
      <div className="multiples">
        {all.map((s) => (
          <Multiple key={s.id} s={s} Jstar={plan.Jstar} domain={domain} seedIndices={plan.exp.seedIndices} />
        ))}
      </div>
    </section>
  );
});
