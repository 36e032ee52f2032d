import { memo, useMemo, useRef } from 'react';
import { buildTree, type Tree } from '../../../core/env/tree';
import type { PolicyTreeView } from '../../../core/env/policy-tree';
import { layoutTree, type LaidNode } from '../../charts/tree-layout';
import { LINE_EM, placeTreeLabels } from '../../charts/tree-labels';
import { measureFor } from '../../charts/text-measure';
import { useTextFont } from './use-text-font';
import { treeRunsOf, treeUnavailable, type TreeRun } from '../../tree-state';
import { chooseTreeRuns, toggleTreeDetails, useApp } from '../../store';
import { ChartExport } from './ChartExport';
import { fmt3 } from './common';
import { useWidth } from './Plot';
import './tree.css';

// The bandit as its tree (docs/math.md, "The decision tree"), for one or two runs side by side:
// the context, then each turn's token choices down to the returns. An edge's width and opacity
// are π(token | prefix); each node shows V^π of its prefix (on demand also V*, the advantage
// A^π = Q^π − V^π of its token and the advantage the algorithm fed it); the optimal path and the
// safe exit are marked, and during Step one turn the turn just updated is shaded. The component
// draws only what the store holds: the workers send the watched runs' trees (session-host.ts).

const sign = (v: number) => (v > 0 ? `+${fmt3(v)}` : fmt3(v));

interface Geometry {
  font: number;
  rowH: number;
  top: number;
  left: number;
  colW: number;
  r: number;
}

function nodeTitle(n: LaidNode, view: PolicyTreeView, parentValue: number | null): string {
  const i = n.i;
  const lines = [n.depth === 0 ? 'the context' : `prefix ${n.prefix} (turn ${n.turn})`];
  if (n.depth > 0) lines.push(`π(${n.tokens[n.depth - 1]} | ${n.tokens.slice(0, -1).join('-') || 'context'}) = ${fmt3(view.prob[i])}`);
  lines.push(`reached with probability ${fmt3(view.reach[i])}`);
  lines.push(`V^π = ${fmt3(view.value[i])}${n.depth > 0 ? ` = Q^π of its last token` : ''}`, `V* = ${fmt3(view.best[i])}`);
  if (parentValue !== null) lines.push(`advantage A^π = Q − V(parent) = ${sign(view.value[i] - parentValue)}`);
  const fed = view.fed[i];
  if (n.depth > 0) lines.push(view.noFed ? `advantage fed: not shown (${view.noFed})` : fed === null ? 'fed no advantage this iteration (no rollout took it)' : `advantage the algorithm fed it: ${sign(fed)}`);
  if (n.optimal) lines.push('on the optimal path');
  if (n.exit) lines.push(`a safe exit: ${fmt3(view.value[i])} whatever follows`);
  if (n.folded) lines.push(`${n.below} prefixes below are hidden`);
  return lines.join('\n');
}

/** A node's value label, longest form first: the value with "exit" or "+n" (prefixes hidden below), then the value alone. */
function labelForms(n: LaidNode, value: number): string[] {
  const v = fmt3(value).replace(/^0\./, '.');
  if (n.exit) return [`${v} exit`];
  return n.folded ? [`${v} +${n.below}`, v] : [v];
}

/** A node's detail lines (V*, the advantage and the advantage fed), when the details are on. */
function detailLines(n: LaidNode, view: PolicyTreeView, parentValue: number | null): string[] {
  const i = n.i;
  const fed = view.fed[i];
  const out = [`V* ${fmt3(view.best[i])}`];
  if (parentValue !== null) out.push(`A ${sign(view.value[i] - parentValue)}${fed === null ? '' : ` fed ${sign(fed)}`}`);
  return out;
}

