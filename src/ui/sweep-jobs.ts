import type { Sweep } from '../core/sweep/cells';
import type { SweepWork } from '../core/sweep/limits';

// The Sweep view's two jobs off the page's thread, one of each at a time: the check of a sweep's
// cells (every cell resolved, as the CLI checks them, in a Web Worker) and the sweep run itself.
// Each holds what sweep-actions.ts needs to answer, end or replace it; the workers are started
// by the caller (a Vite worker URL must sit beside its `new Worker`).

export type CellCheck = { state: 'checking' } | { state: 'ok'; work: SweepWork } | { state: 'error'; message: string };

/** What a cell check runs in: ended when its answer came or a newer sweep replaced it. */
export interface CheckWorker {
  terminate(): void;
}

/**
 * The check of the latest sweep asked about. `start` begins checking a sweep and calls `end` once
 * with its answer; `ended` is told when the latest check answered (the view then re-renders).
 * Asking about another sweep ends the check in flight: its answer, if it still comes, is dropped.
 */
export class CellCheckSlot {
  private job: { sweep: Sweep; status: CellCheck; worker: CheckWorker | null } | null = null;

  constructor(
    private readonly start: (sweep: Sweep, end: (status: CellCheck) => void) => CheckWorker,
    private readonly ended: () => void,
  ) {}

  /** The state of `sweep`'s check; starts it (ending any other) the first time it is asked. */
  status(sweep: Sweep): CellCheck {
    if (this.job?.sweep === sweep) return this.job.status;
    this.job?.worker?.terminate();
    const job: NonNullable<CellCheckSlot['job']> = { sweep, status: { state: 'checking' }, worker: null };
    this.job = job;
    let answered = false;
    let worker: CheckWorker | null = null;
    const end = (status: CellCheck) => {
      if (answered) return;
      answered = true;
      worker?.terminate();
      job.worker = null;
      if (this.job !== job) return;
      job.status = status;
      this.ended();
    };
    worker = this.start(sweep, end);
    if (answered) worker.terminate(); // it answered before start returned
    else job.worker = worker;
    return job.status;
  }
}

/** The sweep running now, if any: at most one; cancel ends it, and so does its own end. */
export class RunSlot<H extends { cancel(): void }> {
  private handle: H | null = null;

  get busy(): boolean {
    return this.handle !== null;
  }

  start(handle: H): void {
    this.handle = handle;
  }

  /** The run ended by itself (done or failed). */
  end(): void {
    this.handle = null;
  }

  /** Cancel the run; false when none was running. */
  cancel(): boolean {
    if (!this.handle) return false;
    this.handle.cancel();
    this.handle = null;
    return true;
  }
}
