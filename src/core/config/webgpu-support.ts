import type { Experiment } from './experiment';
import { LIMITS } from './schema';
import { sequenceCount } from '../env/tree';

// What the WebGPU executor (src/exec/webgpu) runs: tabular policies and the shared MLP, in exact
// or sampled mode, with every rule (REINFORCE, PPU token or sequence ratios, sequential in any turn
// order with M, mClip, geomean turn ratios), GRAE/RLOO/GAE advantages (GAE's critic in sampled
// mode, Q − V in exact mode) with any normalization, per-turn rewards, the turn discount and reward
// noise, SGD and Adam, epochs and minibatches, several contexts (all or B per batch), one table
// shared across contexts (policy.shareContexts), scheduled and live learning-rate and clip changes;
// it records J_γ where the learners maximize it.
//
// The MLP's kernel keeps the logits of every decision node (what sampling, ratios and the exact J
// read) and one invocation's hidden activations in private memory; it is refused, up front and
// naming the field, where either would not hold: past LIMITS.maxSequences token sequences (the
// tensor executor's Monte-Carlo J) and past WEBGPU_MLP_HIDDEN hidden units in all.

/** Hidden units (all layers together) the WebGPU executor's MLP kernel keeps per invocation. */
export const WEBGPU_MLP_HIDDEN = 256;

export interface Unsupported {
  path: string;
  message: string;
}

/** Why the WebGPU executor cannot run `exp`, or null. */
export function webgpuUnsupported(exp: Experiment): Unsupported | null {
  if (exp.policy.kind !== 'mlp') return null;
  const { env } = exp;
  const sequences = env.contexts * sequenceCount(env);
  if (sequences > LIMITS.maxSequences)
    return { path: 'env', message: `the WebGPU executor runs an MLP policy on at most ${LIMITS.maxSequences.toLocaleString('en-US')} token sequences (it keeps the logits of every node), got ${sequences.toLocaleString('en-US')}; use executor "tensor" or "auto"` };
  const hidden = exp.policy.hidden.reduce((a, b) => a + b, 0);
  if (hidden > WEBGPU_MLP_HIDDEN)
    return { path: 'policy.hidden', message: `the WebGPU executor runs an MLP of at most ${WEBGPU_MLP_HIDDEN} hidden units in all, got ${hidden}; use executor "tensor" or "auto"` };
  return null;
}