function TreeSvg({ tree, view, color, details, large, width, fitHeight }: { tree: Tree; view: PolicyTreeView; color: string; details: boolean; large: boolean; width: number; fitHeight?: number }) {
  const { nodes, rows } = useMemo(() => layoutTree(tree, view), [tree, view]);
  const probe = useRef<SVGTextElement>(null);
  const measured = useTextFont(probe);
  // the labels' type: the drawn size (the classroom's CSS sets 20 px), measured once drawn
  const font = measured?.font.size ?? (large ? 20 : 13);
  const measure = measured?.measure ?? measureFor({ size: font, weight: '400', family: 'sans-serif' });
  const lines = details ? 3 : 1;
  const g: Geometry = { font, rowH: Math.round(font * (details ? 2.9 : 1.45)), top: Math.round(font * 1.5), left: 14, colW: 0, r: Math.round(font * 0.55) };
  // a height to fit (the classroom's top row): rows as tight as 1.05 lines of type (room for a label above a node two rows down)
  if (fitHeight !== undefined) g.rowH = Math.max(Math.round(font * (details ? 2.3 : 1.05)), Math.min(g.rowH, Math.floor((fitHeight - g.top - 4) / Math.max(1, rows))));
  const parentValueOf = (n: LaidNode) => (n.parent === null ? null : view.value[nodes[n.parent].i]);
  // room right of the last column for its labels, as wide as the widest of them
  const lastLabels = nodes.filter((n) => n.depth === tree.N).map((n) => Math.max(measure(labelForms(n, view.value[n.i])[0]), ...(details ? detailLines(n, view, parentValueOf(n)).map(measure) : [])));
  const labelW = Math.max(font * 2, ...lastLabels) + 3 + 2;
  // at least the circles apart (a phone): labels that find no room beside a node move or are left off
  g.colW = Math.max(2 * g.r + 8, (width - g.left - 2 * g.r - labelW) / tree.N);
  const height = g.top + Math.max(1, rows) * g.rowH + 4;
  const x = (depth: number) => g.left + g.r + depth * g.colW;
  const y = (row: number) => g.top + row * g.rowH + g.rowH / 2 - (lines - 1) * font * 0.5;
  const labels = placeTreeLabels(
    nodes.map((n) => ({
      cx: x(n.depth),
      cy: y(n.row),
      r: g.r,
      forms: labelForms(n, view.value[n.i]),
      extra: details ? detailLines(n, view, parentValueOf(n)) : [],
      priority: (n.optimal ? 4 : 0) + (n.exit ? 2 : 0) + view.reach[n.i],
    })),
    measure,
    font,
    lines,
    { x0: 0, y0: font * 1.1, x1: width, y1: height },
  );
  const updated = view.turn;
  const bands = updated === null ? [] : updated < 0 ? Array.from({ length: tree.T }, (_, t) => t) : [updated];
  return (
    <svg className="tree-svg" width={width} height={height} role="img" aria-label={`Policy tree: ${nodes.length} prefixes shown, ${view.hidden} hidden`}>
      <text ref={probe} className="tree-label" aria-hidden="true" visibility="hidden" fontSize={large ? 20 : 13} />
      {bands.map((t) => (
        <rect key={`band${t}`} className="tree-band" x={x(t * tree.L)} y={0} width={x((t + 1) * tree.L) - x(t * tree.L)} height={height} />
      ))}
      {Array.from({ length: tree.T }, (_, t) => (
        <text key={`turn${t}`} className={`tree-turn${bands.includes(t) ? ' now' : ''}`} x={(x(t * tree.L) + x((t + 1) * tree.L)) / 2} y={font} textAnchor="middle" fontSize={font}>
          {`${g.colW * tree.L >= font * 4.2 ? 'turn ' : 'T'}${t + 1}${bands.includes(t) ? ' ◀' : ''}`}
        </text>
      ))}
      <g className="tree-edges">
        {nodes.map((n) => {
          if (n.parent === null) return null;
          const p = nodes[n.parent];
          const x0 = x(p.depth), y0 = y(p.row), x1 = x(n.depth), y1 = y(n.row);
          const prob = view.prob[n.i];
          const mx = (x0 + x1) / 2;
          return (
            <path key={`e${n.prefix}`} className={`tree-edge${n.optimal ? ' optimal' : ''}${n.exit ? ' exit' : ''}`} d={`M${x0},${y0} C${mx},${y0} ${mx},${y1} ${x1},${y1}`}
              style={{ stroke: n.optimal ? undefined : color, strokeWidth: 0.75 + prob * (large ? 10 : 7), opacity: 0.12 + 0.88 * prob }} />
          );
        })}
      </g>
      <g className="tree-nodes">
        {nodes.map((n) => {
          const i = n.i;
          const parentValue = parentValueOf(n);
          const cx = x(n.depth), cy = y(n.row);
          const token = n.depth === 0 ? 'x' : String(n.tokens[n.depth - 1]);
          const label = labels[n.i];
          return (
            <g key={n.prefix} className={`tree-node${n.optimal ? ' optimal' : ''}${n.exit ? ' exit' : ''}${n.folded ? ' folded' : ''}`} data-testid="tree-node"
              data-prefix={n.prefix} data-turn={n.turn} data-prob={String(view.prob[i])} data-value={String(view.value[i])} data-reach={String(view.reach[i])}
              data-optimal={n.optimal ? '1' : undefined} data-exit={n.exit ? '1' : undefined}>
              <title>{nodeTitle(n, view, parentValue)}</title>
              <circle cx={cx} cy={cy} r={g.r} />
              <text className="tree-token" x={cx} y={cy} dy="0.35em" textAnchor="middle" fontSize={font * 0.85}>{token}</text>
              {label && (
                <text className="tree-label" x={label.x} y={label.y} dy="0.35em" textAnchor={label.anchor} fontSize={font}>
                  {label.text}
                </text>
              )}
              {label && details && (
                <text className="tree-detail" x={label.x} y={label.y + font * LINE_EM} dy="0.35em" textAnchor={label.anchor} fontSize={font}>
                  {detailLines(n, view, parentValue).map((line, k) => (
                    <tspan key={k} x={label.x} dy={k === 0 ? undefined : `${LINE_EM}em`}>{line}</tspan>
                  ))}
                </text>
              )}
            </g>
          );
        })}
      </g>
    </svg>
  );
}

