import type { Endpoint } from './session-client';
import type { SessionCommand, SessionEvent } from './session-protocol';

// Workers kept from one session to the next (serve.ts serves one session after another): a new
// experiment, such as a quick switch on a finished run, starts in a worker whose code is loaded
// and compiled, and its first iterations are not slowed by a worker's start-up.

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
}

export class WorkerPool {
  private idle: Pooled[] = [];

  /** `keep`: how many idle workers to keep (more are ended); `what` names a worker in errors. */
  constructor(
    private readonly spawn: () => Worker,
    private readonly what: string,
    private readonly keep: () => number,
  ) {}

  /** Idle workers now kept (for tests). */
  get idleCount(): number {
    return this.idle.length;
  }

  /** Start workers ahead of the first session, up to `n` idle ones. */
  warm(n: number): void {
    while (this.idle.length < Math.min(n, this.keep())) this.idle.push(this.start());
  }

  /** A worker for a new session: an idle one, or a new one. */
  connect(onEvent: OnEvent): Endpoint {
    const p = this.idle.shift() ?? this.start();
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
    const p: Pooled = { worker: this.spawn(), owners: [], broken: false };
    p.worker.onmessage = (e: MessageEvent<SessionEvent>) => {
      if (e.data.type === 'closed') p.owners.shift();
      else p.owners[0]?.onEvent?.(e.data);
    };
    const failed = (message: string) => {
      // a worker that failed serves no later session; its current one hears why
      p.broken = true;
      this.idle = this.idle.filter((x) => x !== p);
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
