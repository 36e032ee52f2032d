import type { Endpoint } from './session-client';
import type { SessionCommand, SessionEvent } from './session-protocol';

// Workers kept from one session to the next (serve.ts serves one session after another): a new
// experiment, such as a quick switch on a finished run, starts in a worker whose code is loaded
// and compiled, and its first iterations are not slowed by a worker's start-up. A worker started
// ahead (warm) first runs a small exercise session, if the pool has one, so that the engine's
// code is optimized before the first real run: a cold engine's first iteration of 1,024 runs took
// about twice a warm one's. A session that takes the worker meanwhile closes the exercise first.

type OnEvent = (e: SessionEvent) => void;

interface Owner {
  /** null once the session closed: the events it still had on the way are dropped. */
  onEvent: OnEvent | null;
}

interface Pooled {
  worker: Worker;
  /** Sessions served by this worker, oldest first: events go to the first; 'closed' passes on to the next. */
  owners: Owner[];
  broken: boolean;
  /** The exercise session's owner while it runs. */
  exercising: Owner | null;
}

export class WorkerPool {
  private idle: Pooled[] = [];

  /**
   * `keep`: how many idle workers to keep (more are ended); `what` names a worker in errors;
   * `exercise`: the commands of a small session a worker started ahead runs to its end.
   */
  constructor(
    private readonly spawn: () => Worker,
    private readonly what: string,
    private readonly keep: () => number,
    private readonly exercise?: () => SessionCommand[],
  ) {}

  /** Idle workers now kept (for tests). */
  get idleCount(): number {
    return this.idle.length;
  }

  /** Start workers ahead of the first session, up to `n` idle ones. */
  warm(n: number): void {
    while (this.idle.length < Math.min(n, this.keep())) {
      const p = this.start();
      this.idle.push(p);
      if (this.exercise) this.startExercise(p, this.exercise());
    }
  }

  private startExercise(p: Pooled, commands: SessionCommand[]): void {
    const owner: Owner = { onEvent: (e) => (e.type === 'done' || e.type === 'error') && this.endExercise(p) };
    p.owners.push(owner);
    p.exercising = owner;
    for (const cmd of commands) p.worker.postMessage(cmd);
  }

  /** Close the exercise (done, failed, or its worker wanted): its events on the way are dropped, 'closed' passes on. */
  private endExercise(p: Pooled): void {
    if (!p.exercising) return;
    p.exercising.onEvent = null;
    p.exercising = null;
    p.worker.postMessage({ type: 'close' } satisfies SessionCommand);
  }

  /** A worker for a new session: an idle one, or a new one. */
  connect(onEvent: OnEvent): Endpoint {
    const p = this.idle.shift() ?? this.start();
    this.endExercise(p);
    const owner: Owner = { onEvent };
    p.owners.push(owner);
    return {
      post: (cmd: SessionCommand) => p.worker.postMessage(cmd),
      close: () => {
        if (!owner.onEvent) return;
        owner.onEvent = null;
        if (p.broken || this.idle.length >= this.keep()) return this.end(p);
        p.worker.postMessage({ type: 'close' } satisfies SessionCommand);
        this.idle.push(p);
      },
    };
  }

  private start(): Pooled {
    const p: Pooled = { worker: this.spawn(), owners: [], broken: false, exercising: null };
    p.worker.onmessage = (e: MessageEvent<SessionEvent>) => {
      if (e.data.type === 'closed') p.owners.shift();
      else p.owners[0]?.onEvent?.(e.data);
    };
    const failed = (message: string) => {
      // a worker that failed serves no later session; its current one hears why
      p.broken = true;
      this.idle = this.idle.filter((x) => x !== p);
      if (p.exercising) p.exercising = p.exercising.onEvent = null; // no one to tell
      const live = p.owners.find((o) => o.onEvent);
      live?.onEvent?.({ type: 'error', message });
      if (!live) this.end(p);
    };
    p.worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      failed(`${this.what} failed: ${e.message || 'it could not be started'}`);
    };
    p.worker.onmessageerror = () => failed(`${this.what} sent a message that could not be read`);
    return p;
  }

  private end(p: Pooled): void {
    this.idle = this.idle.filter((x) => x !== p);
    p.worker.terminate();
  }
}
