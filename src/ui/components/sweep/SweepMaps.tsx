import type { KeyboardEvent } from 'react';
import type { SweepCell } from '../../../core/sweep/document';
import { cellVerdict, CELL_VERDICTS, outcomeNumber, type CellVerdict, type SweepOutcome } from '../../../core/sweep/outcomes';
import type { Axis } from '../../../core/sweep/schema';
import { viridisCss, VIRIDIS_GRADIENT } from '../../charts/heatmap';
import { openSweepCell } from '../../store';
import { axisName, axisValueText, cellTitle, outcomeText } from '../../sweep-text';

// A phase diagram per algorithm (small multiples): the cells of a one- or two-axis sweep as a grid,
// x = the first axis, y = the second (its first value on top), coloured by one outcome on one
// scale shared by every map (viridis), or by a claim's verdict. A click opens the cell in the explorer.

export interface MapAlgorithm {
  id: string;
  label: string;
  color: string;
}

interface MapProps {
  axes: readonly Axis[];
  cells: readonly (SweepCell | undefined)[];
  algo: MapAlgorithm;
  outcome: SweepOutcome;
  claim: number;
  domain: [number, number];
}

const CELL_W = 44;
const CELL_H = 26;
const LEFT = 64;
const TOP = 8;
const BOTTOM = 34;

const VERDICT_CLASS: Record<CellVerdict, string> = {
  observed: 'observed',
  'not observed': 'not-observed',
  undecided: 'undecided',
  'not testable': 'not-testable',
  'n/a': 'na',
};

const open = (index: number) => () => openSweepCell(index);
const openKey = (index: number) => (e: KeyboardEvent) => {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    openSweepCell(index);
  }
};

export function SweepMap({ axes, cells, algo, outcome, claim, domain }: MapProps) {
  const xs = axes[0]!.values;
  const ys = axes[1]?.values ?? [null];
  const width = LEFT + xs.length * CELL_W + 4;
  const height = TOP + ys.length * CELL_H + BOTTOM;
  const [lo, hi] = domain;
  return (
    <figure className="sweep-map" data-testid={`sweep-map-${algo.id}`}>
      <figcaption>
        <span className="swatch" style={{ background: algo.color }} aria-hidden="true" /> {algo.label}
      </figcaption>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${algo.label}: ${outcome === 'verdict' ? `claim ${claim} verdict` : outcome} per cell`}>
        {ys.map((yv, yi) =>
          xs.map((xv, xi) => {
            const index = axes.length > 1 ? xi * ys.length + yi : xi;
            const cell = cells[index];
            const a = cell?.algorithms.find((x) => x.id === algo.id);
            const x = LEFT + xi * CELL_W;
            const y = TOP + yi * CELL_H;
            if (!cell || !a)
              return <rect key={`${xi}-${yi}`} x={x + 1} y={y + 1} width={CELL_W - 2} height={CELL_H - 2} className="sweep-cell-pending" data-testid="sweep-cell-pending" />;
            let fill: string | undefined;
            let cls = 'sweep-cell';
            let text: string;
            if (outcome === 'verdict') {
              const v = cellVerdict(a, claim);
              cls += ` sweep-verdict-${VERDICT_CLASS[v]}`;
              text = v === 'observed' ? '✓' : v === 'not observed' ? '✗' : v === 'undecided' ? '?' : '–';
            } else {
              const v = outcomeNumber(a, outcome);
              fill = v === null ? undefined : viridisCss((v - lo) / (hi - lo));
              if (v === null) cls += ' sweep-cell-none';
              text = outcomeText(a, outcome);
            }
            const light = fill !== undefined && outcome !== 'verdict' && (outcomeNumber(a, outcome)! - lo) / (hi - lo) > 0.6;
            return (
              <g key={`${xi}-${yi}`} className="sweep-cell-group" role="button" tabIndex={0} onClick={open(index)} onKeyDown={openKey(index)}
                data-testid="sweep-cell" data-cell={index} data-algo={algo.id} data-value={outcome === 'verdict' ? cellVerdict(a, claim) : String(outcomeNumber(a, outcome))}>
                <title>{cellTitle(axes, cell, a, algo.label, claim)}</title>
                <rect x={x + 1} y={y + 1} width={CELL_W - 2} height={CELL_H - 2} className={cls} style={fill ? { fill } : undefined} />
                <text x={x + CELL_W / 2} y={y + CELL_H / 2 + 4} textAnchor="middle" className={`sweep-cell-text${light ? ' dark' : ''}`}>
                  {text}
                </text>
              </g>
            );
          }),
        )}
        {axes.length > 1 &&
          ys.map((yv, yi) => (
            <text key={`y${yi}`} x={LEFT - 6} y={TOP + yi * CELL_H + CELL_H / 2 + 4} textAnchor="end" className="sweep-tick">
              {axisValueText(yv)}
            </text>
          ))}
        {xs.map((xv, xi) => (
          <text key={`x${xi}`} x={LEFT + xi * CELL_W + CELL_W / 2} y={TOP + ys.length * CELL_H + 14} textAnchor="middle" className="sweep-tick">
            {axisValueText(xv)}
          </text>
        ))}
        <text x={LEFT + (xs.length * CELL_W) / 2} y={height - 4} textAnchor="middle" className="sweep-axis-title">
          {axisName(axes[0]!.path)}
        </text>
        {axes.length > 1 && (
          <text x={10} y={TOP + (ys.length * CELL_H) / 2} textAnchor="middle" className="sweep-axis-title" transform={`rotate(-90 10 ${TOP + (ys.length * CELL_H) / 2})`}>
            {axisName(axes[1]!.path)}
          </text>
        )}
      </svg>
    </figure>
  );
}

/** The one colour scale of the maps (or the verdicts' key). */
export function SweepScale({ outcome, domain, label }: { outcome: SweepOutcome; domain: [number, number]; label: string }) {
  if (outcome === 'verdict')
    return (
      <div className="sweep-scale" data-testid="sweep-scale">
        {CELL_VERDICTS.map((v) => (
          <span key={v} className="sweep-key">
            <svg width="14" height="14" aria-hidden="true">
              <rect x="1" y="1" width="12" height="12" className={`sweep-cell sweep-verdict-${VERDICT_CLASS[v]}`} />
            </svg>{' '}
            {v === 'n/a' ? 'not in the claim’s evidence' : v}
          </span>
        ))}
      </div>
    );
  const fmt = (v: number) => (outcome === 'atOptimum' ? `${Math.round(v * 100)}%` : Number(v.toPrecision(3)).toString());
  return (
    <div className="sweep-scale" data-testid="sweep-scale">
      <span>{label}</span>
      <span className="sweep-scale-end">{fmt(domain[0])}</span>
      <span className="sweep-scale-bar" style={{ background: VIRIDIS_GRADIENT }} aria-hidden="true" />
      <span className="sweep-scale-end">{fmt(domain[1])}</span>
      {outcome === 'medianItersTo95' && <span className="muted-inline"> · grey ∞: most seeds never got there</span>}
    </div>
  );
}
