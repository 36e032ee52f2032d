
// The page's view of a running experiment: the types live in core/run/live.ts (the workers'
// client shares them); here the helpers the page uses on them.

export type { HotChange, Live, TurnStep } from '../core/run/live';

export { X_AXES, METRICS, type XAxis, type MetricName } from '../core/config/view';


export const runIndex = (seeds: number, algoIndex: number, seedIndex: number) => algoIndex * seeds + seedIndex;

/** Runs per algorithm: the seed indices that run (every seed, or the ones a config's `seedIndices` replays). */
export const runsPerAlgorithm = (exp: { seedIndices: readonly number[] }): number => exp.seedIndices.length;

/** "16 seeds", or "2 of 4 seeds (indices 1, 3)" when a config's `seedIndices` replays some of them. */
export function seedsText(exp: { seeds: number; seedIndices: readonly number[] }): string {
  const n = exp.seedIndices.length;
  if (n === exp.seeds) return `${n} ${n === 1 ? 'seed' : 'seeds'}`;
  return `${n} of ${exp.seeds} seeds (${n === 1 ? 'index' : 'indices'} ${exp.seedIndices.join(', ')})`;
}
