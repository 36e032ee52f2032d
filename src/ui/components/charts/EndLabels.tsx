import { groupLabel, spreadLabels, type LineGroup } from '../../charts/groups';
import type { Frame } from './Plot';

// Labels at the lines' ends of the return chart, once some lines coincide: a group of identical
// curves reads "8 algorithms at 0.30: GRPO, GSPO, …" (every name in its title), a lone line its
// display label. Nothing when every line is apart (the legend says enough).

export function EndLabels({ f, groups, format }: { f: Frame; groups: readonly LineGroup[]; format: (y: number) => string }) {
  const drawn = groups.filter((g) => g.end !== null);
  if (!drawn.some((g) => g.ids.length > 1)) return null;
  const ys = spreadLabels(drawn.map((g) => f.y(g.end!.y) - 6), 15, f.box.top + 10, f.box.bottom - 4);
  return (
    <g className="end-labels">
      {drawn.map((g, i) => {
        const text = groupLabel(g.labels, format(g.end!.y));
        return (
          <text
            key={g.ids.join(',')}
            className="end-label"
            data-testid={g.ids.length > 1 ? 'line-group' : 'line-end-label'}
            data-members={g.ids.join(',')}
            data-count={g.ids.length}
            x={Math.min(f.x(g.end!.x), f.box.right) - 24}
            y={ys[i]}
            textAnchor="end"
            fill={g.color}
          >
            <title>{g.ids.length > 1 ? `${g.labels.length} identical curves: ${g.labels.join(', ')}` : g.labels[0]}</title>
            {text}
          </text>
        );
      })}
    </g>
  );
}
