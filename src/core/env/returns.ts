import type { Env } from './types';

// Per-turn rewards (docs/math.md "Environments: multi-turn bandits"): r_t paid at the end of turn t, indexed by the t-turn
// prefix; the terminal table is r_T. J and J* are computed on the undiscounted sum; the learner
// of turn t is fed the discounted reward-to-go G_t = Σ_{k≥t} γ^(k−t)·r_k.

type Sizes = Pick<Env, 'turns' | 'vocab' | 'tokensPerTurn'>;

/** Number of t-turn prefixes (t = 1..T): V^(t·L). */
export const prefixCount = (s: Sizes, t: number): number => Math.pow(s.vocab, t * s.tokensPerTurn);

/** Index of the t-turn prefix (t = 1..T) of sequence s (first token most significant). */
export const prefixOf = (sz: Sizes, s: number, t: number): number => Math.floor(s / prefixCount(sz, sz.turns - t));

/** True when some turn reward is not zero (a table of zeros is the same experiment as none). */
export function hasTurnRewards(turnRewards: readonly (readonly ArrayLike<number>[])[] | null | undefined): boolean {
  if (!turnRewards) return false;
  for (const ctx of turnRewards) for (const table of ctx) for (let i = 0; i < table.length; i++) if (table[i] !== 0) return true;
  return false;
}

/** Per context, the total mean reward of every sequence: terminal plus the turn rewards along it. */
export function totalReturns(sz: Sizes, rewards: Float64Array[], turnRewards: Float64Array[][] | null): Float64Array[] {
  if (!turnRewards) return rewards;
  return rewards.map((terminal, x) => {
    const out = Float64Array.from(terminal);
    for (let t = 1; t < sz.turns; t++) {
      const table = turnRewards[x][t - 1];
      for (let s = 0; s < out.length; s++) out[s] += table[prefixOf(sz, s, t)];
    }
    return out;
  });
}

/**
 * Rewards along sequence s of context x by turn (r_1..r_T, the terminal one being its mean, before noise),
 * written into out[0..T).
 */
export function turnRewardsAlong(env: Env, x: number, s: number, out: Float64Array): Float64Array {
  const T = env.turns;
  for (let t = 1; t < T; t++) out[t - 1] = env.turnRewards ? env.turnRewards[x][t - 1][prefixOf(env, s, t)] : 0;
  out[T - 1] = env.rewards[x][s];
  return out;
}

/**
 * Discounted rewards-to-go G_t = Σ_{k≥t} γ^(k−t)·r_k of one rollout (docs/math.md "Environments: multi-turn bandits"), from its
 * rewards r[from .. from + T) by turn, written into out[at .. at + T). Allocates nothing.
 */
export function rewardsToGo(r: ArrayLike<number>, from: number, T: number, gamma: number, out: Float64Array, at: number): void {
  let g = r[from + T - 1];
  out[at + T - 1] = g;
  for (let t = T - 2; t >= 0; t--) out[at + t] = g = r[from + t] + gamma * g;
}

/**
 * The least range the tolerances are taken in, as a share of the returns' magnitude: float64
 * computes J to about 1e-16 of it, so a range below this (every sequence paying the same mean, or
 * nearly) would make rounding count as drops and as missing J* (docs/math.md §7).
 */
export const RANGE_FLOOR = 1e-6;

function returnBounds(env: Pick<Env, 'returns'>): { lo: number; hi: number } {
  let lo = Infinity, hi = -Infinity;
  for (const r of env.returns) for (const v of r) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return { lo, hi };
}

/**
 * max R̄ − min R̄ over every sequence and context, on the total return (drops, stalls and "at J*"
 * are judged against it), but at least RANGE_FLOOR·max(|R̄|).
 */
export function returnRange(env: Pick<Env, 'returns'>): number {
  const { lo, hi } = returnBounds(env);
  return Math.max(hi - lo, RANGE_FLOOR * Math.max(Math.abs(lo), Math.abs(hi)));
}

/** Every sequence of every context pays the same mean total return (within RANGE_FLOOR of its magnitude): every policy is optimal. */
export function flatReturns(env: Pick<Env, 'returns'>): boolean {
  const { lo, hi } = returnBounds(env);
  return !(hi - lo > RANGE_FLOOR * Math.max(Math.abs(lo), Math.abs(hi)));
}
