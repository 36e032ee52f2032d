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
  let s: Steppable | null = null;
  /** undefined: paused; null: run to the end; k: run until k iterations are done. */
  let until: number | null | undefined;
  let speed = 0;
  let posted = -1;
  let hot: { at: number; values: HotValues }[] = [];
  let busy = false;
  let scheduled = false;
  let turnsWanted = false;
  let pauseWanted = false;
  let failed = false;
  let seq = 0;
  let watching: { runs: [number, number][]; context: number } | null = null;
  let treesPosted = -1;
  const postTrees = () => {
    if (!s || !watching || !s.trees) return;
    treesPosted = s.iteration;
    const trees = s.trees();
    if (trees.length) post({ type: 'policy', trees });
  };

  const fail = (e: unknown) => {
    failed = true;
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  };
  let backendPosted: BackendReport | null = null;
  const flush = () => {
    if (s && s.backend !== backendPosted) {
      backendPosted = s.backend;
      if (s.backend) post({ type: 'backend', backend: s.backend });
    }
    if (!s || s.iteration <= posted) return;
    const block = packBlock(s.series, posted, s.iteration, s.turns);
    post({ type: 'data', from: posted, to: s.iteration, block, diverged: s.series.map((x) => x.diverged) });
    posted = s.iteration;
    if (treesPosted !== s.iteration) postTrees();
  };
  const applyDue = () => {
    if (!s) return;
    const due = hot.filter((h) => h.at <= s!.iteration);
    hot = hot.filter((h) => h.at > s!.iteration);
    for (const h of due) {
      s.applyHot(h.values);
      post({ type: 'applied', iteration: s.iteration });
    }
  };
  const stopHere = () => {
    if (!s) return;
    flush();
    until = undefined;
    post(s.iteration >= s.total ? { type: 'done', seq, iteration: s.iteration } : { type: 'paused', seq, iteration: s.iteration });
  };
  const schedule = (delay: number) => {
    if (scheduled) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      loop().catch(fail);
    };
    if (delay > 0) setTimeout(run, delay);
    else soon(run);
  };

  async function loop(): Promise<void> {
    if (!s || busy || failed) return;
    busy = true;
    try {
      if (turnsWanted) {
        turnsWanted = false;
        applyDue();
        const k = s.iteration;
        const records = await s.step(true);
        flush();
        post({ type: 'turns', seq, iteration: k, records: records ?? [] });
        stopHere();
        return;
      }
      if (until === undefined) return;
      const t0 = performance.now();
      while (until !== undefined && s.iteration < (until ?? s.total)) {
        applyDue();
        let limit = speed > 0 ? 1 : (until ?? s.total) - s.iteration;
        for (const h of hot) if (h.at > s.iteration) limit = Math.min(limit, h.at - s.iteration);
        await s.step(false, limit);
        if (speed > 0 || performance.now() - t0 > SLICE_MS) break;
      }
      applyDue();
      if (pauseWanted || until === undefined || s.iteration >= (until ?? s.total)) {
        pauseWanted = false;
        stopHere();
        return;
      }
      flush();
      schedule(speed > 0 ? Math.max(0, 1000 / speed - (performance.now() - t0)) : 0);
    } finally {
      busy = false;
    }
  }

  return (cmd: SessionCommand) => {
    if (failed) return;
    if ('seq' in cmd) seq = cmd.seq;
    try {
      switch (cmd.type) {
        case 'init':
          make(cmd.config, cmd.specs).then((made) => {
            s = made;
            if (watching) s.watch?.(watching.runs, watching.context);
            backendPosted = s.backend;
            post({ type: 'ready', iteration: s.iteration, backend: s.backend, Jstar: s.Jstar, runs: s.series.map((x) => [x.algoIndex, x.seedIndex]) });
            flush();
          }, fail);
          return;
        case 'go':
          until = cmd.until;
          pauseWanted = false;
          if (busy) return;
          if (s && s.iteration >= (until ?? s.total)) stopHere();
          else schedule(0);
          return;
        case 'pause':
          until = undefined;
          if (busy) pauseWanted = true;
          else stopHere();
          return;
        case 'turns':
          turnsWanted = true;
          until = undefined;
          schedule(0);
          return;
        case 'hot':
          hot.push({ at: cmd.at, values: cmd.values });
          if (!busy && until === undefined) applyDue();
          return;
        case 'speed':
          speed = cmd.speed;
          return;
        case 'watch':
          watching = cmd.runs.length ? { runs: cmd.runs, context: cmd.context } : null;
          if (s) {
            s.watch?.(cmd.runs, cmd.context);
            if (!busy) postTrees();
          }
          return;
      }
    } catch (e) {
      fail(e);
    }
  };
}
