// The transport's clock: the seconds a run has been running (paused time left out) and its
// iterations per second over the last two seconds or so, as the progress line shows them.

/** Iterations per second are measured over samples this far apart at most … */
const WINDOW_MS = 2000;
/** … and only once they span this much (a shorter span gives a jumpy rate). */
const MIN_SPAN_MS = 200;

export class RunClock {
  /** When the current running stretch began, or null while stopped. */
  private since: number | null = null;
  /** Seconds of the earlier running stretches. */
  private before = 0;
  private samples: { t: number; k: number }[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  get running(): boolean {
    return this.since !== null;
  }

  /** Running from now on (a new stretch: the rate starts afresh). */
  start(): void {
    if (this.since === null) this.since = this.now();
    this.samples = [];
  }

  /** Paused, done or failed: the stretch's time is kept. */
  stop(): void {
    if (this.since !== null) this.before += (this.now() - this.since) / 1000;
    this.since = null;
  }

  /** A new run: nothing elapsed. */
  reset(): void {
    this.since = null;
    this.before = 0;
    this.samples = [];
  }

  /**
   * At time `t`, iteration `k` reached: the seconds run so far, and the iterations per second
   * (undefined while the samples span too little: keep showing the last rate).
   */
  sample(k: number, t: number = this.now()): { elapsed: number; itPerSec: number | undefined } {
    if (this.since !== null) {
      this.samples.push({ t, k });
      while (this.samples.length > 2 && t - this.samples[0]!.t > WINDOW_MS) this.samples.shift();
    }
    const first = this.samples[0], last = this.samples[this.samples.length - 1];
    const itPerSec = first && last && last.t - first.t > MIN_SPAN_MS ? ((last.k - first.k) * 1000) / (last.t - first.t) : undefined;
    return { elapsed: this.before + (this.since !== null ? (t - this.since) / 1000 : 0), itPerSec };
  }
}
