// Plain-words pieces of the verdicts' reasons: numbers, seed counts, lists of algorithms.

import { meanInterval, type MeanInterval } from '../metrics/summary';
import type { AlgorithmTerms, SeedTerms } from './terms';

export const CLAIM_TITLES = {
  1: 'GRAE-REINFORCE reaches J* when undiscounted',
  2: 'PPO with GRAE can decrease J',
  3: 'Critic-free simultaneous methods can miss J* where reverse-order SeeUPO reaches it',
  4: 'SeeUPO in reverse order improves monotonically and reaches J*; forward or random order need not',
  5: 'Group std normalization changes where training ends; batch normalization does not move it',
} as const;

/** Decimals for J values: 2 for rewards spanning about 1, more for narrower reward ranges. */
export function jDecimals(span: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 2;
  return Math.max(2, 1 - Math.floor(Math.log10(span)));
}

export const plural = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many);
export const ofSeeds = (k: number, n: number): string => `${k}/${n} ${plural(n, 'seed')}`;

/** "a, b and c" */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export const stripDot = (s: string): string => s.replace(/\.$/, '');

export interface Fmt {
  num(v: number): string;
  /** "0.30 ± 0.01", "0.30 (1 seed)", "n/a" */
  interval(values: readonly number[]): string;
  /** The same for a mean and interval already computed. */
  meanInterval(m: MeanInterval): string;
  /** "12", "never (most seeds did not get 95% of the way)" */
  t95(v: number): string;
}

export function makeFmt(rewardRange: number): Fmt {
  const d = jDecimals(rewardRange);
  const num = (v: number) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
  const mi = (m: MeanInterval) => {
    if (!Number.isFinite(m.mean)) return 'n/a';
    if (m.n <= 1) return `${num(m.mean)} (1 seed)`;
    return `${num(m.mean)} ± ${num((m.hi - m.lo) / 2)}`;
  };
  return {
    num,
    interval: (values) => mi(meanInterval(values)),
    meanInterval: mi,
    t95: (v) => (Number.isFinite(v) ? String(v) : 'never'),
  };
}

/** "still improving" when every such seed rises (or has too few values to tell), else "still moving". */
export function movingWord(seeds: readonly SeedTerms[]): string {
  return seeds.every((t) => !(t.change < 0)) ? 'still improving' : 'still moving';
}

/** "3/16 seeds of GRPO and 1/16 of GSPO are still improving", "GRPO has no runs yet"; null when every seed is settled. */
export function movingClause(algos: readonly AlgorithmTerms[]): string | null {
  const items = algos
    .map((a) => ({ a, moving: a.seeds.filter((t) => !t.settled) }))
    .filter((x) => x.moving.length > 0 || x.a.seeds.length === 0);
  if (items.length === 0) return null;
  const noRuns = items.filter((x) => x.a.seeds.length === 0);
  if (noRuns.length === items.length) return `${joinAnd(noRuns.map((x) => x.a.label))} ${noRuns.length === 1 ? 'has' : 'have'} no runs yet`;
  const moving = items.filter((x) => x.a.seeds.length > 0);
  const parts = moving.map((x, i) =>
    i === 0 ? `${ofSeeds(x.moving.length, x.a.seeds.length)} of ${x.a.label}` : `${x.moving.length}/${x.a.seeds.length} of ${x.a.label}`,
  );
  const verb = moving.length === 1 && moving[0].moving.length === 1 ? 'is' : 'are';
  return `${joinAnd(parts)} ${verb} ${movingWord(moving.flatMap((x) => x.moving))}`;
}

/** "Undecided: 3/16 seeds of GRPO are still improving; run longer." (null when every seed is settled) */
export function stillMoving(algos: readonly AlgorithmTerms[]): string | null {
  const c = movingClause(algos);
  return c === null ? null : `Undecided: ${c}; run longer.`;
}

/** "GRPO stayed stuck below J* in 12/16 seeds (final J 0.30 ± 0.00)", with the diverged ones named. */
export function stuckPhrase(a: AlgorithmTerms, fmt: Fmt, seeds: readonly SeedTerms[] = a.seeds.filter((t) => t.stuck)): string {
  const div = seeds.filter((t) => t.diverged).length;
  const finite = seeds.filter((t) => !t.diverged).map((t) => t.final);
  const values = finite.length ? `final J ${fmt.interval(finite)}` : '';
  const divText = div ? `${div} of them diverged` : '';
  const extra = [values, divText].filter(Boolean).join('; ');
  return `${a.label} stayed stuck below J* in ${ofSeeds(seeds.length, a.seeds.length)}${extra ? ` (${extra})` : ''}`;
}

/** "REINFORCE reached J* in 16/16 seeds, RLOO in 8/8 seeds" */
export function reachedPhrase(algos: readonly AlgorithmTerms[]): string {
  return algos
    .map((a, i) => {
      const k = a.seeds.filter((t) => t.atJstar).length;
      return i === 0 ? `${a.label} reached J* in ${ofSeeds(k, a.seeds.length)}` : `${a.label} in ${ofSeeds(k, a.seeds.length)}`;
    })
    .join(', ');
}

/** "3 drops in 2/16 seeds" / "no drop in 16 seeds" */
export function dropsPhrase(a: AlgorithmTerms): string {
  const e = a.evidence;
  if (e.drops === 0) return `no drop in ${e.seeds} ${plural(e.seeds, 'seed')}`;
  return `${e.drops} ${plural(e.drops, 'drop')} in ${ofSeeds(e.seedsWithDrops, e.seeds)}`;
}
