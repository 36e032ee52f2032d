/** Reward noise of one context (algorithms.md §1). */
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