function RunPicker({ index, runs }: { index: number; runs: TreeRun[] }) {
  const plan = useApp((s) => s.plan)!;
  const [a, s] = runs[index];
  const set = (next: TreeRun) => chooseTreeRuns(runs.map((r, i) => (i === index ? next : r)));
  return (
    <span className="tree-picker">
      <select data-testid={`tree-algorithm-${index}`} aria-label={`Tree ${index + 1}: algorithm`} value={a} onChange={(e) => set([Number(e.target.value), s])}>
        {plan.algorithms.map((al, i) => (
          <option key={i} value={i}>{al.label}</option>
        ))}
      </select>
      {plan.exp.seedIndices.length > 1 && (
        <select data-testid={`tree-seed-${index}`} aria-label={`Tree ${index + 1}: seed`} value={s} onChange={(e) => set([a, Number(e.target.value)])}>
          {plan.exp.seedIndices.map((k) => (
            <option key={k} value={k}>seed {k}</option>
          ))}
        </select>
      )}
    </span>
  );
}

function OneTree({ tree, run, index, runs, large, fitHeight }: { tree: Tree; run: TreeRun; index: number; runs: TreeRun[]; large: boolean; fitHeight?: number }) {
  const plan = useApp((s) => s.plan)!;
  const view = useApp((s) => s.policyTrees.find((t) => t.algoIndex === run[0] && t.seedIndex === run[1]) ?? null);
  const details = useApp((s) => s.treeDetails);
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref);
  const line = plan.algorithms[run[0]];
  const when = view === null ? '' : view.turn === null ? `after iteration ${view.iteration}` : view.turn < 0 ? `iteration ${view.iteration}: every turn at once` : `iteration ${view.iteration}: turn ${view.turn + 1} updated`;
  return (
    <div className="tree-one" data-testid="policy-tree" data-algorithm={line.id} data-seed={run[1]} data-iteration={view?.iteration ?? ''} data-turn-updated={view?.turn ?? ''}>
      <div className="tree-head">
        <span className="swatch" style={{ background: line.color }} />
        <RunPicker index={index} runs={runs} />
        <span className="tree-when" data-testid={`tree-when-${index}`} title={when}>{when}</span>
      </div>
      <div ref={ref} className="tree-canvas">
        {view && width > 0 ? <TreeSvg tree={tree} view={view} color={line.color} details={details} large={large} width={width} fitHeight={fitHeight} /> : <p className="muted tree-empty">Press Step or Run: the tree fills in from the first iteration.</p>}
      </div>
      {view && view.hidden > 0 && (
        <p className="muted tree-hidden" data-testid={`tree-hidden-${index}`}>
          {view.hidden.toLocaleString('en')} of {(tree.nodesPerContext + tree.sequences).toLocaleString('en')} prefixes hidden: fixed returns (“+n” below a node) and branches the policy rarely reaches.
        </p>
      )}
    </div>
  );
}

