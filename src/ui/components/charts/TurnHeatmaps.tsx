import { memo, useLayoutEffect, useRef, type CSSProperties, type MouseEvent } from 'react';
import { turnHeatmap, viridis, viridisCss, VIRIDIS_GRADIENT, type TurnHeatmap } from '../../charts/derive';
import { METRIC } from '../../../core/metrics/names';
import { useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { useDerived, SLOTS } from './common';

const COLUMNS = 120;

/** Paint one pixel per (turn, column); CSS scales it up (pixelated). NaN stays transparent (the card's grid colour). */
function paint(canvas: HTMLCanvasElement, h: TurnHeatmap): void {
  const cols = Math.max(1, h.ks.length);
  if (canvas.width !== cols) canvas.width = cols;
  if (canvas.height !== h.turns) canvas.height = h.turns;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const img = ctx.createImageData(cols, h.turns);
  for (let t = 0; t < h.turns; t++)
    for (let c = 0; c < h.ks.length; c++) {
      const v = h.values[t][c], o = (t * cols + c) * 4;
      if (!Number.isFinite(v)) continue;
      const [r, g, b] = viridis(v);
      img.data[o] = r;
      img.data[o + 1] = g;
      img.data[o + 2] = b;
      img.data[o + 3] = 255;
    }
  ctx.putImageData(img, 0, 0);
}

const Heatmap = memo(function Heatmap({ h }: { h: TurnHeatmap }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useLayoutEffect(() => {
    if (ref.current) paint(ref.current, h);
  }, [h]);
  // a cell's value as the canvas title, without a React render per mouse move
  const hover = (e: MouseEvent<HTMLCanvasElement>) => {
    const el = e.currentTarget, box = el.getBoundingClientRect();
    const c = Math.min(h.ks.length - 1, Math.floor(((e.clientX - box.left) / box.width) * h.ks.length));
    const t = Math.min(h.turns - 1, Math.floor(((e.clientY - box.top) / box.height) * h.turns));
    const v = c >= 0 && t >= 0 ? h.values[t][c] : NaN;
    el.title = c >= 0 && t >= 0 ? `turn ${t + 1}, iteration ${h.ks[c]}: ${Number.isFinite(v) ? v.toFixed(3) : 'no data'}` : '';
  };
  const upTo = h.ks.length ? h.ks[h.ks.length - 1] : 0;
  const rows = { '--turns': h.turns } as CSSProperties;
  return (
    <figure className="heatmap" data-algorithm={h.id}
      aria-label={`${h.label}: probability of the optimal token along the optimal path, per turn, iterations 0 to ${upTo}`}>
      <figcaption>
        <span className="swatch" style={{ background: h.color }} />
        {h.label}
      </figcaption>
      <div className="heat-grid" style={rows}>
        <div className="heat-labels">
          {Array.from({ length: h.turns }, (_, t) => (
            <span key={t}>turn {t + 1}</span>
          ))}
        </div>
        <div className="heat-body">
          <canvas ref={ref} className="heat-canvas" onMouseMove={hover} />
          {h.spans.map(([t, n]) => (
            <div key={t} className="heat-outline" data-turns={Array.from({ length: n }, (_, i) => t + i + 1).join(' ')}
              style={{ top: `${(t / h.turns) * 100}%`, height: `${(n / h.turns) * 100}%` }} />
          ))}
        </div>
        {h.now ? (
          <div className="heat-now" title="After the latest turn step (mean over seeds)">
            {h.now.map((p, t) => (
              <span key={t} className={h.highlight[t] ? 'updated' : undefined} style={{ background: viridisCss(p) }}
                title={`turn ${t + 1} after the latest turn step: ${p.toFixed(3)}`} />
            ))}
          </div>
        ) : null}
        <div className="heat-x">
          <span>0</span>
          <span>iteration</span>
          <span>{upTo}</span>
        </div>
      </div>
      {h.updated ? (
        <p className="heat-updated" data-testid={`turn-updated-${h.id}`}>
          {h.updated}
        </p>
      ) : null}
    </figure>
  );
});

/** Per algorithm: P(optimal token on the optimal path) per turn over iterations; reverse-order credit shows as rows lighting up from the last turn. */
export const TurnHeatmaps = memo(function TurnHeatmaps() {
  const turnStep = useApp((s) => s.turnStep);
  const maps = useDerived((p, l) => (p ? p.algorithms.map((_, a) => turnHeatmap(p, l, a, COLUMNS, turnStep)!) : []), [turnStep], SLOTS.heatmap);
  if (maps.length === 0) return null;
  return (
    <section className="card chart chart-heatmap" data-testid="chart-heatmap"
      aria-label="Heatmaps per algorithm of the optimal token's probability per turn over iterations">
      <div className="chart-head">
        <h2>Credit by turn</h2>
        <ChartExport chart="heatmap" />
      </div>
      <p className="muted">
        Mean over seeds of the probability of the optimal token along the optimal path, turn 1 at the top.
        {turnStep ? ' Outlined: the turn(s) updated in the latest turn step; the last column is the policy after it.' : ''}
      </p>
      <div className="heat-legend" aria-hidden="true">
        <span>0</span>
        <span className="heat-legend-bar" style={{ background: VIRIDIS_GRADIENT }} />
        <span>1</span>
        <span className="muted-inline">{METRIC.optimalTokenProb.axisLabel}</span>
      </div>
      <div className="heatmaps">
        {maps.map((h) => (
          <Heatmap key={h.id} h={h} />
        ))}
      </div>
    </section>
  );
});
