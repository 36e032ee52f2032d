import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns, partitionRuns, runSlot, seedPosition } from '../src/core/run/partition';
import type { ExperimentResult, RunResult } from '../src/core/run/result';
import { makeRunSeries, storageStride } from '../src/core/run/series';
import { CpuShard } from '../src/exec/cpu/shard';
import { csvRowCount, resultsCsv } from '../src/ui/export/csv';
import type { Live } from '../src/ui/live';
import { planExperiment } from '../src/ui/plan';
import { makeCpuSteppable } from '../src/worker/cpu-session';
import { Session, type Connect } from '../src/worker/session-client';
import { sessionHost, type MakeSteppable } from '../src/worker/session-host';
import { runCpu, runTensor, useBackend } from './support/tensor';

// `seedIndices` replays some seeds of an experiment: each with exactly the streams it has in
// the full run (initial parameters from (seed, seed index), sampling, shuffles and orders from
// (seed, seed index, algorithm position)), so its curves are the full run's bit for bit.

const ALGORITHMS = [{ id: 'seeupo-random' }, { id: 'grpo-mb', preset: 'grpo', minibatches: 2 }, { id: 'ppo-gae' }, { id: 'reinforce' }];

function config(mode: 'exact' | 'sampled', seedIndices?: number[]) {
  return {
    version: 1,
    env: { preset: 'two-prompts' },
    policy: { kind: 'tabular', initScale: 0.5 },
    mode,
    iterations: 10,
    seeds: 5,
    seed: 17,
    groupSize: 4,
    optimizer: { kind: 'adam', lr: 0.1 },
    algorithms: ALGORITHMS,
    ...(seedIndices ? { seedIndices } : {}),
  };
}

const everything = (r: RunResult) => {
  const { wallMs: _wall, ...rest } = r; // wall time is not reproducible
  return rest;
};

function expectSubsetOf(sub: ExperimentResult, full: ExperimentResult, seeds: number[]): void {
  expect(sub.algorithms.map((a) => a.id)).toEqual(full.algorithms.map((a) => a.id));
  sub.algorithms.forEach((a, i) => {
    expect(a.runs.map((r) => r.seed)).toEqual(seeds);
    for (const r of a.runs) {
      const ref = full.algorithms[i].runs.find((x) => x.seed === r.seed)!;
      expect(everything(r), `${a.id} seed ${r.seed}`).toEqual(everything(ref));
    }
  });
}

describe('seedIndices on the CPU executor', () => {
  for (const mode of ['sampled', 'exact'] as const) {
    it(`${mode}, initScale 0.5: seedIndices [3] gives exactly seed 3 of the full run`, async () => {
      const full = await runCpu(config(mode));
      const sub = await runCpu(config(mode, [3]));
      expectSubsetOf(sub, full, [3]);
      // the seeds differ from each other (initial parameters and, sampled, the rollouts)
      expect(full.algorithms[0].runs[3].J).not.toEqual(full.algorithms[0].runs[0].J);
    });
  }

  it('several indices, given in any order, run in increasing order with their own streams', async () => {
    const full = await runCpu(config('sampled'));
    const sub = await runCpu(config('sampled', [4, 1]));
    expectSubsetOf(sub, full, [1, 4]);
    expect(sub.algorithms[0].summary.itersTo95).toHaveLength(2);
  });

  it('allRuns lists only those seeds; runSlot indexes them by position', () => {
    const exp = resolveConfig(config('sampled', [4, 1]));
    expect(allRuns(exp)).toEqual(ALGORITHMS.flatMap((_, a) => [1, 4].map((s) => ({ algoIndex: a, seedIndex: s }))));
    expect(seedPosition(exp, 4)).toBe(1);
    expect(seedPosition(exp, 2)).toBe(-1);
    expect(allRuns(exp).map((r) => runSlot(exp, r.algoIndex, r.seedIndex))).toEqual(allRuns(exp).map((_, i) => i));
    const all = resolveConfig(config('sampled'));
    expect(runSlot(all, 2, 3)).toBe(2 * 5 + 3);
  });
});

