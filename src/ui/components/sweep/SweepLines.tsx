import type { SweepCell } from '../../../core/sweep/document';
import { outcomeNumber, type SweepOutcome } from '../../../core/sweep/outcomes';
import type { Axis } from '../../../core/sweep/schema';
import { openSweepCell } from '../../store';
import { axisName, axisValueText, cellTitle } from '../../sweep-text';
import { linearScale, linePath, niceTicks } from '../charts/plot-geometry';
import type { MapAlgorithm } from './SweepMaps';

// A one-axis sweep with a numeric outcome as lines: one per algorithm over the axis's values
// (evenly spaced, in the order given), the mean final J with its interval as a bar, J* dashed.
// A point is a cell: clicking it opens the cell in the explorer.

interface Props {
  axis: Axis;
  axes: readonly Axis[];
  cells: readonly (SweepCell | undefined)[];
  algorithms: readonly MapAlgorithm[];
  outcome: Exclude<SweepOutcome, 'verdict'>;
  domain: [number, number];
  claim: number;
}

const W = 640;
const H = 300;
const BOX = { left: 56, right: W - 16, top: 12, bottom: H - 44 };

export function SweepLines({ axis, axes, cells, algorithms, outcome, domain, claim }: Props) {
  const n = axis.values.length;
  const sx = (i: number) => (n === 1 ? (BOX.left + BOX.right) / 2 : BOX.left + ((BOX.right - BOX.left) * i) / (n - 1));
  const sy = linearScale(domain, [BOX.bottom, BOX.top]);
  const ticks = niceTicks(domain[0], domain[1], 5);
  const Jstar = outcome === 'finalJ' ? cells.find((c) => c)?.Jstar : undefined;
  return (
    <svg className="sweep-lines" data-testid="sweep-lines" viewBox={`0 0 ${W} ${H}`} width="100%" style={{ maxWidth: W }} role="img" aria-label={`${outcome} over ${axis.path}`}>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={BOX.left} x2={BOX.right} y1={sy(t)} y2={sy(t)} className="sweep-grid" />
          <text x={BOX.left - 6} y={sy(t) + 4} textAnchor="end" className="sweep-tick">
            {outcome === 'atOptimum' ? `${Math.round(t * 100)}%` : Number(t.toPrecision(3))}
          </text>
        </g>
      ))}
      {axis.values.map((v, i) => (
        <text key={i} x={sx(i)} y={BOX.bottom + 16} textAnchor="middle" className="sweep-tick">
          {axisValueText(v)}
        </text>
      ))}
      <text x={(BOX.left + BOX.right) / 2} y={H - 6} textAnchor="middle" className="sweep-axis-title">
        {axisName(axis.path)}
      </text>
      {Jstar !== undefined && <line x1={BOX.left} x2={BOX.right} y1={sy(Jstar)} y2={sy(Jstar)} className="plot-reference-line sweep-jstar" strokeDasharray="6 4" />}
      {algorithms.map((algo) => {
        const points = axis.values.map((_, i) => {
          const a = cells[i]?.algorithms.find((x) => x.id === algo.id);
          return { x: i, a, v: a ? outcomeNumber(a, outcome) : null };
        });
        return (
          <g key={algo.id} className="sweep-line" data-testid={`sweep-line-${algo.id}`} style={{ color: algo.color }}>
            <path d={linePath(points, (p) => p.v, sx, sy)} fill="none" stroke={algo.color} strokeWidth={2} />
            {points.map((p) =>
              p.a && p.v !== null ? (
                <g key={p.x} role="button" tabIndex={0} className="sweep-point" data-testid="sweep-cell" data-cell={p.x} data-algo={algo.id} data-value={String(p.v)}
                  onClick={() => openSweepCell(p.x)} onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && openSweepCell(p.x)}>
                  <title>{cellTitle(axes, cells[p.x]!, p.a, algo.label, claim)}</title>
                  {outcome === 'finalJ' && p.a.finalJ.lo !== null && p.a.finalJ.hi !== null && (
                    <line x1={sx(p.x)} x2={sx(p.x)} y1={sy(p.a.finalJ.lo)} y2={sy(p.a.finalJ.hi)} stroke={algo.color} strokeWidth={1.5} />
                  )}
                  <circle cx={sx(p.x)} cy={sy(p.v)} r={4} fill={algo.color} />
                </g>
              ) : null,
            )}
          </g>
        );
      })}
    </svg>
  );
}
