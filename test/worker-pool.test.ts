import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns, partitionRuns } from '../src/core/run/partition';
import { makeRunSeries, storageStride } from '../src/core/run/series';
import { CpuShard } from '../src/exec/cpu/shard';
import { makeCpuSteppable } from '../src/worker/cpu-session';
import { Session } from '../src/worker/session-client';
import { serveSessions } from '../src/worker/serve';
import type { SessionCommand, SessionEvent } from '../src/worker/session-protocol';
import { WorkerPool } from '../src/worker/worker-pool';
import type { Live } from '../src/ui/live';

// Workers kept between sessions (worker-pool.ts, serve.ts): a second experiment opened in the
// worker of the first — even while the first is still computing — gets exactly its own numbers,
// and nothing the first session had on the way reaches it.

const later = (f: () => void) => setTimeout(f, 0);

/** A Web Worker stand-in running serve.ts's sessions in this thread; messages are cloned and arrive on a later task. */
class FakeWorker {
  onmessage: ((e: { data: SessionEvent }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  terminated = false;
  readonly received: SessionCommand['type'][] = [];
  private readonly handle = serveSessions((e) => later(() => !this.terminated && this.onmessage?.({ data: structuredClone(e) })), makeCpuSteppable);
  postMessage(cmd: SessionCommand) {
    this.received.push(cmd.type);
    later(() => !this.terminated && this.handle(structuredClone(cmd)));
  }
  terminate() {
    this.terminated = true;
  }
}

const base = { version: 1, env: { preset: 'lock' }, mode: 'sampled', seeds: 2, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] };

function open(pool: WorkerPool, config: unknown) {
  const exp = resolveConfig(config);
  const live: Live = { runs: [], iteration: 0, changes: [], startConfig: {} };
  for (let a = 0; a < exp.algorithms.length; a++) for (let s = 0; s < exp.seeds; s++) live.runs.push(makeRunSeries(exp, a, s, storageStride(exp.iterations)));
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const errors: string[] = [];
  const session = new Session(exp, config, live, partitionRuns(allRuns(exp), 1), (onEvent) => pool.connect(onEvent), {
    ready: () => ready(),
    data: () => undefined,
    finished: () => undefined,
    error: (m) => errors.push(m),
  });
  return { exp, live, session, isReady, errors };
}

function direct(config: unknown) {
  const shard = new CpuShard(resolveConfig(config), allRuns(resolveConfig(config)));
  while (!shard.done) shard.step();
  return shard.series;
}

describe('worker pool', () => {
  it('opens the next session in the same worker, while the first still computes, with only its own numbers', async () => {
    const workers: FakeWorker[] = [];
    const pool = new WorkerPool(() => (workers.push(new FakeWorker()), workers.at(-1) as unknown as Worker), 'test worker', () => 1);
    const first = open(pool, { ...base, iterations: 4000 });
    await first.isReady;
    void first.session.runTo(null);
    await new Promise((r) => setTimeout(r, 20)); // first is part-way
    first.session.close();
    const firstAtClose = first.session.iteration;
    const secondConfig = { ...base, iterations: 30, optimizer: { lr: 0.5 } };
    const second = open(pool, secondConfig);
    await second.isReady;
    await second.session.runTo(null);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.terminated).toBe(false);
    expect(workers[0]!.received.filter((t) => t === 'init' || t === 'close')).toEqual(['init', 'close', 'init']);
    expect(second.errors).toEqual([]);
    const ref = direct(secondConfig);
    ref.forEach((s, i) => {
      expect(Array.from(second.live.runs[i]!.J)).toEqual(Array.from(s.J));
      expect(Array.from(second.live.runs[i]!.kl)).toEqual(Array.from(s.kl));
    });
    // the first session heard nothing after its close
    expect(first.session.iteration).toBe(firstAtClose);
    expect(firstAtClose).toBeLessThan(4000);
  });

  const exercise = () => {
    const config = { ...base, mode: 'exact', iterations: 3 };
    return [{ type: 'init', config, specs: allRuns(resolveConfig(config)) }, { type: 'go', seq: 1, until: null }] as SessionCommand[];
  };

  it('a worker started ahead runs its exercise to the end, then closes it and waits idle for a session', async () => {
    const workers: FakeWorker[] = [];
    const pool = new WorkerPool(() => (workers.push(new FakeWorker()), workers.at(-1) as unknown as Worker), 'test worker', () => 1, exercise);
    pool.warm(1);
    expect(pool.idleCount).toBe(1);
    await vi.waitFor(() => expect(workers[0]!.received).toEqual(['init', 'go', 'close']));
    const config = { ...base, iterations: 20 };
    const s = open(pool, config);
    await s.isReady;
    await s.session.runTo(null);
    expect(workers).toHaveLength(1);
    expect(s.errors).toEqual([]);
    direct(config).forEach((ref, i) => expect(Array.from(s.live.runs[i]!.J)).toEqual(Array.from(ref.J)));
  });

  it('a session that takes a worker during its exercise closes the exercise first and gets only its own numbers', async () => {
    const workers: FakeWorker[] = [];
    const pool = new WorkerPool(() => (workers.push(new FakeWorker()), workers.at(-1) as unknown as Worker), 'test worker', () => 1, () => exercise().map((c) => (c.type === 'init' ? { ...c, config: { ...(c.config as object), iterations: 4000 } } : c)));
    pool.warm(1);
    await new Promise((r) => setTimeout(r, 20)); // the exercise is part-way
    const config = { ...base, iterations: 20 };
    const s = open(pool, config);
    await s.isReady;
    await s.session.runTo(null);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.received.filter((t) => t === 'init' || t === 'close')).toEqual(['init', 'close', 'init']);
    expect(s.errors).toEqual([]);
    direct(config).forEach((ref, i) => expect(Array.from(s.live.runs[i]!.J)).toEqual(Array.from(ref.J)));
  });

  it('keeps at most `keep` idle workers, and never hands out one that failed', async () => {
    const workers: FakeWorker[] = [];
    const pool = new WorkerPool(() => (workers.push(new FakeWorker()), workers.at(-1) as unknown as Worker), 'test worker', () => 1);
    const a = pool.connect(() => undefined);
    const b = pool.connect(() => undefined);
    expect(workers).toHaveLength(2);
    a.close();
    b.close();
    expect(pool.idleCount).toBe(1);
    expect(workers.filter((w) => w.terminated)).toHaveLength(1);
    const errors: string[] = [];
    const c = pool.connect((e) => e.type === 'error' && errors.push(e.message));
    expect(workers).toHaveLength(2); // the idle one
    const kept = workers.find((w) => !w.terminated)!;
    kept.onerror?.({ preventDefault() {}, message: 'boom' });
    expect(errors).toEqual(['test worker failed: boom']);
    c.close();
    expect(kept.terminated).toBe(true);
    expect(pool.idleCount).toBe(0);
    pool.connect(() => undefined);
    expect(workers).toHaveLength(3);
  });
});
