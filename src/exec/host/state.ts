import type { AlgorithmRecord } from '../../core/algo/records';
import { Purpose, Rng, streamKey } from '../../core/rng';
import { makeOptimizerState, type OptimizerState } from './optimizer';
import type { Problem } from './problem';

/** One (algorithm, seed) run: its parameters, optimizer, critic and random streams. */
export interface RunState {
  algo: AlgorithmRecord;
  algoIndex: number;
  seedIndex: number;
  theta: Float64Array;
  opt: OptimizerState;
  critic: Float64Array | null; // GAE: V_φ(x, node) per context node, zero-initialized
  sampleRng: Rng;
  shuffleRng: Rng;
  orderRng: Rng;
  /** Iteration at which a NaN/Inf appeared, or null. */
  diverged: number | null;
}

/** Initial logits from (seed, seed index) only, so every algorithm of a seed starts equal (§6). */
export function initialTheta(pb: Problem, seedIndex: number, out: Float64Array): Float64Array {
  const scale = pb.exp.policy.initScale;
  if (scale === 0) return out.fill(0);
  const rng = new Rng(streamKey(pb.exp.seed, seedIndex, Purpose.init));
  for (let i = 0; i < out.length; i++) out[i] = scale * rng.normal();
  return out;
}

export function makeRun(pb: Problem, algo: AlgorithmRecord, algoIndex: number, seedIndex: number, theta: Float64Array): RunState {
  const key = (p: number) => streamKey(pb.exp.seed, seedIndex, algoIndex, p);
  initialTheta(pb, seedIndex, theta);
  return {
    algo,
    algoIndex,
    seedIndex,
    theta,
    opt: makeOptimizerState(pb, pb.exp.optimizer.kind === 'adam'),
    critic: algo.advantage === 'gae' && !pb.exact ? new Float64Array(pb.contextNodes) : null,
    sampleRng: new Rng(key(Purpose.sample)),
    shuffleRng: new Rng(key(Purpose.shuffle)),
    orderRng: new Rng(key(Purpose.order)),
    diverged: null,
  };
}
