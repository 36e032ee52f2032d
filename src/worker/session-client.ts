import type { Experiment } from '../core/config/resolve';
import { runSlot, seedsRun, type RunSpec } from '../core/run/partition';
import type { TurnRecord } from '../core/run/turns';
import type { BackendReport } from '../exec/tensor/backend';
import type { Live } from '../core/run/live';
import type { PolicyTreeView } from '../core/env/policy-tree';
import { unpackBlock } from './series-block';
import type { HotValues, SessionCommand, SessionEvent } from './session-protocol';

/** One worker as the page sees it. */
export interface Endpoint {
  post(cmd: SessionCommand): void;
  close(): void;
}
/** Start a worker whose events go to `onEvent`. */
export type Connect = (onEvent: (e: SessionEvent) => void) => Endpoint;

export interface SessionListener {
  ready(backend: BackendReport | null): void;
  /** What the runs compute on changed mid-run (reported with its reason). */
  backend?(backend: BackendReport): void;
  /** New data arrived; `iteration`: iterations every run has completed. */
  data(iteration: number): void;
  finished(): void;
  error(message: string): void;
  /** A worker sent the policy trees of the watched runs it owns. */
  policy?(trees: PolicyTreeView[]): void;
}

interface Waiter {
  seq: number;
  resolve: (e: SessionEvent) => void;
}

interface Part {
  ep: Endpoint;
  iteration: number;
  done: boolean;
  ready: boolean;
  targets: Live['runs'];
  waiters: Waiter[];
}

/**
 * The page's side of an experiment running in workers (one per part of the runs). Commands
 * go to every worker; pause/runTo/turns resolve once every worker has answered them, so the
 * page can line all runs up on one iteration before a step or a hot change.
 */
export class Session {
  // live.runs lists the runs in allRuns' order (partition.ts): by algorithm, then by the seed's
  // position in exp.seedIndices (every seed, or the subset a config's `seedIndices` replays);
  // runSlot(exp, algorithm, seed index) is a run's index there.
  private readonly parts: Part[];
  private seq = 0;
  private closed = false;
  private readyCount = 0;

  constructor(
    readonly exp: Experiment,
    config: unknown,
    private readonly live: Live,
    parts: RunSpec[][],
    connect: Connect,
    private readonly listener: SessionListener,
  ) {
    this.parts = parts.map((specs) => {
      const part: Part = { ep: null as unknown as Endpoint, iteration: -1, done: false, ready: false, targets: [], waiters: [] };
      part.ep = connect((e) => this.onEvent(part, e));
      part.ep.post({ type: 'init', config, specs });
      return part;
    });
  }

  /** Iterations every run has completed. */
  get iteration(): number {
    return Math.min(...this.parts.map((p) => p.iteration));
  }

  get finished(): boolean {
    return this.parts.every((p) => p.done);
  }

  private onEvent(part: Part, e: SessionEvent): void {
    if (this.closed) return;
    switch (e.type) {
      case 'ready': {
        const missing = e.runs.find(([a, s]) => {
          const t = this.live.runs[runSlot(this.exp, a, s)];
          return !t || t.algoIndex !== a || t.seedIndex !== s;
        });
        if (missing) {
          this.listener.error(`the page holds no run for algorithm ${missing[0]}, seed index ${missing[1]} where the runs of the experiment list it`);
          return;
        }
        part.targets = e.runs.map(([a, s]) => this.live.runs[runSlot(this.exp, a, s)]);
        part.ready = true;
        if (++this.readyCount === this.parts.length) this.listener.ready(e.backend);
        return;
      }
      case 'data':
        if (!part.ready) return; // its runs could not be matched to the page's (reported)
        unpackBlock(e.block, part.targets, e.from, e.to, this.exp.env.turns);
        e.diverged.forEach((d, r) => (part.targets[r].diverged = d));
        part.iteration = e.to;
        this.listener.data(this.iteration);
        return;
      case 'paused':
      case 'done':
      case 'turns':
        if (e.type === 'done') part.done = true;
        part.waiters = part.waiters.filter((w) => {
          if (w.seq > e.seq || (w.seq === e.seq && e.type === 'paused' && this.wantsTurns(w))) return true;
          w.resolve(e);
          return false;
        });
        if (e.type === 'done' && this.finished) this.listener.finished();
        return;
      case 'applied':
      case 'closed':
        return;
      case 'policy':
        this.listener.policy?.(e.trees);
        return;
      case 'backend':
        this.listener.backend?.(e.backend);
        return;
      case 'error':
        this.listener.error(e.message);
        return;
    }
  }

  private turnSeqs = new Set<number>();
  private wantsTurns(w: Waiter): boolean {
    return this.turnSeqs.has(w.seq);
  }

  /** Send a command to every worker; resolves with each worker's answer to it. */
  private command(make: (seq: number) => SessionCommand, turns = false): Promise<SessionEvent[]> {
    const seq = ++this.seq;
    if (turns) this.turnSeqs.add(seq);
    return Promise.all(
      this.parts.map(
        (p) =>
          new Promise<SessionEvent>((resolve) => {
            p.waiters.push({ seq, resolve });
            p.ep.post(make(seq));
          }),
      ),
    ).finally(() => this.turnSeqs.delete(seq));
  }

  /** Run until `until` iterations are done (null: to the end); resolves when every worker stopped. */
  runTo(until: number | null): Promise<number> {
    return this.command((seq) => ({ type: 'go', seq, until })).then(() => this.iteration);
  }

  /** Stop every worker; resolves with the furthest iteration any reached. */
  pause(): Promise<number> {
    return this.command((seq) => ({ type: 'pause', seq })).then((es) => Math.max(...es.map((e) => ('iteration' in e ? e.iteration : 0))));
  }

  /** Pause, then bring every worker to the same iteration; resolves with it. */
  async align(): Promise<number> {
    const m = await this.pause();
    if (this.parts.some((p) => p.iteration !== m)) await this.runTo(m);
    return m;
  }

  /** Perform the next iteration turn by turn (call when aligned); the records by run index (allRuns' order, as live.runs). */
  async turns(): Promise<{ iteration: number; records: TurnRecord[] }> {
    const es = await this.command((seq) => ({ type: 'turns', seq }), true);
    const records: TurnRecord[] = new Array(this.exp.algorithms.length * seedsRun(this.exp));
    let iteration = 0;
    es.forEach((e, i) => {
      if (e.type !== 'turns') return;
      iteration = e.iteration;
      const part = this.parts[i];
      e.records.forEach((rec, r) => {
        const s = part.targets[r];
        records[runSlot(this.exp, s.algoIndex, s.seedIndex)] = rec;
      });
    });
    return { iteration, records };
  }

  /** Apply new values before iteration `at` (every worker must be at or before it). */
  hot(at: number, values: HotValues): void {
    this.parts.forEach((p) => p.ep.post({ type: 'hot', at, values }));
  }

  /** Ask for the policy trees of these runs ([algoIndex, seedIndex]) in `context`; [] stops. */
  watch(runs: [number, number][], context: number): void {
    this.parts.forEach((p) => p.ep.post({ type: 'watch', runs, context }));
  }

  speed(speed: number): void {
    this.parts.forEach((p) => p.ep.post({ type: 'speed', speed }));
  }

  close(): void {
    this.closed = true;
    this.parts.forEach((p) => p.ep.close());
  }
}
