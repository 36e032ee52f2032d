import { describe, expect, it, vi } from 'vitest';
import { resolveConfig, type Experiment } from '../src/core/config/resolve';
import { allRuns, partitionRuns } from '../src/core/run/partition';
import { makeRunSeries, storageStride } from '../src/core/run/series';
import { CpuShard } from '../src/exec/cpu/shard';
import { directSeries } from './support/engine';
import { makeCpuSteppable } from '../src/worker/cpu-session';
import { Session, type Connect } from '../src/worker/session-client';
import { sessionHost, type MakeSteppable } from '../src/worker/session-host';
import { packBlock, unpackBlock } from '../src/worker/series-block';
import type { Live } from '../src/ui/live';

// The interactive session (page ↔ workers) with the workers' hosts in this thread: every
// message is cloned and delivered on a later task, as between a page and its Web Workers.

const later = (f: () => void) => setTimeout(f, 0);

function inThread(make: MakeSteppable): Connect {
  return (onEvent) => {
    const handle = sessionHost((e) => later(() => onEvent(structuredClone(e))), make);
    return { post: (cmd) => later(() => handle(structuredClone(cmd))), close() {} };
  };
}

const CONFIG = {
  version: 1,
  env: { preset: 'lock' },
  mode: 'sampled',
  iterations: 12,
  seeds: 3,
  algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'seeupo-forward' }, { id: 'reinforce' }],
};

function open(config: unknown, parts: number) {
  const exp = resolveConfig(config);
  const live: Live = { runs: [], iteration: 0, changes: [], startConfig: {} };
  for (let a = 0; a < exp.algorithms.length; a++) for (let s = 0; s < exp.seeds; s++) live.runs.push(makeRunSeries(exp, a, s, storageStride(exp.iterations)));
  let finished = false;
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const session = new Session(exp, config, live, partitionRuns(allRuns(exp), parts), inThread(makeCpuSteppable), {
    ready: () => ready(),
    data: () => undefined,
    finished: () => (finished = true),
    error: (m) => {
      throw new Error(m);
    },
  });
  return { exp, live, session, isReady, done: () => finished };
}

const direct = directSeries;

