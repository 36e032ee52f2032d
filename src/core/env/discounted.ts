import { hasTurnRewards, prefixOf } from './returns';
import type { Env } from './types';

// The discounted return J_γ = E[Σ_t γ^(t−1)·r_t] (docs/math.md, "What is measured"). With γ < 1
// and per-turn rewards it differs from J, and it is what the learners maximize (each turn is fed
// its discounted reward-to-go), so the claims judge drops and "at the optimum" on it
// (docs/claims.md). With a terminal reward only, J_γ = γ^(T−1)·J: a rescaling that decides nothing.

type DiscountEnv = Pick<Env, 'turns' | 'vocab' | 'tokensPerTurn' | 'contexts' | 'rewards' | 'turnRewards' | 'gamma'>;

/** True when the learners' objective is J_γ rather than J: γ < 1 and some per-turn reward is not zero. */
export function usesDiscountedObjective(env: Pick<Env, 'gamma' | 'turnRewards'>): boolean {
  return env.gamma < 1 && hasTurnRewards(env.turnRewards);
}

/** Per context, every sequence's discounted return Σ_t γ^(t−1)·r_t (r_T the terminal mean reward). */
export function discountedReturns(env: DiscountEnv): Float64Array[] {
  const T = env.turns;
  const gT = Math.pow(env.gamma, T - 1);
  return env.rewards.map((terminal, x) => {
    const out = new Float64Array(terminal.length);
    for (let s = 0; s < out.length; s++) {
      let g = gT * terminal[s];
      if (env.turnRewards) for (let t = 1; t < T; t++) g += Math.pow(env.gamma, t - 1) * env.turnRewards[x][t - 1][prefixOf(env, s, t)];
      out[s] = g;
    }
    return out;
  });
}

/**
 * J_γ* : with deterministic transitions, backward induction on the discounted rewards is the best
 * sequence per context; contexts are drawn uniformly. With a table shared across contexts
 * (`shareContexts`) the policy cannot tell contexts apart, so the optimum is the best sequence of
 * the context-weighted mean table (docs/math.md, "Policies").
 */
export function discountedOptimum(env: DiscountEnv, shareContexts = false): number {
  return bestOfTables(discountedReturns(env), shareContexts);
}

/** The optimum of per-context value tables: mean over contexts of the best entry, or the best entry of the mean table when shared. */
export function bestOfTables(tables: readonly Float64Array[], shareContexts: boolean): number {
  const C = tables.length;
  if (shareContexts) {
    let best = -Infinity;
    for (let s = 0; s < tables[0].length; s++) {
      let m = 0;
      for (let x = 0; x < C; x++) m += tables[x][s];
      best = Math.max(best, m / C);
    }
    return best;
  }
  let sum = 0;
  for (const t of tables) {
    let best = -Infinity;
    for (let s = 0; s < t.length; s++) best = Math.max(best, t[s]);
    sum += best;
  }
  return sum / C;
}
