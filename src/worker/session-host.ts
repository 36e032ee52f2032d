import type { RunSpec } from '../core/run/partition';
import type { RunSeries } from '../core/run/series';
import type { TurnRecord } from '../core/run/turns';
import type { BackendReport } from '../exec/tensor/backend';
import type { PolicyTreeView } from '../core/env/policy-tree';
import { packBlock } from './series-block';
import type { HotValues, SessionCommand, SessionEvent } from './session-protocol';

/** The runs a worker owns, advanced one iteration at a time (CPU shard or tensor shards). */
export interface Steppable {
  readonly series: RunSeries[];
  readonly iteration: number;
  readonly total: number;
  readonly turns: number;
  readonly Jstar: number;
  readonly backend: BackendReport | null;
  /**
   * One iteration; with `turns`, what each run did turn by turn. `limit`: the most iterations this
   * call may do (the next pause or hot change is that far); an executor that batches iterations
   * (WebGPU: several per dispatch) may do up to that many, the others do one.
   */
  step(turns: boolean, limit?: number): Promise<TurnRecord[] | null>;
  /**
   * Executors that compute ahead of the iterations they have recorded (WebGPU: the next dispatch
   * in flight while one is read back, never past the step's `limit`): finish and record that work,
   * so the runs stand still where `iteration` says. Called before the runs stop (pause, the end of
   * a runTo, a turn step) and before a hot change applies.
   */
  settle?(): Promise<void>;
  applyHot(values: HotValues): void;
  dispose(): void;
  /** Executors that hold a table the page can draw as a tree (the CPU executor): which runs to draw, and their trees now. */
  watch?(runs: [number, number][], context: number): void;
  trees?(): PolicyTreeView[];
}

export type MakeSteppable = (config: unknown, specs: RunSpec[]) => Promise<Steppable>;
export type Post = (e: SessionEvent) => void;

/** Compute at most this long between looks at the message queue (pause takes effect within it). */
const SLICE_MS = 25;

/** Runs `fn` after the messages already queued, without setTimeout's 4 ms clamp. */
function soon(fn: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(fn, 0);
    return;
  }
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    ch.port1.close();
    fn();
  };
  ch.port2.postMessage(null);
}

/**
 * The worker side of a session: returns the handler of the page's commands. Computation runs
 * in slices of ~25 ms between which commands are read, so Pause lands within a slice.
 */
export function sessionHost(post: Post, make: MakeSteppable): (cmd: SessionCommand) => void {
  return openSessionHost(post, make).handle;
}

/** A session host that can be closed: after close() it answers and posts nothing, and its runs are disposed. */
export function openSessionHost(post: Post, make: MakeSteppable): { handle: (cmd: SessionCommand) => void; close: () => void } {
  let closed = false;
  const host = new SessionHost((e) => {
    if (!closed) post(e);
  }, make);
  return {
    handle: (cmd) => {
      if (!closed) host.handle(cmd);
    },
    close: () => {
      closed = true;
      host.close();
    },
  };
}

/** A hot change waiting for its iteration. */
interface PendingHot {
  at: number;
  values: HotValues;
}

class SessionHost {
  private s: Steppable | null = null;
  /** undefined: paused; null: run to the end; k: run until k iterations are done. */
  private until: number | null | undefined;
  /** Iterations per second; 0: as fast as possible. */
  private speed = 0;
  /** The last iteration whose data went to the page. */
  private posted = -1;
  private backendPosted: BackendReport | null = null;
  private hot: PendingHot[] = [];
  /** A step is in progress (commands then only record what they want). */
  private busy = false;
  private scheduled = false;
  private turnsWanted = false;
  private pauseWanted = false;
  /** After an error the host answers nothing more. */
  private failed = false;
  /** The sequence number of the last command, echoed on the events that answer it. */
  private seq = 0;
  /** The runs whose policy trees the page shows (the 'watch' command), and the iteration last sent. */
  private watching: { runs: [number, number][]; context: number } | null = null;
  private treesPosted = -1;

  constructor(
    private readonly post: Post,
    private readonly make: MakeSteppable,
  ) {}

  handle(cmd: SessionCommand): void {
    if (this.failed) return;
    if ('seq' in cmd) this.seq = cmd.seq;
    try {
      switch (cmd.type) {
        case 'init':
          return this.init(cmd.config, cmd.specs);
        case 'go':
          return this.go(cmd.until);
        case 'pause':
          return this.pause();
        case 'turns':
          this.turnsWanted = true;
          this.until = undefined;
          return this.schedule(0);
        case 'hot':
          this.hot.push({ at: cmd.at, values: cmd.values });
          // paused (a pause still settling applies it once settled)
          if (!this.busy && this.until === undefined && !this.pauseWanted) this.applyDue();
          return;
        case 'speed':
          this.speed = cmd.speed;
          return;
        case 'watch':
          return this.watch(cmd.runs, cmd.context);
        case 'close':
          return this.close();
      }
    } catch (e) {
      this.fail(e);
    }
  }

  /** Stop for good (the page closed the session): nothing more is computed; the runs are disposed once no step uses them. */
  close(): void {
    this.failed = true;
    this.until = undefined;
    if (!this.busy) this.disposeRuns();
  }

  private disposeRuns(): void {
    const s = this.s;
    this.s = null;
    try {
      s?.dispose();
    } catch {
      // the session is over (closed or failed): a failure to free its runs has no one to tell
    }
  }