describe('interactive session', () => {
  it('streams every metric of every run, equal to a direct run, across two workers', async () => {
    const { exp, live, session, isReady, done } = open(CONFIG, 2);
    await isReady;
    await session.runTo(null);
    expect(done()).toBe(true);
    const ref = direct(resolveConfig(CONFIG));
    for (const s of ref) {
      const got = live.runs[s.algoIndex * exp.seeds + s.seedIndex];
      expect(Array.from(got.J)).toEqual(Array.from(s.J));
      expect(Array.from(got.kl)).toEqual(Array.from(s.kl));
      expect(Array.from(got.optimalTokenProb[2])).toEqual(Array.from(s.optimalTokenProb[2]));
    }
  });

  it('runs exactly to an iteration, and align() lines paused workers up', async () => {
    const { exp, live, session, isReady } = open(CONFIG, 3);
    await isReady;
    expect(await session.runTo(5)).toBe(5);
    for (const r of live.runs) {
      expect(Number.isFinite(r.J[5])).toBe(true);
      expect(Number.isNaN(r.J[6])).toBe(true);
    }
    expect(await session.align()).toBe(5);
    expect(await session.runTo(6)).toBe(6);
    expect(live.runs.every((r) => Number.isFinite(r.J[6]) && Number.isNaN(r.J[7]))).toBe(true);
    void exp;
  });

  it('pauses a run to the end part-way and resumes it to the same numbers', async () => {
    const config = { ...CONFIG, iterations: 5000 };
    const { exp, live, session, isReady } = open(config, 2);
    await isReady;
    const toEnd = session.runTo(null);
    await vi.waitFor(() => expect(live.runs.some((r) => Number.isFinite(r.J[1]))).toBe(true)); // part-way: an iteration has streamed
    const m = await session.align();
    await toEnd;
    expect(m).toBeGreaterThan(0);
    expect(m).toBeLessThan(5000);
    expect(session.iteration).toBe(m);
    await session.runTo(null);
    const ref = direct(resolveConfig(config));
    for (const s of ref) expect(Array.from(live.runs[s.algoIndex * exp.seeds + s.seedIndex].J)).toEqual(Array.from(s.J));
  });

  it('performs an iteration turn by turn: reverse order updates turns 3, 2, 1; the last turn lands on J[k+1]', async () => {
    const { exp, live, session, isReady } = open(CONFIG, 2);
    await isReady;
    await session.runTo(2);
    const { iteration, records } = await session.turns();
    expect(iteration).toBe(2);
    expect(session.iteration).toBe(3);
    for (let seed = 0; seed < exp.seeds; seed++) {
      const at = (a: number) => records[a * exp.seeds + seed];
      expect(at(0).turns).toEqual([-1]); // GRPO: every turn at once
      expect(at(1).turns).toEqual([2, 1, 0]); // SeeUPO: reverse
      expect(at(2).turns).toEqual([0, 1, 2]); // forward
      expect(at(3).turns).toEqual([-1]);
      for (const a of [0, 1, 2, 3]) {
        const rec = at(a);
        const run = live.runs[a * exp.seeds + seed];
        expect(rec.J[rec.J.length - 1]).toBeCloseTo(run.J[3], 12);
        expect(rec.optimalProb[rec.J.length - 1][0]).toBeCloseTo(run.optimalTokenProb[0][3], 12);
      }
      // after SeeUPO's first turn step only the last turn's parameters moved
      const p0 = live.runs[exp.seeds + seed].optimalTokenProb;
      expect(at(1).optimalProb[0][0]).toBeCloseTo(p0[0][2], 12);
    }
    // the run goes on from there exactly as if it had not been stepped turn by turn
    await session.runTo(null);
    const ref = direct(resolveConfig(CONFIG));
    for (const s of ref) expect(Array.from(live.runs[s.algoIndex * exp.seeds + s.seedIndex].J)).toEqual(Array.from(s.J));
  });

  it('applies a hot learning rate and clip at one iteration in every worker', async () => {
    const { exp, live, session, isReady } = open(CONFIG, 2);
    await isReady;
    await session.runTo(4);
    const at = await session.align();
    session.hot(at, { lr: 0.05, clips: [0.05, null, null, null] });
    await session.runTo(null);
    const ref = direct(resolveConfig(CONFIG), {
      at: 4,
      apply: (e) => {
        e.optimizer.lr = 0.05;
        e.algorithms[0].clip = 0.05;
      },
    });
    const unchanged = direct(resolveConfig(CONFIG));
    for (const s of ref) expect(Array.from(live.runs[s.algoIndex * exp.seeds + s.seedIndex].J)).toEqual(Array.from(s.J));
    expect(Array.from(live.runs[0].J.subarray(0, 5))).toEqual(Array.from(unchanged[0].J.subarray(0, 5)));
    expect(live.runs[0].J[8]).not.toBe(unchanged[0].J[8]);
  });
});

describe('series blocks', () => {
  it('round-trip every metric of a range of iterations', () => {
    const exp = resolveConfig(CONFIG);
    const shard = new CpuShard(exp, allRuns(exp).slice(0, 2));
    for (let k = 0; k < 4; k++) shard.step();
    const copies = shard.series.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex));
    unpackBlock(packBlock(shard.series, -1, 1, 3), copies, -1, 1, 3);
    unpackBlock(packBlock(shard.series, 1, 4, 3), copies, 1, 4, 3);
    copies.forEach((c, r) => {
      expect(Array.from(c.J.subarray(0, 5))).toEqual(Array.from(shard.series[r].J.subarray(0, 5)));
      expect(Array.from(c.gradNorm.subarray(0, 4))).toEqual(Array.from(shard.series[r].gradNorm.subarray(0, 4)));
      expect(Array.from(c.optimalTokenProb[1].subarray(0, 5))).toEqual(Array.from(shard.series[r].optimalTokenProb[1].subarray(0, 5)));
    });
    expect(() => unpackBlock(new Float64Array(3), copies, 1, 4, 3)).toThrow(/data block of 3 values/);
  });
});
