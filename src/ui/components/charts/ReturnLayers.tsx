import { DefaultZIndexes, useXAxisScale, useYAxisScale, ZIndexLayer } from 'recharts';
import type { ReturnSeries, SeriesPoint, ViolationMarker } from '../../charts/derive';
import { idClass } from './common';

// The 95% bands and the violation markers of the return chart, drawn straight from the chart's
// scales: one <path> per band and one small <g> per marker, instead of an Area and a Scatter per
// algorithm (each a registered recharts item re-selected on every streamed frame).

type Scale = (v: unknown) => number | undefined;
type Algorithms = ReturnSeries['algorithms'];

/** Closed outline of [lo, hi] over each run of points with data (clamped to the y domain). */
function bandPath(points: SeriesPoint[], x: Scale, y: Scale, [d0, d1]: [number, number]): string {
  const clamp = (v: number) => Math.min(d1, Math.max(d0, v));
  let d = '';
  let run: { px: number; top: number; bottom: number }[] = [];
  const flush = () => {
    if (run.length > 1) {
      d += `M${run.map((p) => `${p.px.toFixed(1)},${p.top.toFixed(1)}`).join('L')}`;
      d += `L${run.reverse().map((p) => `${p.px.toFixed(1)},${p.bottom.toFixed(1)}`).join('L')}Z`;
    }
    run = [];
  };
  for (const p of points) {
    const px = x(p.x), top = p.band ? y(clamp(p.band[1])) : undefined, bottom = p.band ? y(clamp(p.band[0])) : undefined;
    if (px === undefined || top === undefined || bottom === undefined) flush();
    else run.push({ px, top, bottom });
  }
  flush();
  return d;
}

export function Bands({ algorithms, domain }: { algorithms: Algorithms; domain: [number, number] }) {
  const x = useXAxisScale(), y = useYAxisScale();
  if (!x || !y) return null;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.area}>
      <g className="bands">
        {algorithms.map((a) => (
          <path key={a.id} className={`band ${idClass(a.id)}`} d={bandPath(a.points, x, y, domain)} fill={a.color} fillOpacity={0.15} stroke="none" />
        ))}
      </g>
    </ZIndexLayer>
  );
}

function title(label: string, seeds: number, m: ViolationMarker): string {
  const where = m.from === m.to ? `iteration ${m.to}` : `iterations ${m.from}–${m.to}`;
  return `${label}: J dropped in ${m.seeds} of ${seeds} seed${seeds === 1 ? '' : 's'} at ${where} (${m.drops} drop${m.drops === 1 ? '' : 's'})`;
}

/** A small triangle at the mean where some seed's J dropped, more opaque the more seeds dropped; its title gives the count. */
export function Markers({ algorithms, seeds }: { algorithms: Algorithms; seeds: number }) {
  const x = useXAxisScale(), y = useYAxisScale();
  if (!x || !y) return null;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.scatter}>
      <g className="violations">
        {algorithms.flatMap((a) =>
          a.markers.map((m) => {
            const cx = x(m.x), cy = y(m.y);
            if (cx === undefined || cy === undefined) return null;
            return (
              <g key={`${a.id}-${m.k}`} className={`violation ${idClass(a.id)}`} data-seeds={m.seeds} opacity={0.35 + (0.65 * m.seeds) / Math.max(1, seeds)}>
                <title>{title(a.label, seeds, m)}</title>
                <path d={`M${cx.toFixed(1)},${(cy - 4.5).toFixed(1)}l4,7h-8z`} fill={a.color} />
              </g>
            );
          }),
        )}
      </g>
    </ZIndexLayer>
  );
}
