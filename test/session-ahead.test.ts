import { describe, expect, it, vi } from 'vitest';
import { resolveConfig, type Experiment } from '../src/core/config/resolve';
import { allRuns, partitionRuns } from '../src/core/run/partition';
import { makeRunSeries, storageStride } from '../src/core/run/series';
import { directSeries } from './support/engine';
import { makeCpuSteppable } from '../src/worker/cpu-session';
import { Session, type Connect } from '../src/worker/session-client';
import { sessionHost, type MakeSteppable, type Steppable } from '../src/worker/session-host';
import type { Live } from '../src/ui/live';

// A session whose runs compute ahead of what they have recorded, as the WebGPU executor's do (the
// next dispatch in flight while one is read back): the host must settle that work before the runs
// stop (pause, the end of a runTo, a turn step) and before a hot change applies, or the numbers
// would take the change an iteration late. The stand-in computes one CPU iteration ahead whenever
// the step's limit allows it, and refuses a turn step or a hot change with that iteration unsettled.

const later = (f: () => void) => setTimeout(f, 0);

interface Ahead {
  /** Iterations the runs have really computed (recorded or ahead). */
  computed: () => number;
  pending: () => number;
}

function computingAhead(made: Ahead[]): MakeSteppable {
  return async (config, specs) => {
    const inner = await makeCpuSteppable(config, specs);
    let pending = 0;
    made.push({ computed: () => inner.iteration, pending: () => pending });
    const s: Steppable = {
      get series() {
        return inner.series;
      },
      get iteration() {
        return inner.iteration - pending;
      },
      total: inner.total,
      turns: inner.turns,
      Jstar: inner.Jstar,
      backend: inner.backend,
      async step(turns, limit = 1) {
        if (turns) {
          if (pending) throw new Error('a turn step with an iteration in flight');
          return inner.step(true);
        }
        if (pending) pending = 0; // the iteration in flight, now recorded
        else await inner.step(false);
        if (limit > 1 && inner.iteration < inner.total) {
          await inner.step(false); // the next one, in flight
          pending = 1;
        }
        return null;
      },
      async settle() {
        pending = 0;
      },
      applyHot(v) {
        if (pending) throw new Error('a hot change with an iteration in flight');
        inner.applyHot(v);
      },
      dispose: () => inner.dispose(),
    };
    return s;
  };
}

function inThread(make: MakeSteppable): Connect {
  return (onEvent) => {
    const handle = sessionHost((e) => later(() => onEvent(structuredClone(e))), make);
    return { post: (cmd) => later(() => handle(structuredClone(cmd))), close() {} };
  };
}

const CONFIG = { version: 1, env: { preset: 'lock' }, mode: 'sampled', iterations: 12, seeds: 3, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'ppo-grae' }] };

function open(config: unknown, parts: number) {
  const exp = resolveConfig(config);
  const live: Live = { runs: [], iteration: 0, changes: [], startConfig: {} };
  for (let a = 0; a < exp.algorithms.length; a++) for (let s = 0; s < exp.seeds; s++) live.runs.push(makeRunSeries(exp, a, s, storageStride(exp.iterations)));
  const made: Ahead[] = [];
  const errors: string[] = [];
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const session = new Session(exp, config, live, partitionRuns(allRuns(exp), parts), inThread(computingAhead(made)), {
    ready: () => ready(),
    data: () => undefined,
    finished: () => undefined,
    error: (m) => void errors.push(m),
  });
  return { exp, live, session, isReady, made, errors };
}

const direct = directSeries;

describe('a session whose runs compute ahead', () => {
  it('runs exactly to an iteration: nothing computed past it, nothing left in flight', async () => {
    const { session, isReady, made, errors } = open(CONFIG, 2);
    await isReady;
    expect(await session.runTo(5)).toBe(5);
    for (const m of made) expect([m.computed(), m.pending()]).toEqual([5, 0]);
    expect(errors).toEqual([]);
  });

  it('paused part-way, it settles first: a hot change lands at the iteration the pause reports, as in a direct run', async () => {
    const config = { ...CONFIG, iterations: 3000 };
    const { exp, live, session, isReady, made, errors } = open(config, 2);
    await isReady;
    const toEnd = session.runTo(null);
    await vi.waitFor(() => expect(live.runs.every((r) => Number.isFinite(r.J[2]))).toBe(true));
    expect(made.some((m) => m.pending() > 0)).toBe(true); // it does compute ahead while running
    const at = await session.align();
    await toEnd;
    expect(at).toBeLessThan(3000);
    for (const m of made) expect([m.computed(), m.pending()]).toEqual([at, 0]);
    session.hot(at, { lr: 0.05, clips: [0.05, null, null] });
    await session.runTo(null);
    const ref = direct(resolveConfig(config), {
      at,
      apply: (e) => {
        e.optimizer.lr = 0.05;
        e.algorithms[0].clip = 0.05;
      },
    });
    for (const s of ref) expect(Array.from(live.runs[s.algoIndex * exp.seeds + s.seedIndex].J)).toEqual(Array.from(s.J));
    expect(errors).toEqual([]);
  });

  it('steps turn by turn after running, then runs on to the numbers of a direct run', async () => {
    const { exp, live, session, isReady, errors } = open(CONFIG, 1);
    await isReady;
    await session.runTo(3);
    const { iteration } = await session.turns();
    expect(iteration).toBe(3);
    await session.runTo(null);
    const ref = direct(resolveConfig(CONFIG));
    for (const s of ref) expect(Array.from(live.runs[s.algoIndex * exp.seeds + s.seedIndex].J)).toEqual(Array.from(s.J));
    expect(errors).toEqual([]);
  });
});
