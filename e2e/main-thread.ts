import type { CDPSession, Page } from '@playwright/test';

/**
 * The page's main-thread tasks, measured by the CPU time of the thread that ran them.
 *
 * Why CPU time, not a task's wall time (what a `longtask` PerformanceObserver reports): on a loaded
 * machine (two test suites on 2 cores, load 6) the OS scheduler takes the core away from the page in
 * the middle of a task, and a task of 5 ms of work once lasted 76 ms of wall time. The time while
 * the thread is preempted is not its CPU time, so the CPU time of a task is the page's own work,
 * whatever else the machine does: a task planted with about 80 ms of work measured 82 to 98 ms of
 * CPU time at loads 5 to 12 (its wall time 105 to 680 ms), and a 5 ms task stays near 5 ms however
 * long it waited for the core.
 *
 * How: Chrome's trace (through the DevTools Protocol) records every task a thread runs as a
 * `ThreadControllerImpl::RunTask` event, with its wall duration (`dur`) and the thread's CPU time
 * spent in it (`tdur`, from the OS's per-thread CPU clock), both in microseconds. The page's main
 * thread is found by a `performance.mark` placed in the page before tracing ends (user timing
 * marks are traced on the thread that made them), so other processes' main threads (the browser's,
 * a spare renderer starting up) are never counted.
 *
 * What it does not see: a task blocked without computing (a synchronous request, a synchronous
 * wait on another process) spends wall time but no CPU time; the app makes none of those.
 */

/** One task of the page's main thread: its CPU time and wall time in ms, and what posted it. */
export interface MainThreadTask {
  cpuMs: number;
  wallMs: number;
  postedBy: string;
  /** When it started: ms after the watch began (the page's performance mark START_MARK). */
  startMs: number;
}

export interface MainThreadWatch {
  /** Stop tracing: every task the page's main thread ran since the watch started, longest CPU first. */
  stop(): Promise<MainThreadTask[]>;
  /** After stop(): the CPU time (ms) of the page's other threads (its workers among them) in tasks that ended after the watch started, by thread name, most first. */
  otherThreads(): { thread: string; cpuMs: number }[];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { src_file?: string; src_func?: string; data?: unknown; name?: string };
}

/** The mark placed in the page when a watch starts: its startTime ties a task's startMs to the page's clock. */
export const START_MARK = 'main-thread-watch-start';
const END_MARK = 'main-thread-watch-end';
const TASK_EVENT = 'ThreadControllerImpl::RunTask';

/**
 * Start tracing the page's tasks. `toplevel` holds the task events, `blink.user_timing` the mark
 * that names the page's thread: two light categories, so a trace of minutes stays a few MB.
 */
export async function watchMainThread(page: Page): Promise<MainThreadWatch> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['toplevel', 'blink.user_timing'], recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  await page.evaluate((name) => void performance.mark(name), START_MARK);
  let others: { thread: string; cpuMs: number }[] = [];
  return {
    otherThreads: () => others,
    async stop() {
      await page.evaluate((name) => void performance.mark(name), END_MARK);
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      const end = events.find((e) => e.name === END_MARK);
      if (!end) throw new Error(`the trace has no '${END_MARK}' mark: the page's main thread is unknown`);
      const tasks = events.filter((e) => e.name === TASK_EVENT && e.ph === 'X' && e.pid === end.pid && e.tid === end.tid);
      if (tasks.length === 0) throw new Error("the trace has no task on the page's main thread");
      if (tasks.every((e) => e.tdur === undefined)) throw new Error('the trace has no thread time (tdur): this measure needs a per-thread CPU clock');
      // A task that ended before the start mark was already running when tracing began: not watched.
      const from = events.find((e) => e.name === START_MARK)?.ts ?? -Infinity;
      const names = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === end.pid).map((e) => [e.tid, e.args?.name ?? '?']));
      const byThread = new Map<number, number>();
      for (const e of events)
        if (e.name === TASK_EVENT && e.ph === 'X' && e.pid === end.pid && e.tid !== end.tid && e.ts + (e.dur ?? 0) >= from) byThread.set(e.tid, (byThread.get(e.tid) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
      others = [...byThread].map(([tid, cpuMs]) => ({ thread: `${names.get(tid) ?? '?'} (${tid})`, cpuMs })).sort((a, b) => b.cpuMs - a.cpuMs);
      return tasks
        .filter((e) => e.ts + (e.dur ?? 0) >= from)
        // the trace leaves out the thread time of some tasks of a microsecond or so: their wall time, never less, stands in
        .map((e) => ({ cpuMs: (e.tdur ?? e.dur ?? 0) / 1000, wallMs: (e.dur ?? 0) / 1000, postedBy: `${e.args?.src_func ?? '?'} (${e.args?.src_file ?? '?'})`, startMs: Number.isFinite(from) ? (e.ts - from) / 1000 : NaN }))
        .sort((a, b) => b.cpuMs - a.cpuMs);
    },
  };
}

/** The tasks that did more than `limitMs` of the page's own work: CPU time, not wall time. */
export function overCpu(tasks: MainThreadTask[], limitMs = 50): MainThreadTask[] {
  return tasks.filter((t) => t.cpuMs > limitMs);
}

/** A line for the test's log: how many tasks, the longest by CPU time and their wall time. */
export function describeTasks(tasks: MainThreadTask[]): string {
  const longest = tasks.slice(0, 3).map((t) => `${t.cpuMs.toFixed(1)} ms CPU (${t.wallMs.toFixed(1)} ms wall) posted by ${t.postedBy}`);
  const wall = Math.max(0, ...tasks.map((t) => t.wallMs));
  return `${tasks.length} main-thread tasks; longest by CPU: ${longest.join('; ') || 'none'}; longest wall time ${wall.toFixed(1)} ms`;
}
