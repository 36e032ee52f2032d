import type { ReturnSeries, ViolationMarker } from '../../charts/derive';
import { idClass } from './common';
import type { Frame } from './Plot';
import { bandPath } from './plot-geometry';

// The 95% bands and the violation markers of the return chart: one <path> per band and one small
// <g> per marker, drawn from the plot's scales.

type Algorithms = ReturnSeries['algorithms'];

export function Bands({ f, algorithms }: { f: Frame; algorithms: Algorithms }) {
  return (
    <g className="bands">
      {algorithms.map((a) => (
        <path key={a.id} className={`band ${idClass(a.id)}`} data-algorithm={a.id} d={bandPath(a.points, f.x, f.y)} fill={a.color} fillOpacity={0.15} stroke="none" />
      ))}
    </g>
  );
}

function title(label: string, seeds: number, m: ViolationMarker): string {
  const where = m.from === m.to ? `iteration ${m.to}` : `iterations ${m.from}–${m.to}`;
  return `${label}: J dropped in ${m.seeds} of ${seeds} seed${seeds === 1 ? '' : 's'} at ${where} (${m.drops} drop${m.drops === 1 ? '' : 's'})`;
}

/** A small triangle at the mean where some seed's J dropped, more opaque the more seeds dropped; its title gives the count. */
export function Markers({ f, algorithms, seeds }: { f: Frame; algorithms: Algorithms; seeds: number }) {
  return (
    <g className="violations">
      {algorithms.flatMap((a) =>
        a.markers.map((m) => {
          const cx = f.x(m.x), cy = f.y(m.y);
          return (
            <g key={`${a.id}-${m.k}`} className={`violation ${idClass(a.id)}`} data-algorithm={a.id} data-seeds={m.seeds} opacity={0.35 + (0.65 * m.seeds) / Math.max(1, seeds)}>
              <title>{title(a.label, seeds, m)}</title>
              <path d={`M${cx.toFixed(1)},${(cy - 4.5).toFixed(1)}l4,7h-8z`} fill={a.color} />
            </g>
          );
        }),
      )}
    </g>
  );
}