  private init(config: unknown, specs: RunSpec[]): void {
    this.make(config, specs).then((made) => {
      if (this.failed) {
        made.dispose();
        return;
      }
      this.s = made;
      if (this.watching) made.watch?.(this.watching.runs, this.watching.context);
      this.backendPosted = made.backend;
      this.post({ type: 'ready', iteration: made.iteration, backend: made.backend, Jstar: made.Jstar, runs: made.series.map((x) => [x.algoIndex, x.seedIndex]) });
      this.flush();
    }, (e) => this.fail(e));
  }

  private go(until: number | null): void {
    this.until = until;
    this.pauseWanted = false;
    if (this.busy) return;
    if (this.s && this.s.iteration >= (until ?? this.s.total)) this.pause(); // there already: settle and stop
    else this.schedule(0);
  }

  /** Pause now, or, while a step is in progress or work computed ahead is to settle, once it is done. */
  private pause(): void {
    this.until = undefined;
    if (this.busy || this.s?.settle) {
      this.pauseWanted = true;
      if (!this.busy) this.schedule(0); // the loop settles, then stops
    } else this.stopHere();
  }

  /** Draw these runs' policy trees (none: stop); sent with every data block from now on. */
  private watch(runs: [number, number][], context: number): void {
    this.watching = runs.length ? { runs, context } : null;
    if (this.s) {
      this.s.watch?.(runs, context);
      if (!this.busy) this.postTrees();
    }
  }

  private postTrees(): void {
    const s = this.s;
    if (!s || !this.watching || !s.trees) return;
    this.treesPosted = s.iteration;
    const trees = s.trees();
    if (trees.length) this.post({ type: 'policy', trees });
  }

  private fail(e: unknown): void {
    this.failed = true;
    this.post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }

  /** Send the page the backend if it changed and the iterations it has not seen yet. */
  private flush(): void {
    const s = this.s;
    if (s && s.backend !== this.backendPosted) {
      this.backendPosted = s.backend;
      if (s.backend) this.post({ type: 'backend', backend: s.backend });
    }
    if (!s || s.iteration <= this.posted) return;
    const block = packBlock(s.series, this.posted, s.iteration, s.turns);
    this.post({ type: 'data', from: this.posted, to: s.iteration, block, diverged: s.series.map((x) => x.diverged) });
    this.posted = s.iteration;
    if (this.treesPosted !== s.iteration) this.postTrees();
  }

  /** Apply the hot changes whose iteration has come. */
  private applyDue(): void {
    const s = this.s;
    if (!s) return;
    const due = this.hot.filter((h) => h.at <= s.iteration);
    this.hot = this.hot.filter((h) => h.at > s.iteration);
    for (const h of due) {
      s.applyHot(h.values);
      this.post({ type: 'applied', iteration: s.iteration });
    }
  }

  /** Flush and tell the page where the runs stopped: done at the end, paused before it. */
  private stopHere(): void {
    const s = this.s;
    if (!s) return;
    this.flush();
    this.until = undefined;
    this.post(s.iteration >= s.total ? { type: 'done', seq: this.seq, iteration: s.iteration } : { type: 'paused', seq: this.seq, iteration: s.iteration });
  }

  private schedule(delay: number): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.loop().catch((e) => this.fail(e));
    };
    if (delay > 0) setTimeout(run, delay);
    else soon(run);
  }

  private async loop(): Promise<void> {
    const s = this.s;
    if (!s || this.busy || this.failed) return;
    this.busy = true;
    try {
      if (this.turnsWanted) await this.stepTurns(s);
      else if (this.until !== undefined) await this.runSlice(s);
      else if (this.pauseWanted) {
        await s.settle?.();
        this.applyDue();
        this.pauseWanted = false;
        this.stopHere();
      }
    } finally {
      this.busy = false;
      if (this.failed) this.disposeRuns();
    }
  }

  /** Step turn by turn: one iteration, recording what each run did at each turn, then pause. */
  private async stepTurns(s: Steppable): Promise<void> {
    this.turnsWanted = false;
    await s.settle?.();
    this.applyDue();
    const k = s.iteration;
    const records = await s.step(true);
    this.flush();
    this.post({ type: 'turns', seq: this.seq, iteration: k, records: records ?? [] });
    this.stopHere();
  }

  /** The most iterations the next step may do: one at a set speed, else up to the target or the next hot change. */
  private stepLimit(s: Steppable): number {
    let limit = this.speed > 0 ? 1 : (this.until ?? s.total) - s.iteration;
    for (const h of this.hot) if (h.at > s.iteration) limit = Math.min(limit, h.at - s.iteration);
    return limit;
  }

  /** Compute for one slice (or one iteration at a set speed), then stop or schedule the next slice. */
  private async runSlice(s: Steppable): Promise<void> {
    const t0 = performance.now();
    while (this.until !== undefined && s.iteration < (this.until ?? s.total)) {
      this.applyDue();
      await s.step(false, this.stepLimit(s));
      if (this.speed > 0 || performance.now() - t0 > SLICE_MS) break;
    }
    if (this.pauseWanted || this.until === undefined || s.iteration >= (this.until ?? s.total)) {
      await s.settle?.();
      this.applyDue();
      this.pauseWanted = false;
      this.stopHere();
      return;
    }
    this.applyDue();
    this.flush();
    this.schedule(this.speed > 0 ? Math.max(0, 1000 / this.speed - (performance.now() - t0)) : 0);
  }
}
