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

/**
 * Every token ratio at the nodes list[from..to), for batches that visit every token of those
 * nodes (exact mode), where testing a stamp per token costs more than it saves: what the lazy
 * fill computes per token (log π_old = θ_old − logZOld, the subtraction the batch's logpOld was
 * filled by). A node whose ratios were computed in this iteration and that no step has moved
 * since (ratiosAt, cleared where logZAt is) keeps them: θ[n], logZ[n] and π_old are the same
 * numbers, so the ratios are too. logZ must be current at every node (refreshStaleLogZ).
 */
export function refreshRatios(
  theta: Float64Array,
  V: number,
  list: Int32Array,
  from: number,
  to: number,
  sc: RatioCache & { logZ: Float64Array; thetaOld: Float64Array; logZOld: Float64Array; ratiosAt: Int32Array; iterationStamp: number },
): void {
  const { ratioOf, ratiosAt, logZ, thetaOld, logZOld, iterationStamp: now } = sc;
  for (let j = from; j < to; j++) {
    const n = list[j];
    if (ratiosAt[n] === now) continue;
    ratiosAt[n] = now;
    const lz = logZ[n];
    const lzOld = logZOld[n];
    for (let g = n * V; g < n * V + V; g++) {
      const d = theta[g] - lz - (thetaOld[g] - lzOld);
      ratioOf[g] = d === 0 ? 1 : Math.exp(d); // as clippedStep (rules.ts): exp(±0) is exactly 1
    }
  }
}
