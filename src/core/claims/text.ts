// Plain-words pieces of the verdicts' reasons: numbers, seed counts, lists of algorithms.

import { meanInterval, type MeanInterval } from '../metrics/summary';
import { clopperPearson } from './stats';
import type { AlgorithmTerms, SeedTerms } from './terms';

export const CLAIM_TITLES = {
  1: 'GRAE-REINFORCE reaches J* when undiscounted',
  2: 'PPO with GRAE can decrease J, where PPO with the true advantage would not',
  3: 'Critic-free simultaneous methods can miss J* where reverse-order SeeUPO reaches it',
  4: 'SeeUPO in reverse order improves monotonically and reaches J*; forward or random order need not',
  5: 'Group std normalization changes where training ends; batch normalization does not move it',
} as const;

/** The most decimals a J value is written with; narrower reward ranges are written in exponent form. */
export const MAX_J_DECIMALS = 12;

/**
 * Decimals for J values: 2 for rewards spanning about 1, more for narrower reward ranges, at most
 * MAX_J_DECIMALS (a subnormal range such as 1e-320 would otherwise ask toFixed for 321 digits).
 */
export function jDecimals(span: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 2;
  return Math.min(MAX_J_DECIMALS, Math.max(2, 1 - Math.floor(Math.log10(span))));
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
  /** A drop's size, with two significant digits at least. */
  drop(v: number): string;
}

export function makeFmt(rewardRange: number): Fmt {
  const d = jDecimals(rewardRange);
  // past MAX_J_DECIMALS fixed decimals would print every value as 0.000…: three significant digits instead
  const tiny = rewardRange > 0 && 1 - Math.floor(Math.log10(rewardRange)) > MAX_J_DECIMALS;
  const num = (v: number) => (Number.isFinite(v) ? (tiny ? v.toPrecision(3) : v.toFixed(d)) : 'n/a');
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
    drop: (v) => (Number.isFinite(v) ? (!tiny && v >= Math.pow(10, -d) ? v.toFixed(d) : v.toPrecision(2)) : 'n/a'),
  };
}

/** "still improving" when every such seed rises (or has too few values to tell), else "still moving". */
export function movingWord(seeds: readonly SeedTerms[]): string {
  return seeds.every((t) => !(t.change < 0)) ? 'still improving' : 'still moving';
}

/** "28/32 seeds (95% interval 0.71–0.96)" */
export function shareText(k: number, n: number): string {
  if (n === 0) return 'no seeds';
  const ci = clopperPearson(k, n);
  return `${ofSeeds(k, n)} (95% interval ${ci.lo.toFixed(2)}–${ci.hi.toFixed(2)})`;
}

/** Algorithms with no completed iteration: they decide nothing. */
export const withoutData = (algos: readonly AlgorithmTerms[]): AlgorithmTerms[] => algos.filter((a) => !a.hasData);

/** "Undecided: GRPO has no runs yet." */
export function noRunsReason(algos: readonly AlgorithmTerms[]): string {
  const names = algos.map((a) => a.label);
  return `Undecided: ${joinAnd(names)} ${names.length === 1 ? 'has' : 'have'} no runs yet.`;
}

/** "3/16 seeds of GRPO and 1/16 of GSPO are still improving", "GRPO has no runs yet"; null when every seed is settled. */
export function movingClause(algos: readonly AlgorithmTerms[]): string | null {
  const items = algos
    .map((a) => ({ a, moving: a.seeds.filter((t) => !t.settled) }))
    .filter((x) => x.moving.length > 0 || !x.a.hasData);
  if (items.length === 0) return null;
  const noRuns = items.filter((x) => !x.a.hasData);
  if (noRuns.length === items.length) return `${joinAnd(noRuns.map((x) => x.a.label))} ${noRuns.length === 1 ? 'has' : 'have'} no runs yet`;
  const moving = items.filter((x) => x.a.hasData);
  const parts = moving.map((x, i) =>
    i === 0 ? `${ofSeeds(x.moving.length, x.a.seeds.length)} of ${x.a.label}` : `${x.moving.length}/${x.a.seeds.length} of ${x.a.label}`,
  );
  const all = moving.flatMap((x) => x.moving);
  const verb = moving.length === 1 && moving[0].moving.length === 1 ? 'is' : 'are';
  const probs = all.filter((t) => t.probsMoving).length;
  const flat = 'J has flattened but the probability of the optimal token is still changing';
  const probText = !probs ? '' : all.length === 1 ? ` (its ${flat})` : probs === all.length ? ` (in each, ${flat})` : ` (in ${probs} of them ${flat})`;
  return `${joinAnd(parts)} ${verb} ${movingWord(all)}${probText}`;
}

/** "Undecided: 3/16 seeds of GRPO are still improving; run longer." (null when every seed is settled) */
export function stillMoving(algos: readonly AlgorithmTerms[]): string | null {
  const c = movingClause(algos);
  if (c === null) return null;
  return algos.every((a) => !a.hasData) ? `Undecided: ${c}.` : `Undecided: ${c}; run longer.`;
}

/**
 * "GRPO did not reach J* in 40 iterations in 12/16 seeds: they stopped moving at J 0.30 ± 0.00
 * (J* = 1.00)", with the diverged ones named. `iterations`: the run's length so far.
 */
export function stuckPhrase(a: AlgorithmTerms, fmt: Fmt, Jstar: number, iterations: number, seeds: readonly SeedTerms[] = a.seeds.filter((t) => t.stuck), J = 'J'): string {
  const div = seeds.filter((t) => t.diverged).length;
  const finite = seeds.filter((t) => !t.diverged).map((t) => t.final);
  const pieces: string[] = [];
  if (finite.length) pieces.push(`${finite.length === 1 ? 'it' : 'they'} stopped moving at ${J} ${finite.length === 1 ? fmt.num(finite[0]) : fmt.interval(finite)}, ${J}* = ${fmt.num(Jstar)}`);
  if (div) pieces.push(`${div} of them diverged`);
  return `${a.label} did not reach ${J}* in ${iterations} ${plural(iterations, 'iteration')} in ${ofSeeds(seeds.length, a.seeds.length)}${pieces.length ? ` (${pieces.join('; ')})` : ''}`;
}

/** "REINFORCE reached J* in 16/16 seeds (95% interval 0.79–1.00), RLOO in 8/8 seeds (…)" */
export function reachedPhrase(algos: readonly AlgorithmTerms[], J = 'J'): string {
  return algos
    .map((a, i) => (i === 0 ? `${a.label} reached ${J}* in ${shareText(a.atJstar, a.seeds.length)}` : `${a.label} in ${shareText(a.atJstar, a.seeds.length)}`))
    .join(', ');
}

/** "the largest, 0.012 at iteration 7 of seed 2, came with KL 0.31" */
export function largestDropText(a: AlgorithmTerms, fmt: Fmt): string {
  const d = a.largestDrop;
  if (!d) return '';
  const kl = d.kl === null ? 'its KL was not stored' : `the KL of that update was ${d.kl.toPrecision(2)}`;
  return `the largest, ${fmt.drop(d.size)} at iteration ${d.iteration} of seed ${d.seed}: ${kl}`;
}

/** "drops in 3/16 seeds (5 in all; the largest …)" / "no drop in 16 seeds" */
export function dropsPhrase(a: AlgorithmTerms, fmt: Fmt): string {
  const e = a.evidence;
  if (e.drops === 0) return `no drop in ${e.seeds} ${plural(e.seeds, 'seed')}`;
  return `drops in ${ofSeeds(e.seedsWithDrops, e.seeds)} (${e.drops} in all; ${largestDropText(a, fmt)})`;
}
