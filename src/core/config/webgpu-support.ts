import type { Experiment } from './experiment';

// What the WebGPU executor (src/exec/webgpu) runs today: tabular policies in exact or sampled mode,
// with every rule (REINFORCE, PPU token or sequence ratios, sequential in any turn order with M,
// mClip, geomean turn ratios), GRAE/RLOO/GAE advantages (GAE's critic in sampled mode, Q − V in
// exact mode) with any normalization, per-turn rewards, the turn discount and reward noise, SGD
// and Adam, epochs and minibatches, several contexts (all or B per batch), scheduled and live
// learning-rate and clip changes. The shared MLP is refused here, up front, naming the field: the
// config never reaches a kernel that would compute something else.

export interface Unsupported {
  path: string;
  message: string;
}

/** Why the WebGPU executor cannot run `exp`, or null. */
export function webgpuUnsupported(exp: Experiment): Unsupported | null {
  if (exp.policy.kind !== 'tabular') return { path: 'policy.kind', message: `the WebGPU executor runs tabular policies only for now, got "${exp.policy.kind}"; use executor "tensor" or "auto"` };
  return null;
}