for (const backend of ['cpu', 'wasm'] as const) {
  describe(`seedIndices on the tensor executor (tfjs ${backend})`, () => {
    beforeAll(() => useBackend(backend));
    for (const mode of ['sampled', 'exact'] as const) {
      it(`${mode}: seedIndices [3] gives exactly seed 3 of the full tensor run`, async () => {
        const full = await runTensor(config(mode));
        const sub = await runTensor(config(mode, [3]));
        sub.algorithms.forEach((a, i) => {
          expect(a.runs.map((r) => r.seed)).toEqual([3]);
          expect(a.runs[0].J, a.id).toEqual(full.algorithms[i].runs[3].J);
          expect(a.runs[0].kl, a.id).toEqual(full.algorithms[i].runs[3].kl);
        });
      });
    }
  });
}

describe('seedIndices in a page session and its exports', () => {
  const later = (f: () => void) => setTimeout(f, 0);
  const inThread =
    (make: MakeSteppable): Connect =>
    (onEvent) => {
      const handle = sessionHost((e) => later(() => onEvent(structuredClone(e))), make);
      return { post: (cmd) => later(() => handle(structuredClone(cmd))), close() {} };
    };

  it('streams a subset of seeds into the page runs (listed in allRuns order), equal to a direct run; step one turn indexes them too', async () => {
    const cfg = { ...config('sampled', [1, 3]), iterations: 6 };
    const exp = resolveConfig(cfg);
    const live: Live = { runs: allRuns(exp).map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex, storageStride(exp.iterations))), iteration: 0, changes: [], startConfig: {} };
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const errors: string[] = [];
    const session = new Session(exp, cfg, live, partitionRuns(allRuns(exp), 3), inThread(makeCpuSteppable), {
      ready: () => ready(),
      data: () => undefined,
      finished: () => undefined,
      error: (m) => errors.push(m),
    });
    await isReady;
    await session.runTo(3);
    await session.align();
    const { records } = await session.turns();
    expect(records).toHaveLength(ALGORITHMS.length * 2);
    expect(records.every((r) => r !== undefined && r.turns.length > 0)).toBe(true);
    await session.runTo(null);
    expect(errors).toEqual([]);
    const shard = new CpuShard(resolveConfig(cfg), allRuns(exp));
    while (!shard.done) shard.step();
    shard.series.forEach((s, i) => {
      expect([live.runs[i].algoIndex, live.runs[i].seedIndex]).toEqual([s.algoIndex, s.seedIndex]);
      expect(Array.from(live.runs[i].J)).toEqual(Array.from(s.J));
      expect(Array.from(live.runs[i].Jcontext[1])).toEqual(Array.from(s.Jcontext[1]));
    });
    session.close();
  });

  it('a page that holds runs for other seeds is told so, not fed the wrong runs', async () => {
    const cfg = { ...config('sampled', [3]), iterations: 2 };
    const exp = resolveConfig(cfg);
    // every seed 0..seeds−1, as if seedIndices were ignored
    const live: Live = { runs: [], iteration: 0, changes: [], startConfig: {} };
    for (let a = 0; a < exp.algorithms.length; a++) for (let s = 0; s < exp.seeds; s++) live.runs.push(makeRunSeries(exp, a, s));
    const errors: string[] = [];
    const failed = new Promise<void>((resolve) => {
      new Session(exp, cfg, live, [allRuns(exp)], inThread(makeCpuSteppable), {
        ready: () => undefined,
        data: () => undefined,
        finished: () => undefined,
        error: (m) => {
          errors.push(m);
          resolve();
        },
      });
    });
    await failed;
    expect(errors[0]).toMatch(/no run for algorithm 0, seed index 3/);
  });

  it('the CSV lists only the seeds that ran, under their seed index', () => {
    const cfg = { ...config('exact', [1, 3]), iterations: 3 };
    const plan = planExperiment(cfg, 1);
    const shard = new CpuShard(plan.exp, allRuns(plan.exp));
    while (!shard.done) shard.step();
    const live: Live = { runs: shard.series, iteration: 3, changes: [], startConfig: {} };
    const rows = resultsCsv(plan, live).trim().split('\n').slice(1);
    expect(rows).toHaveLength(csvRowCount(plan, 3));
    expect(new Set(rows.map((r) => r.split(',')[1]))).toEqual(new Set(['1', '3']));
    const j = rows.find((r) => r.startsWith('reinforce,3,2,J,'))!;
    expect(Number(j.split(',')[4])).toBe(shard.series.find((s) => s.algoIndex === 3 && s.seedIndex === 3)!.J[2]);
  });
});
