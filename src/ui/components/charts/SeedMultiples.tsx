import { memo } from 'react';
import { chartDomain, effectiveAxis, seedLines, type SeedLines } from '../../charts/derive';
import { X_AXIS } from '../../../core/metrics/names';
import { useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { fmtX, fmtY, idClass, useDerived, SLOTS } from './common';
import { seedsText } from '../../live';
import { linearScale, linePath } from './plot-geometry';
import { largestDrop, runDrops, type SeedDrop } from '../../charts/largest-drop';
import { showLargestDrop } from '../../store';
import type { Live } from '../../live';
import type { Plan } from '../../plan';

// Small multiples as plain SVG: one path per seed (up to 32 seeds × 9 algorithms).

const MAX_SEEDS = 32;
const MAX_POINTS = 120;
const W = 240;
const H = 100;

/** What a multiple marks: its drawn seeds' drops, and the focused seed (shown by "largest drop") with its J. */
interface Marks {
  drops: SeedDrop[];
  focus: { drop: SeedDrop; J: Float64Array; upTo: number } | null;
}

function marksOf(plan: Plan | null, live: Live | null, focus: SeedDrop | null): Marks[] {
  if (!plan || !live || live.iteration < 1) return plan ? plan.algorithms.map(() => ({ drops: [], focus: null })) : [];
  const drawn = Math.min(MAX_SEEDS, plan.exp.seedIndices.length);
  return plan.algorithms.map((_, a) => {
    const drops: SeedDrop[] = [];
    for (let p = 0; p < drawn; p++) drops.push(...runDrops(plan, live, a, p, live.iteration));
    const pos = focus && focus.algoIndex === a ? plan.exp.seedIndices.indexOf(focus.seedIndex) : -1;
    const run = pos >= 0 ? live.runs[a * plan.exp.seedIndices.length + pos] : null;
    return { drops, focus: run && focus ? { drop: focus, J: run.J, upTo: live.iteration } : null };
  });
}

const Multiple = memo(function Multiple({ s, Jstar, domain, seedIndices, marks }: { s: SeedLines; Jstar: number; domain: [number, number]; seedIndices: readonly number[]; marks: Marks }) {
  const [lo, hi] = domain;
  const x0 = s.rows.length ? s.rows[0].x : 0, x1 = s.rows.length ? s.rows[s.rows.length - 1].x : 0;
  // the same scales and polyline as every other chart (plot-geometry.ts), in the small viewBox
  const sx = x1 > x0 ? linearScale([x0, x1], [0, W]) : () => 0;
  const sy = linearScale([lo, hi], [H, 0]);
  const seeds = Array.from({ length: s.drawn }, (_, i) => linePath(s.rows, (r) => r.seeds[i], sx, sy));
  // x of iteration k on this chart's axis (the rows' x is k times the axis's scale)
  const last = s.rows[s.rows.length - 1];
  const xOf = (k: number) => sx(last && last.k > 0 ? (k * last.x) / last.k : 0);
  const focus = marks.focus;
  const focusRows = focus ? Array.from({ length: focus.upTo + 1 }, (_, k) => ({ x: k, J: Number.isFinite(focus.J[k]) ? focus.J[k] : null })) : [];
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
          {focus && (
            <path className="seed focused" data-testid="focused-seed" data-seed={focus.drop.seedIndex} data-iteration={focus.drop.iteration} data-drop={String(focus.drop.drop)}
              d={linePath(focusRows, (r) => r.J, (x) => xOf(x), sy)} stroke="var(--fg)" strokeWidth={2} fill="none" vectorEffect="non-scaling-stroke" />
          )}
          {marks.drops.map((d) => (
            <line key={`${d.seedIndex}-${d.iteration}`} className="seed-drop" data-testid="seed-drop" data-seed={d.seedIndex} data-iteration={d.iteration} data-drop={String(d.drop)}
              x1={xOf(d.iteration - 1)} x2={xOf(d.iteration)} y1={sy(d.before)} y2={sy(d.after)}
              vectorEffect="non-scaling-stroke">
              <title>{`seed ${d.seedIndex}: J fell by ${d.drop.toPrecision(2)} at iteration ${d.iteration}`}</title>
            </line>
          ))}
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
  const focus = useApp((s) => s.focusSeed);
  const marks = useDerived((p, l) => marksOf(p, l, focus), [focus], SLOTS.seeds);
  const largest = useDerived((p, l) => (p ? largestDrop(p, l) : null), [], SLOTS.seeds);
  if (!plan || all.length === 0) return null;
  const domain = chartDomain(plan.rewardRange);
  return (
    <section className="card chart chart-seeds" data-testid="chart-seeds" aria-label="J of individual seeds, one small chart per algorithm">
      <div className="chart-head">
        <h2>Seeds</h2>
        <button type="button" data-testid="show-largest-drop" disabled={!largest} onClick={showLargestDrop}
          title={largest ? `Seed ${largest.seedIndex} of ${plan.algorithms[largest.algoIndex].label}: J fell by ${largest.drop.toPrecision(2)} at iteration ${largest.iteration}` : 'No seed’s J has dropped (so far)'}>
          Show the seed with the largest drop
        </button>
        <ChartExport chart="seeds" />
      </div>
      {focus && (
        <p className="seed-focus" data-testid="seed-focus" data-seed={focus.seedIndex} data-algorithm={plan.algorithms[focus.algoIndex]?.id} data-drop={String(focus.drop)}>
          {plan.algorithms[focus.algoIndex]?.label}, seed {focus.seedIndex}: J fell by {focus.drop.toPrecision(2)} at iteration {focus.iteration} (from {focus.before.toFixed(4)} to {focus.after.toFixed(4)}) — drawn dark in its chart, red where it fell; its policy tree is below the return chart.
        </p>
      )}
      <p className="muted">
        Each faint line is one seed; the bold line is the mean over all {seedsText(plan.exp)}; red: where a seed’s J dropped. Dashed: J*. x: {X_AXIS[effectiveAxis(plan.exp, xAxis)].title}.
      </p>
      <div className="multiples">
        {all.map((s, i) => (
          <Multiple key={s.id} s={s} Jstar={plan.Jstar} domain={domain} seedIndices={plan.exp.seedIndices} marks={marks[i] ?? { drops: [], focus: null }} />
        ))}
      </div>
    </section>
  );
});
