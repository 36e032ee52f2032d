import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { CpuShard } from '../src/exec/cpu/shard';

// A CPU shard whose θ is set from outside (a WebGPU run the CPU executor takes over after a lost
// device: src/worker/webgpu-session.ts) goes on exactly as a shard that reached that θ itself,
// once thetaSet() has recomputed the tables it keeps from each run's last evaluation.

describe('CpuShard.thetaSet', () => {
  for (const mode of ['exact', 'sampled'] as const)
    it(`a shard given another run's θ at iteration 3 continues as that run did (${mode} mode, SGD)`, () => {
      const exp = () => resolveConfig({ version: 1, env: { preset: 'lock' }, mode, iterations: 6, seeds: 2, optimizer: { kind: 'sgd', lr: 0.3 }, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] });
      const a = new CpuShard(exp(), allRuns(exp()));
      for (let k = 0; k < 3; k++) a.step();
      const b = new CpuShard(exp(), allRuns(exp()));
      b.runs.forEach((run, r) => {
        const from = a.runs[r]!;
        run.theta.set(from.theta);
        // sampled mode: the random streams where the other run's are (their fields are plain properties)
        for (const k of ['sampleRng', 'shuffleRng', 'orderRng'] as const) Object.assign(run[k], from[k]);
      });
      b.iteration = 3;
      b.thetaSet();
      a.step();
      b.step();
      a.series.forEach((s, r) => expect([r, b.series[r]!.J[4]]).toEqual([r, s.J[4]]));
    });
});
