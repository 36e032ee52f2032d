import type { Live, TurnStep } from '../live';
import type { Plan } from '../plan';
import { drawnUpTo, liveFor, sampleIterations } from './axis';
import { seedStats } from './columns';

// Per-turn heatmaps: the mean over seeds of the optimal token's probability along the optimal
// path, per turn (rows) and sampled iteration (columns), and what "Step one turn" last updated.

/** Viridis at 0, ¼, ½, ¾, 1: colour-blind safe, monotone in lightness, readable on light and dark cards. */
export const VIRIDIS_STOPS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of a probability (clamped to 0…1) as [r, g, b]. */
export function viridis(p: number): [number, number, number] {
  const v = Math.min(1, Math.max(0, Number.isFinite(p) ? p : 0)) * (VIRIDIS_STOPS.length - 1);
  const i = Math.min(VIRIDIS_STOPS.length - 2, Math.floor(v)), f = v - i;
  const a = VIRIDIS_STOPS[i], b = VIRIDIS_STOPS[i + 1];
  return [0, 1, 2].map((c) => Math.round(a[c] + (b[c] - a[c]) * f)) as [number, number, number];
}

export const viridisCss = (p: number) => `rgb(${viridis(p).join(' ')})`;

/** CSS gradient of the scale, for the legend bar. */
export const VIRIDIS_GRADIENT = `linear-gradient(to right, ${VIRIDIS_STOPS.map((s, i) => `rgb(${s.join(' ')}) ${(i / (VIRIDIS_STOPS.length - 1)) * 100}%`).join(', ')})`;

export interface TurnHeatmap {
  algoIndex: number;
  id: string;
  label: string;
  color: string;
  turns: number;
  /** Iteration of each column. */
  ks: number[];
  /** values[t][c]: mean over seeds at turn t (0-based), iteration ks[c]; NaN without data. */
  values: Float64Array[];
  /** After the latest turn step (mean over seeds per turn), drawn as a last column; null when not stepping. */
  now: number[] | null;
  /** Per turn: updated in the latest turn step. */
  highlight: boolean[];
  /** Runs of consecutive highlighted turns, [first turn, count], one outline each. */
  spans: [number, number][];
  /** "iteration k, turn step d/T: updated turn t" while stepping, else null. */
  updated: string | null;
}

/** What one algorithm did in the latest turn step, as a line of text (turns 1-based); null when not stepping. */
export function turnUpdateText(turnStep: TurnStep | null, algoIndex: number): string | null {
  const a = turnStep?.algorithms[algoIndex];
  if (!turnStep || !a) return null;
  const head = `iteration ${turnStep.iteration}, turn step ${turnStep.done}/${turnStep.turns}`;
  if (a.updated.includes('all')) return `${head}: updated every turn at once`;
  const turns = [...new Set(a.updated.filter((u): u is number => typeof u === 'number'))].sort((x, y) => x - y);
  if (turns.length === 0) return `${head}: waiting (all turns were updated in turn step 1)`;
  if (turns.length === 1) return `${head}: updated turn ${turns[0] + 1}`;
  return `${head}: updated turns ${turns.map((t) => t + 1).join(', ')} (the order differs between seeds)`;
}

/** Rows to outline: the turns updated in the latest turn step. */
export function updatedTurns(turnStep: TurnStep | null, algoIndex: number, turns: number): boolean[] {
  const out = new Array<boolean>(turns).fill(false);
  const a = turnStep?.algorithms[algoIndex];
  if (!a) return out;
  for (const u of a.updated) {
    if (u === 'all') out.fill(true);
    else if (typeof u === 'number' && u >= 0 && u < turns) out[u] = true;
  }
  return out;
}

/** Runs of consecutive true entries as [start, length]. */
export function highlightSpans(highlight: boolean[]): [number, number][] {
  const out: [number, number][] = [];
  highlight.forEach((on, t) => {
    if (!on) return;
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === t) last[1]++;
    else out.push([t, 1]);
  });
  return out;
}

/** One algorithm's heatmap at ≤ columns sampled iterations. */
export function turnHeatmap(
  plan: Plan | null,
  live: Live | null,
  algoIndex: number,
  columns = 120,
  turnStep: TurnStep | null = null,
): TurnHeatmap | null {
  if (!plan || algoIndex < 0 || algoIndex >= plan.algorithms.length) return null;
  const turns = plan.exp.env.turns;
  const l = liveFor(plan, live);
  const upTo = drawnUpTo(plan, l);
  const ks = !l || upTo < 0 ? [] : sampleIterations(upTo, columns);
  const values = Array.from({ length: turns }, (_, t) =>
    l ? Float64Array.from(seedStats(plan, l, algoIndex, t, ks, upTo), (m) => m.mean) : new Float64Array(0),
  );
  const step = turnStep?.algorithms[algoIndex];
  const highlight = updatedTurns(turnStep, algoIndex, turns);
  const line = plan.algorithms[algoIndex];
  return {
    algoIndex,
    id: line.id,
    label: line.label,
    color: line.color,
    turns,
    ks,
    values,
    now: step && step.optimalProb.length === turns ? [...step.optimalProb] : null,
    highlight,
    spans: highlightSpans(highlight),
    updated: turnUpdateText(turnStep, algoIndex),
  };
}
