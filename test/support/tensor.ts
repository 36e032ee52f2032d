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
