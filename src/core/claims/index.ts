// The claims verdict engine (docs/claims.md, rules version 2): five verdicts on an experiment's
// runs, each with its reason and evidence. The only implementation of these rules: the result
// JSON, the CLI, sweeps and the page's captions all call computeClaims.

import { needsMonteCarlo, type Experiment } from '../config/resolve';
import { discountedOptimum, usesDiscountedObjective } from '../env/discounted';
import { flatReturns, returnRange } from '../env/returns';
import type { RunSeries } from '../run/series';
import { claim, claim1, claim2, claim3, NOT_TESTABLE, type Ctx } from './rules';
import { claim4, claim5, twinsOf } from './rules-twins';
import { allTerms, lastFiniteIndex, type AlgorithmTerms } from './terms';
import { makeFmt } from './text';
import type { Claim, ClaimPart, ClaimsInput, ClaimsRun } from './types';

export { CLAIMS_RULES } from './types';
export type { AlgorithmEvidence, Claim, ClaimPart, ClaimsInput, ClaimsRun, DropEvidence, Verdict } from './types';
export {
  isStalled,
  probabilitiesStalled,
  recentChange,
  stallTolerance,
  stallWindow,
  AT_JSTAR,
  DROP,
  STALL_J,
  STALL_P,
  type SeedTerms,
  type AlgorithmTerms,
} from './terms';
export { allTerms } from './terms';
export { differingFields, effectiveLr, isCF, isGR, isPG, isREV, isTwin } from './groups';
export { CLAIM_TITLES, jDecimals } from './text';
export { clopperPearson, fisherGreater } from './stats';

/** The learners' objective: J_γ when ClaimsInput.JgammaStar is set (γ < 1 with per-turn rewards), else J. */
const discounted = (input: ClaimsInput): boolean => input.JgammaStar !== undefined && input.JgammaStar !== null;

/**
 * The five verdicts of docs/claims.md, in order 1..5. `termsJ`: allTerms(input, 'J') when the
 * caller has it already (the page's caption reads the same terms), else computed here.
 */
export function computeClaims(input: ClaimsInput, termsJ: AlgorithmTerms[] = allTerms(input, 'J')): Claim[] {
  const disc = discounted(input);
  let iterationsDone = 0;
  for (const runs of input.runs) for (const r of runs) iterationsDone = Math.max(iterationsDone, lastFiniteIndex(r.J), r.diverged ?? 0);
  const ctx: Ctx = {
    input,
    termsJ,
    terms: disc ? allTerms(input, 'Jgamma') : termsJ,
    objectiveStar: disc ? input.JgammaStar! : input.Jstar,
    objectiveName: disc ? 'J_γ' : 'J',
    iterationsDone,
    fmt: makeFmt(input.rewardRange),
  };
  // every sequence paying the same: every policy is optimal and J cannot move, so no claim can show
  // or fail (the claims judge J_γ instead when it is the objective: its payoffs may still differ)
  const flat = `${NOT_TESTABLE}every sequence pays the same mean return, so every policy is optimal and J cannot rise or fall.`;
  const c1 = input.flatReturns ? claim(1, 'not testable', flat, [], { gamma: input.gamma, objective: 'J' }) : claim1(ctx);
  if (input.flatReturns && !disc) {
    const parts: ClaimPart[] = (['a', 'b', 'c'] as const).map((part) => ({ part, verdict: 'not testable', reason: flat }));
    return [c1, ...([2, 3, 4, 5] as const).map((n) => ({ ...claim(n, 'not testable', flat, []), ...(n === 4 ? { parts } : {}) }))];
  }
  // J_γ is what claims 2–5 judge; runs that did not record it cannot be judged
  const missing = disc && input.runs.some((runs) => runs.some((r) => !r.Jgamma));
  if (missing) {
    const reason = `${NOT_TESTABLE}γ = ${input.gamma} with per-turn rewards, so the learners maximize the discounted return J_γ, and these runs did not record it.`;
    const parts: ClaimPart[] = (['a', 'b', 'c'] as const).map((part) => ({ part, verdict: 'not testable', reason }));
    return [c1, ...([2, 3, 4, 5] as const).map((n) => ({ ...claim(n, 'not testable', reason, []), ...(n === 4 ? { parts } : {}) }))];
  }
  return [c1, claim2(ctx, (a, f) => twinsOf(ctx, a, f)), claim3(ctx), claim4(ctx), claim5(ctx)];
}

/** One run as the claims read it, its values up to iteration `upTo` (the stored probabilities and KL are read only up to there). */
export function claimsRunOf(s: RunSeries, upTo = Infinity): ClaimsRun {
  const cut = (a: Float64Array) => (Number.isFinite(upTo) ? a.subarray(0, Math.min(upTo, a.length - 1) + 1) : a);
  return {
    seedIndex: s.seedIndex,
    J: cut(s.J),
    diverged: s.diverged !== null && s.diverged <= upTo ? s.diverged : null,
    ...(s.Jgamma ? { Jgamma: cut(s.Jgamma) } : {}),
    optimalTokenProb: s.optimalTokenProb,
    kl: s.kl,
    every: s.every,
  };
}

/**
 * The ClaimsInput of an experiment and its RunSeries, truncated at iteration `upTo` (default: all
 * that is there; iterations not reached yet are NaN and end a run's values). `jIsEstimate`
 * defaults to needsMonteCarlo(exp.env), the only case where the explorer estimates J.
 */
export function claimsInputOf(exp: Experiment, Jstar: number, series: readonly RunSeries[], opts: { jIsEstimate?: boolean; upTo?: number } = {}): ClaimsInput {
  const upTo = opts.upTo === undefined ? Infinity : Math.max(0, Math.floor(opts.upTo));
  return {
    runs: exp.algorithms.map((_, ai) =>
      series
        .filter((s) => s.algoIndex === ai)
        .sort((x, y) => x.seedIndex - y.seedIndex)
        .map((s) => claimsRunOf(s, upTo)),
    ),
    ...experimentFacts(exp, Jstar, opts.jIsEstimate ?? needsMonteCarlo(exp.env)),
  };
}

/** Everything of ClaimsInput but the runs: what the verdicts read of the experiment itself. */
export function experimentFacts(exp: Experiment, Jstar: number, jIsEstimate: boolean): Omit<ClaimsInput, 'runs'> {
  const shareContexts = exp.policy.kind === 'tabular' && exp.policy.shareContexts === true;
  return {
    algorithms: exp.algorithms,
    mode: exp.mode,
    jIsEstimate,
    gamma: exp.env.gamma,
    contexts: exp.env.contexts,
    contextsPerBatch: exp.env.contextsPerBatch,
    iterations: exp.iterations,
    Jstar,
    JgammaStar: usesDiscountedObjective(exp.env) ? discountedOptimum(exp.env, shareContexts) : null,
    rewardRange: returnRange(exp.env),
    flatReturns: flatReturns(exp.env),
    optimizer: { kind: exp.optimizer.kind, lr: exp.optimizer.lr },
    policy: { kind: exp.policy.kind, shareContexts },
    changes: exp.changes,
  };
}
