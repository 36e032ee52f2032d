import type { Live } from './live';

// What each derived part of the page (a chart, the verdicts, the summary table, the caption) shows
// of the store's streaming results. `live` is mutated in place, so what a part shows is the pair
// (version, live) as of its last update. Parts update in turn, one per task (slot k waits
// k·slotMs after a publish): updating every part in one task would block the page for longer than
// 50 ms on a large experiment, one part at a time stays below it. While a run streams, a slot whose
// last update took c ms also waits pace·c ms after it before the next (a few ms: no wait; the
// verdicts of 1,024 runs: about a second), so the page's thread is mostly left to drawing and the
// workers. An urgent publish (a new run's first points, a run's end: what the reader waits for)
// reaches every slot at its turn at once; at a run's end the slots named first (the verdicts)
// take the first turns, so the verdict does not wait for every chart to redraw before it.

/** The store's results as one part of the page shows them. */
export interface Shown {
  version: number;
  live: Live | null;
}

export interface SlotTiming {
  /** Slot k updates k·slotMs after a publish. */
  slotMs: number;
  /** A slot waits pace × (its last update's cost) after that update while a run streams. */
  pace: number;
  now: () => number;
  later: (f: () => void, ms: number) => unknown;
  cancel: (handle: unknown) => void;
}

export class ShownSlots {
  private readonly shown: Shown[];
  private readonly listeners: Set<() => void>[];
  private readonly cost: number[];
  private readonly shownAt: number[];
  private readonly timers: (unknown | null)[];
  private published: Shown;
  /** The run whose first segment (iteration 1) the slots have been handed. */
  private firstSegmentOf: Live | null = null;
  private urgentNext = false;
  private endedNext = false;
  private readonly runNumbers = new WeakMap<Live, number>();
  private runsSeen = 0;

  /** `latest` reads the store's (version, live) at a publish; `firstAtEnd`: the slots that update first at a run's end. */
  constructor(
    count: number,
    private readonly latest: () => Shown,
    private readonly timing: SlotTiming,
    private readonly firstAtEnd: readonly number[] = [],
  ) {
    this.published = latest();
    this.shown = new Array<Shown>(count).fill(this.published);
    this.listeners = Array.from({ length: count }, () => new Set<() => void>());
    this.cost = new Array<number>(count).fill(0);
    this.shownAt = new Array<number>(count).fill(-Infinity);
    this.timers = new Array<unknown | null>(count).fill(null);
  }

  /** Record how long `slot`'s last update of its derived data took (ms): its pace while a run streams. */
  took(slot: number, ms: number): void {
    this.cost[slot] = ms;
  }

  /**
   * The store changed: whether the change is one the reader waits for (a new run's first segment,
   * a run's end), which the next publish then hands to every slot without their pace.
   */
  changed(live: Live | null, ended: boolean): boolean {
    const urgent = ended || (live !== null && live.iteration >= 1 && live !== this.firstSegmentOf);
    if (urgent) this.urgentNext = true;
    if (ended) this.endedNext = true;
    return urgent;
  }

  /** Hand the store's latest to every slot: each at its turn, after its pace unless the change was urgent. */
  publish(): void {
    const urgent = this.urgentNext;
    const ended = this.endedNext;
    this.urgentNext = this.endedNext = false;
    const { version, live } = this.latest();
    // an urgent publish may have handed out this version already, before the throttle's waiting
    // one; an urgent one after it brings forward the slots still waiting for their pace
    const same = version === this.published.version && live === this.published.live;
    if (same && !urgent) return;
    if (!same) this.published = { version, live };
    if (live && live.iteration >= 1) this.firstSegmentOf = live;
    const now = this.timing.now();
    const order = ended ? [...this.firstAtEnd, ...[...this.shown.keys()].filter((k) => !this.firstAtEnd.includes(k))] : [...this.shown.keys()];
    for (const [turn, k] of order.entries()) {
      // a slot waiting already shows the latest version when its time comes; urgent: at its turn now
      if (this.timers[k] !== null ? !urgent : same) continue;
      if (this.timers[k] !== null) this.timing.cancel(this.timers[k]);
      const paced = urgent ? 0 : Math.max(0, this.shownAt[k] + this.timing.pace * this.cost[k] - now);
      this.timers[k] = this.timing.later(() => this.show(k), turn * this.timing.slotMs + paced);
    }
  }

  private show(k: number): void {
    this.timers[k] = null;
    this.shown[k] = this.published;
    this.shownAt[k] = this.timing.now();
    this.listeners[k].forEach((l) => l());
  }

  /** What `slot` shows now. */
  shownIn(slot: number): Shown {
    return this.shown[slot];
  }

  /** Whether every slot shows the store's latest (version, live): nothing on the page is behind the results. */
  allShown(): boolean {
    const { version, live } = this.latest();
    return this.shown.every((s) => s.version === version && s.live === live);
  }

  /** Call `listener` whenever `slot` shows another version; returns the unsubscribe. */
  subscribe(slot: number, listener: () => void): () => void {
    this.listeners[slot].add(listener);
    return () => {
      this.listeners[slot].delete(listener);
    };
  }

  /** Call `listener` whenever any slot shows another version; returns the unsubscribe. */
  subscribeAll(listener: () => void): () => void {
    const offs = this.listeners.map((_, k) => this.subscribe(k, listener));
    return () => offs.forEach((off) => off());
  }

  /** The number of run `live` in the page's life, counting from 1 in the order the slots first showed them. */
  runNumber(live: Live): number {
    let n = this.runNumbers.get(live);
    if (n === undefined) this.runNumbers.set(live, (n = ++this.runsSeen));
    return n;
  }
}
