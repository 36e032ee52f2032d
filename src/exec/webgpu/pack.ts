import { discountedReturns } from '../../core/env/discounted';
import { evaluatePolicy, softmaxTable } from '../../core/env/exact';
import { noiseVariance } from '../../core/env/types';
import { NOISE_KINDS } from '../../core/options';
import { streamKey } from '../../core/rng';
import type { RunSpec } from '../../core/run/partition';
import { initialMlp, mlpNodeLogits, nodeActiveInputs, type MlpShape } from '../host/mlp';
import type { Problem } from '../host/problem';
import { initialTheta } from '../host/state';
import { kernelLayout, thetaWords, turnTableOffsets, type KernelShape } from './layout';

// What the WebGPU executor's host writes into the kernel's read-only buffers and its initial θ,
// each section at the offset layout.ts gives it.

/**
 * `tables`: the mean return of every sequence, its noise variance, the turn discount, each
 * context's noise (kind code, σ), the terminal mean reward, the per-turn reward tables, and (exact
 * mode with per-turn rewards) every sequence's rewards-to-go and mean rewards by turn.
 */
export function packTables(pb: Problem, s: KernelShape): Float32Array {
  const { tree, env } = pb;
  const { at, total } = kernelLayout(s).tables;
  const out = new Float32Array(total);
  const turnTables = turnTableOffsets(s);
  for (let x = 0; x < env.contexts; x++) {
    const row = x * tree.sequences;
    for (let q = 0; q < tree.sequences; q++) {
      out[at.RET0! + row + q] = env.returns[x]![q]!;
      out[at.NVAR0! + row + q] = noiseVariance(env.noise[x]!, env.rewards[x]![q]!);
      out[at.TERM0! + row + q] = env.rewards[x]![q]!;
    }
    env.turnRewards?.[x]!.forEach((table, t) => out.set(table, at.TT0! + x * turnTables.total + turnTables.offsets[t]!));
    const n = env.noise[x]!;
    out[at.NOISE! + 2 * x] = NOISE_KINDS.indexOf(n.kind);
    out[at.NOISE! + 2 * x + 1] = n.kind === 'gaussian' ? n.sigma : 0;
  }
  out.set(pb.turnDiscount, at.DISC0!);
  if (s.perTurn && pb.enumeration) {
    out.set(pb.enumeration.togo, at.TG0!);
    out.set(pb.enumeration.turnReward, at.TR0!);
  }
  if (s.discounted) discountedReturns(env).forEach((g, x) => out.set(g, at.JG0! + x * tree.sequences));
  return out;
}

/** `itab`: exact mode's enumeration (nodes, tokens), the optimal tokens, the optimal path, (MLP) the nodes' active inputs. */
export function packItab(pb: Problem, s: KernelShape): Uint32Array {
  const { tree, env } = pb;
  const { at, total } = kernelLayout(s).itab;
  const out = new Uint32Array(total);
  if (s.mlp) out.set(nodeActiveInputs(tree, env.contexts), at.I_ACTIVE!);
  if (pb.enumeration) {
    out.set(pb.enumeration.node, at.I_NODE!);
    out.set(pb.enumeration.tok, at.I_TOK!);
  }
  for (let j = 0; j < pb.params; j++) out[at.I_OPT! + j] = pb.opt.optimal[j] ? 1 : 0;
  pb.opt.path.forEach((path, x) => out.set(path, at.I_PATH! + x * tree.N)); // one path per table (shared: one)
  return out;
}

/** Each run's random numbers: keyed by the seed and seed index, and the algorithm's stream position. */
export function packRunInfo(seed: number, specs: readonly RunSpec[]): Uint32Array {
  const out = new Uint32Array(2 * specs.length);
  specs.forEach((sp, r) => {
    out[2 * r] = streamKey(seed, sp.seedIndex);
    out[2 * r + 1] = streamKey(sp.streamIndex ?? sp.algoIndex, 0x57e9);
  });
  return out;
}

/**
 * Every run's initial θ from the host's seeded streams (the CPU executor's logits, the tensor
 * executor's MLP weights), so iteration 0 is the same on every executor; `evaluated(r, value)`
 * gets each run's initial policy evaluated in float64 (J_γ too where it is the objective).
 */
export function initialParameters(pb: Problem, s: KernelShape, specs: readonly RunSpec[], evaluated: (r: number, value: ReturnType<typeof evaluatePolicy>) => void): Float32Array {
  const { tree, env, exp } = pb;
  const lay = kernelLayout(s).theta;
  const TH = thetaWords(s);
  const theta64 = new Float64Array(pb.params);
  const theta = new Float32Array(TH * specs.length);
  const mlp: MlpShape | null = s.mlp ? { layers: s.mlp.layers, activation: s.mlp.activation, bias: true } : null;
  const active = mlp ? nodeActiveInputs(tree, env.contexts) : null;
  const probs = new Float64Array(pb.params);
  const logZ = new Float64Array(pb.nodes);
  const scratch = { reach: new Float64Array(pb.nodes), leafProb: null as Float64Array | null };
  const value = { J: 0, entropy: 0, optimalProb: new Float64Array(tree.T), Jcontext: undefined as Float64Array | undefined };
  specs.forEach((sp, r) => {
    if (mlp) {
      const weights = initialMlp(mlp, exp.seed, sp.seedIndex, exp.policy.initScale);
      let o = r * TH + lay.at.TH_W!; // in initialMlp's order
      for (const w of weights) {
        theta.set(w, o);
        o += w.length;
      }
      mlpNodeLogits(mlp, weights, active!, pb.nodes, theta64);
    } else initialTheta(pb, sp.seedIndex, theta64);
    theta.set(theta64, r * TH + lay.at.TH_LOGITS!);
    softmaxTable(theta64, tree.V, probs, logZ);
    evaluated(r, evaluatePolicy(env, tree, pb.opt, probs, scratch as never, value as never));
  });
  return theta;
}
