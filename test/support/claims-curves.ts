// Hand-made J curves and ClaimsInputs for the claims tests: J* = 1, R range 1, N = 40 iterations
// (the stall window w is then 10; docs/claims.md, "Terms").
import { presetRecord, type AlgorithmRecord } from '../../src/core/algo/records';
import type { ClaimsInput } from '../../src/core/claims';

export const N = 40;

/** Rises linearly from 0.1 to 1 by iteration `at` (t95 = ⌈0.95·at⌉), then stays at J* = 1. */
export const reach = (at = 10): number[] => Array.from({ length: N + 1 }, (_, k) => (k >= at ? 1 : 0.1 + (0.9 * k) / at));
/** Rises to v by iteration 5, then flat: stalled (the last 35 iterations are equal), stuck below J*. */
export const stuck = (v = 0.3): number[] => Array.from({ length: N + 1 }, (_, k) => (k >= 5 ? v : 0.1 + ((v - 0.1) * k) / 5));
/** Still rising at the end: +0.0125 per iteration, 0.1 → 0.6 (J_40 − J_30 = 0.125). */
export const rising = (): number[] => Array.from({ length: N + 1 }, (_, k) => 0.1 + 0.0125 * k);

export const rec = (preset: string, over: Partial<AlgorithmRecord> = {}, id = preset): AlgorithmRecord => ({ ...presetRecord(preset, id), ...over });

export type InputOptions = Partial<ClaimsInput> & { seedIndices?: number[][]; diverged?: (number | null)[][] };

/**
 * A ClaimsInput: per algorithm, one curve per seed (seed index = position unless `seedIndices`),
 * on a table shared by two contexts; `extra` adds fields to each run (Jgamma, probabilities, KL).
 */
export function input(algos: AlgorithmRecord[], curves: number[][][], over: InputOptions = {}, extra: (ai: number, si: number) => object = () => ({})): ClaimsInput {
  const { seedIndices, diverged, ...rest } = over;
  return {
    algorithms: algos,
    runs: curves.map((seeds, ai) => seeds.map((J, si) => ({ seedIndex: seedIndices?.[ai]?.[si] ?? si, J, diverged: diverged?.[ai]?.[si] ?? null, ...extra(ai, si) }))),
    mode: 'exact',
    jIsEstimate: false,
    gamma: 1,
    contexts: 2,
    iterations: N,
    Jstar: 1,
    rewardRange: 1,
    optimizer: { kind: 'sgd', lr: 1 },
    policy: { kind: 'tabular', shareContexts: true },
    ...rest,
  };
}
