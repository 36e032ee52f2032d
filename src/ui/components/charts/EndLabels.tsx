import { useRef } from 'react';
import { fitGroupLabel, spreadLabels, type LineGroup } from '../../charts/groups';
import type { Frame } from './Plot';
import { useTextFont } from './use-text-font';

// Labels at the lines' ends of the return chart, once some lines coincide: a group of identical
// curves reads "8 algorithms at 0.30: GRPO, GSPO, …" (every name in its title), a lone line its
// display label. Nothing when every line is apart (the legend says enough). A label is shortened
// to the room left of the line's end, so it stays inside the plot at any type size (the
// classroom's 20 px included).

/** Room kept between a label's end and the line's end (in em: clear of the J* label at the plot's right), and between its start and the plot's left edge. */
const PAD_END_EM = 1.6;
const PAD_LEFT = 4;

export function EndLabels({ f, groups, format }: { f: Frame; groups: readonly LineGroup[]; format: (y: number) => string }) {
  const probe = useRef<SVGTextElement>(null);
  const text = useTextFont(probe);
  const drawn = groups.filter((g) => g.end !== null);
  const show = drawn.some((g) => g.ids.length > 1);
  const size = text?.font.size ?? 12;
  const padEnd = Math.max(24, PAD_END_EM * size);
  const ys = show ? spreadLabels(drawn.map((g) => f.y(g.end!.y) - 6), Math.round(size * 1.2), f.box.top + size * 0.8, f.box.bottom - 4) : [];
  return (
    <g className="end-labels">
      <text ref={probe} className="end-label" aria-hidden="true" visibility="hidden" />
      {show &&
        drawn.map((g, i) => {
          const at = format(g.end!.y);
          const end = Math.min(f.x(g.end!.x), f.box.right);
          const fit = (room: number) => (text ? fitGroupLabel(g.labels, at, room, text.measure) : fitGroupLabel(g.labels, at, Infinity, () => 0));
          // left of the line's end; where the line starts at the plot's left edge (iteration 0), right of it
          let x = end - padEnd;
          let anchor: 'end' | 'start' = 'end';
          let label = fit(x - f.box.left - PAD_LEFT);
          if (label === null) {
            x = end + PAD_LEFT * 2;
            anchor = 'start';
            label = fit(f.box.right - x);
          }
          if (label === null) return null;
          return (
            <text key={g.ids.join(',')} className="end-label" data-testid={g.ids.length > 1 ? 'line-group' : 'line-end-label'} data-members={g.ids.join(',')} data-count={g.ids.length}
              x={x} y={ys[i]} textAnchor={anchor} fill={g.color}>
              <title>{g.ids.length > 1 ? `${g.labels.length} identical curves at ${at}: ${g.labels.join(', ')}` : g.labels[0]}</title>
              {label}
            </text>
          );
        })}
    </g>
  );
}
