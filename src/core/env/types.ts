/** Reward noise of one context (docs/math.md "Environments: multi-turn bandits"). */
export type Noise = { kind: 'none' } | { kind: 'gaussian'; sigma: number } | { kind: 'bernoulli' };

/** A fully resolved multi-turn bandit: every table filled in, every size checked. */
export interface Env {
  turns: number; // T
  vocab: number; // V
  tokensPerTurn: number; // L
  contexts: number; // number of prompts x, drawn uniformly
  contextsPerBatch: number; // B
  /** rewards[x][s]: mean reward of token sequence s (lexicographic, first token most significant). */
  rewards: Float64Array[];
  /**
   * Per-turn rewards (docs/math.md "Environments: multi-turn bandits"), or null when there are none (or all are zero):
   * turnRewards[x][t][q] is the mean reward paid at the end of turn t + 1 (t < T − 1) after the
   * (t + 1)-turn prefix q (lexicographic, V^((t+1)·L) prefixes). Noise applies to the terminal reward only.
   */
  turnRewards: Float64Array[][] | null;
  /**
   * returns[x][s]: the undiscounted total mean reward of sequence s (terminal plus every turn's),
   * what J and J* are computed on. The same arrays as `rewards` when turnRewards is null.
   */
  returns: Float64Array[];
  noise: Noise[]; // one per context
  gamma: number;
}

export function noiseVariance(noise: Noise, meanReward: number): number {
  switch (noise.kind) {
    case 'none':
      return 0;
    case 'gaussian':
      return noise.sigma * noise.sigma;
    case 'bernoulli':
      return meanReward * (1 - meanReward);
  }
}
