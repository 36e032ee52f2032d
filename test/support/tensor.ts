import { resolveConfig, type Experiment } from '../../src/core/config/resolve';
import { allRuns } from '../../src/core/run/partition';
import type { ExperimentResult } from '../../src/core/run/result';
import { inThisThread, runOnCpu } from '../../src/exec/cpu/run-experiment';
import { nodeBackend } from '../../src/exec/tensor/register-node';
import { runOnTensor } from '../../src/exec/tensor/run-experiment';
import { TensorShard, type ShardOverrides } from '../../src/exec/tensor/shard';

export type NodeBackend = 'cpu' | 'wasm';

export async function useBackend(name: NodeBackend): Promise<void> {
  await nodeBackend(name);
}

export function runCpu(config: unknown): Promise<ExperimentResult> {
  return runOnCpu(resolveConfig(config), config, { threads: 1, launch: inThisThread });
}

export function runTensor(config: unknown): Promise<ExperimentResult> {
  return runOnTensor(resolveConfig(config), { backend: 'test', reason: 'test' });
}

/** A tensor shard over every run of the config, initialized. */
export async function tensorShard(config: unknown, overrides?: ShardOverrides): Promise<{ shard: TensorShard; exp: Experiment }> {
  const exp = resolveConfig(config);
  const shard = new TensorShard(exp, allRuns(exp), overrides);
  await shard.init();
  return { shard, exp };
}

/** Largest |a − b| over every run's J curve of every algorithm. */
export function maxCurveDiff(a: ExperimentResult, b: ExperimentResult): { diff: number; where: string } {
  let diff = 0;
  let where = '';
  a.algorithms.forEach((alg, i) =>
    alg.runs.forEach((run, s) =>
      run.J.forEach((v, k) => {
        const w = b.algorithms[i].runs[s].J[k];
        const d = v === null || w === null ? (v === w ? 0 : Infinity) : Math.abs(v - w);
        if (d > diff) {
          diff = d;
          where = `${alg.id} seed ${s} iteration ${k}: ${v} vs ${w}`;
        }
      }),
    ),
  );
  return { diff, where };
}

/** Indices of a parameter tensor ordered by how far one step moved them, largest first. */
export function mostMoved(theta0: Float32Array[], theta1: Float32Array[], layer: number): number[] {
  return Array.from(theta0[layer].keys()).sort((a, b) => Math.abs(theta1[layer][b] - theta0[layer][b]) - Math.abs(theta1[layer][a] - theta0[layer][a]));
}

/** Central finite difference of run 0's exact J in parameter (layer, i) around theta0, and the SGD step's own estimate (θ1 − θ0)/lr. */
export async function stepAgainstFd(shard: TensorShard, theta0: Float32Array[], theta1: Float32Array[], layer: number, i: number, lr: number, h = 1e-2) {
  const at = async (sign: number) => {
    const p = theta0.map((t) => Float32Array.from(t));
    p[layer][i] += sign * h;
    shard.writeParameters(p);
    return (await shard.evaluateJ())[0];
  };
  const fd = ((await at(1)) - (await at(-1))) / (2 * h);
  return { fd, step: (theta1[layer][i] - theta0[layer][i]) / lr };
}