/** The card's height besides the drawing in the classroom: the run pickers' row and padding (its title is hidden there). */
const TREE_CARD_EXTRA = 60;

/** `fitHeight`: the card's height to fit (the classroom layout), rows drawn tighter to fit it. */
export const PolicyTree = memo(function PolicyTree({ large = false, fitHeight }: { large?: boolean; fitHeight?: number }) {
  const plan = useApp((s) => s.plan);
  const chosen = useApp((s) => s.treeRuns);
  const details = useApp((s) => s.treeDetails);
  const context = useApp((s) => s.treeContext);
  const env = plan?.exp.env;
  const tree = useMemo(() => (env ? buildTree(env) : null), [env]);
  if (!plan || !tree) return null;
  const runs = treeRunsOf(plan.exp, chosen);
  const blocked = treeUnavailable(plan.exp, plan.choice.executor);
  return (
    <figure className={`card chart chart-tree${large ? ' large' : ''}`} data-testid="chart-tree">
      <figcaption className="chart-head">
        <h2>The policy as a tree{plan.exp.env.contexts > 1 ? `, context ${context}` : ''}</h2>
        <ChartExport chart="tree" />
        <p className="muted">Edge width = π(token | prefix); each node shows V^π, the expected return from there. Green: the optimal path; orange: the safe exit.</p>
      </figcaption>
      {blocked ? (
        <p className="muted tree-blocked" data-testid="tree-blocked" data-executor={plan.choice.executor}>{blocked}</p>
      ) : (
        <>
          <div className="tree-tools">
            <label>
              <input type="checkbox" data-testid="tree-details" checked={details} onChange={toggleTreeDetails} /> V*, advantage A and the advantage fed
            </label>
            {plan.exp.env.contexts > 1 && (
              <select data-testid="tree-context" aria-label="Context" value={context} onChange={(e) => chooseTreeRuns(chosen, Number(e.target.value))}>
                {Array.from({ length: plan.exp.env.contexts }, (_, x) => (
                  <option key={x} value={x}>context {x}</option>
                ))}
              </select>
            )}
            {runs.length === 1 && plan.exp.algorithms.length > 1 && (
              <button type="button" onClick={() => chooseTreeRuns([...runs, [runs[0][0] === 0 ? 1 : 0, runs[0][1]]])}>Compare with another</button>
            )}
          </div>
          <div className="tree-pair">
            {runs.map((run, i) => (
              <OneTree key={`${i}`} tree={tree} run={run} index={i} runs={runs} large={large} fitHeight={fitHeight === undefined ? undefined : fitHeight - TREE_CARD_EXTRA} />
            ))}
          </div>
        </>
      )}
    </figure>
  );
});
