// The claims verdict engine (algorithms.md §8, rules version 1): five verdicts on an experiment's
// runs, each with its reason and evidence. The only implementation of these rules: the result
// JSON, the CLI and the page's captions all call computeClaims.

import { needsMonteCarlo, type Experiment } from '../config/resolve';
import { returnRange } from '../env/returns';
import type { RunSeries } from '../run/series';
import { claim1, claim2, claim3, type Ctx } from './rules';
import { claim4, claim5 } from './rules-twins';
import { allTerms } from './terms';
import { makeFmt } from './text';
import type { Claim, ClaimsInput } from './types';

export { CLAIMS_RULES } from './types';
export type { AlgorithmEvidence, Claim, ClaimPart, ClaimsInput, ClaimsRun, Verdict } from './types';
export { isStalled, recentChange, stallTolerance, stallWindow, AT_JSTAR, type SeedTerms, type AlgorithmTerms } from './terms';
export { allTerms } from './terms';
export { differingFields, isCF, isGR, isPG, isREV, isTwin } from './groups';
export { CLAIM_TITLES, jDecimals } from './text';

/** The five verdicts of §8, in order 1..5. */
export function computeClaims(input: ClaimsInput): Claim[] {
  const ctx: Ctx = { input, terms: allTerms(input), fmt: makeFmt(input.rewardRange) };
  return [claim1(ctx), claim2(ctx), claim3(ctx), claim4(ctx), claim5(ctx)];
}

/**
 * The ClaimsInput of an experiment and its RunSeries, truncated at iteration `upTo` (default: all
 * that is there; iterations not reached yet are NaN and end a run's values). `jIsEstimate`
 * defaults to needsMonteCarlo(exp.env), the only case where the explorer estimates J.
 */
export function claimsInputOf(
  exp: Experiment,
  Jstar: number,
  series: readonly RunSeries[],
  opts: { jIsEstimate?: boolean; upTo?: number } = {},
): ClaimsInput {
  const upTo = opts.upTo === undefined ? Infinity : Math.max(0, Math.floor(opts.upTo));
  return {
    runs: exp.algorithms.map((_, ai) =>
      series
        .filter((s) => s.algoIndex === ai)
        .sort((x, y) => x.seedIndex - y.seedIndex)
        .map((s) => ({
          seedIndex: s.seedIndex,
          J: Number.isFinite(upTo) ? s.J.subarray(0, Math.min(upTo, s.J.length - 1) + 1) : s.J,
          diverged: s.diverged !== null && s.diverged <= upTo ? s.diverged : null,
        })),
    ),
    ...experimentFacts(exp, Jstar, opts.jIsEstimate ?? needsMonteCarlo(exp.env)),
  };
}

/** Everything of ClaimsInput but the runs: what the verdicts read of the experiment itself. */
export function experimentFacts(exp: Experiment, Jstar: number, jIsEstimate: boolean): Omit<ClaimsInput, 'runs'> {
  return {
    algorithms: exp.algorithms,
    mode: exp.mode,
    jIsEstimate,
    gamma: exp.env.gamma,
    contexts: exp.env.contexts,
    iterations: exp.iterations,
    Jstar,
    rewardRange: returnRange(exp.env),
    changes: exp.changes,
  };
}
