// The probability ratios of one optimizer step, computed once per parameter instead of once per
// token. Within a step θ and logZ are fixed, and log π_old of a token is the same number wherever
// the token (node n, token a) occurs: every executor fills it as θ_old[n·V + a] − logZOld[n]
// (host/rollouts.ts, sampleRollouts and weighEnumeration). So the ratio exp(θ[g] − logZ[n] −
// log π_old) of a token depends on g = n·V + a alone, and so does a turn's product of ratios, keyed
// by its last token: a node fixes every token before it in its context's tree (docs/math.md
// "One iteration"). Rollouts share prefixes (exact mode enumerates V^T sequences over V^t nodes
// at turn t), so most of these exps are reads of a number already computed, the same number.

/** The cache's fields in Scratch (scratch.ts). */
export interface RatioCache {
  ratioOf: Float64Array;
  ratioAt: Int32Array;
  ratioStamp: number;
}

/**
 * A fresh stamp for a step: every entry computed under an earlier stamp is stale. Wraps (clearing
 * the stamps) before the Int32 runs out.
 */
export function nextRatioStamp(c: RatioCache): number {
  if (c.ratioStamp >= 0x7fffffff) {
    c.ratioAt.fill(0);
    c.ratioStamp = 0;
  }
  return ++c.ratioStamp;
}
