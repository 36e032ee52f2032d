import { EXECUTOR_NAMES, runWith } from '../core/run/choose';
import { allRuns, partitionRuns } from '../core/run/partition';
import { changeValues } from '../core/run/changes';
import { makeRunSeries, storageStride } from '../core/run/series';
import type { TurnRecord } from '../core/run/turns';
import { connectCpuWorker, connectTensorWorker, connectWebGpuWorker } from '../worker/browser-session';
import { Session } from '../worker/session-client';
import { TURN_STEP_NEEDS_CPU } from '../worker/session-protocol';
import { isHotPath, setPath } from './draft';
import { runsPerAlgorithm, type HotChange, type Live, type MetricName, type TurnStep, type XAxis } from './live';
import type { Plan } from './plan';
import { CHART_REDRAW_MS, intervalGate, oncePerFrame, throttle } from './redraw';
import { RunClock } from './run-clock';
import { CommandQueue } from './command-queue';
import { checkDraft, isValid, useApp, type AppState, type Draft, type Theme } from './state';
import { mergeTrees, treeRunsOf, treeUnavailable, type TreeRun } from './tree-state';
import { evidenceLargestDrop, largestDrop } from './charts/largest-drop';
import { PendingTrees, SessionSlot, TurnHold } from './session-slot';
import type { PolicyTreeView } from '../core/env/policy-tree';

// What the page's buttons and controls do. Every command to the workers goes through one
// queue, so a burst of presses is performed in order; the status changes at once.

/** The workers' session: commands go to it; the events of one replaced since are dropped. */
const session = new SessionSlot<Session>();
/** While stepping turn by turn, the iteration the charts stop at (the one being stepped) and its turn records. */
const turnHold = new TurnHold<{ iteration: number; records: TurnRecord[] }>();
/** Seconds run and iterations per second, for the progress line. */
const clock = new RunClock();
/** Whether the charts may redraw now: at most once per CHART_REDRAW_MS while results stream. */
const chartsDue = intervalGate(CHART_REDRAW_MS);
/** Every command to the workers, in order; Reset clears it. */
const commands = new CommandQueue((msg) => fail(msg));

// read lazily: this module is evaluated before store.ts's body (store.ts re-exports it)
const set = (partial: Partial<AppState>) => useApp.setState(partial);
const get = () => useApp.getState();

const enqueue = (task: () => Promise<unknown> | unknown) => commands.add(task);

/** Let the workers run to the end without holding the queue (Pause interrupts them). */
function runToEnd(): void {
  clock.start();
  session.current!.runTo(null).catch(() => undefined);
}

function fail(msg: string): void {
  session.clear();
  clock.stop();
  set({ status: 'error', error: msg });
}


/** Push what the workers streamed to the store, at most once per animation frame. */
const requestFrame = oncePerFrame(() => publish(false));

/**
 * Show the streamed data: the progress every time; the charts (a `version` bump) when
 * `force`d or, while running, every CHART_REDRAW_MS (a chart render is far costlier).
 */
function publish(force = true): void {
  const s = get();
  const current = session.current;
  if (!s.live || !current) return;
  const reached = current.iteration;
  const before = s.live.iteration;
  // −1 until every worker has sent J[0]: charts must not take the empty first point as final
  s.live.iteration = turnHold.shown(reached);
  const now = performance.now();
  const { elapsed, itPerSec: measured } = clock.sample(reached, now);
  const itPerSec = measured ?? s.itPerSec;
  // a run's first segment draws at once (the charts draw it at once too: charts/common.tsx)
  const redraw = chartsDue(now, force || (before < 1 && s.live.iteration >= 1));
  if (!redraw) requestFrame(); // the charts catch up once the interval has passed
  set({ iteration: Math.max(0, s.live.iteration), version: redraw ? s.version + 1 : s.version, itPerSec, elapsed });
}

function emptyLive(plan: Plan): Live {
  const { exp } = plan;
  const runs = [];
  // in allRuns' order: by algorithm, then by seed index among those that run (exp.seedIndices)
  for (let a = 0; a < exp.algorithms.length; a++) for (const s of exp.seedIndices) runs.push(makeRunSeries(exp, a, s, storageStride(exp.iterations)));
  const changes: HotChange[] = [];
  const values = (path: string) => valueOf(plan, path, changes, Infinity);
  for (const c of exp.changes) changes.push({ iteration: c.at, path: c.path, from: values(c.path) ?? NaN, to: c.value, scheduled: true });
  return { runs, iteration: -1, changes, startConfig: structuredClone(plan.config) as Record<string, unknown> };
}

/** The value of a hot path in force at iteration `at`: the plan's, then the changes up to `at`. */
function valueOf(plan: Plan, path: string, changes: HotChange[], at: number): number | undefined {
  const m = /^algorithms\[(\d+)\]\.clip$/.exec(path);
  let v = m ? plan.exp.algorithms[Number(m[1])]?.clip : path === 'optimizer.lr' ? plan.exp.optimizer.lr : undefined;
  // in the workers' order: by iteration; at one iteration, changes made live before scheduled ones
  const order = [...changes].sort((a, b) => a.iteration - b.iteration || Number(!!a.scheduled) - Number(!!b.scheduled));
  for (const c of order) if (c.path === path && c.iteration <= at) v = c.to;
  return v;
}

/**
 * The trees the workers sent (one event per iteration block, tens a second), drawn at most once
 * per CHART_REDRAW_MS: a redraw of a large tree costs as much as a chart's.
 */
const treesDue = new PendingTrees<Session, PolicyTreeView>(mergeTrees);
const drawTrees = throttle(() => {
  const due = treesDue.take();
  if (due && session.holds(due.s) && !turnHold.holding) set({ policyTrees: mergeTrees(get().policyTrees, due.trees) });
}, CHART_REDRAW_MS);

function showTrees(s: Session, trees: PolicyTreeView[]): void {
  treesDue.add(s, trees);
  drawTrees();
}

/** Start workers for the current plan (paused at iteration 0); resolves when every one is ready. */
function openSession(plan: Plan): Promise<void> {
  session.closeWorkers();
  const live = emptyLive(plan);
  turnHold.release();
  clock.reset();
  // the tensor and WebGPU executors hold every run in one worker (one device); the CPU executor shares them out
  const { parts, connect } = runWith(plan.choice, {
    cpu: () => ({ parts: partitionRuns(allRuns(plan.exp), plan.threads), connect: connectCpuWorker }),
    tensor: () => ({ parts: [allRuns(plan.exp)], connect: connectTensorWorker }),
    webgpu: () => ({ parts: [allRuns(plan.exp)], connect: connectWebGpuWorker }),
  });
  set({ live, iteration: 0, total: plan.exp.iterations, version: get().version + 1, turnStep: null, backend: null, itPerSec: null, elapsed: 0, error: null, policyTrees: [], focusSeed: null });
  return new Promise((resolve, reject) => {
    const s = new Session(plan.exp, plan.config, live, parts, connect, {
      ready: (backend) => {
        if (!session.holds(s)) return;
        set({ backend });
        s.speed(get().speed);
        if (treeUnavailable(plan.exp, plan.choice.executor) === null) watchTrees();
        resolve();
      },
      backend: (backend) => {
        if (session.holds(s)) set({ backend, notice: backend.reason });
      },
      data: () => {
        if (session.holds(s)) requestFrame();
      },
      policy: (trees) => {
        // while an iteration is shown turn by turn, the trees come from its turn records
        if (session.holds(s) && !turnHold.holding) showTrees(s, trees);
      },
      finished: () => {
        if (!session.holds(s)) return;
        clock.stop();
        publish();
        set({ status: 'done' });
      },
      error: (msg) => {
        if (!session.holds(s)) return;
        fail(`The run failed on the ${EXECUTOR_NAMES[plan.choice.executor]} executor: ${msg}`);
        reject(new Error(msg));
      },
    });
    session.replace(s);
  });
}

const hasSession = () => session.active;

/** Run (or resume) to the end. */
export function startRun(): void {
  const s = get();
  if (s.status === 'running' || !isValid(s)) return;
  const plan = s.plan!;
  const fresh = !hasSession();
  set({ status: 'running', notice: null, lastCommand: 'run' });
  enqueue(async () => {
    if (fresh) await openSession(plan);
    releaseTurnHold();
    if (get().status === 'running') runToEnd();
  });
}

/**
 * Start the workers without running (idle, at iteration 0): the charts draw J at iteration 0 and
 * the policy tree the starting policy, so a tour step never points at an empty chart. Nothing
 * when a run exists or the settings are invalid.
 */
export function prepareRun(): void {
  const s = get();
  if (s.status !== 'idle' || hasSession() || !isValid(s)) return;
  const plan = s.plan!;
  enqueue(async () => {
    if (!hasSession() && get().status === 'idle' && get().plan === plan) {
      await openSession(plan);
      publish();
    }
  });
}

/** Pause at once: workers stop within one slice and line up on one iteration. */
export function pauseRun(): void {
  if (get().status !== 'running') return;
  set({ status: 'paused', lastCommand: 'pause' });
  clock.stop();
  enqueue(async () => {
    await session.current?.align();
    publish();
  });
}

/** Perform exactly one iteration of every run. */
export function stepOnce(): void {
  const s = get();
  if (!isValid(s) || s.status === 'running' || (session.current?.finished ?? false)) return;
  const plan = s.plan!;
  set({ status: 'paused', notice: null, lastCommand: 'step' });
  enqueue(async () => {
    if (!hasSession()) await openSession(plan);
    releaseTurnHold();
    const m = await session.current!.align();
    if (m >= plan.exp.iterations) return;
    await session.current!.runTo(m + 1);
    publish();
    if (session.current?.finished) set({ status: 'done' });
  });
}

/** Why "Step one turn" is unavailable for the current plan, or null. */
export function turnStepBlocked(plan: Plan | null): string | null {
  if (!plan) return 'the settings are invalid';
  if (plan.choice.executor !== 'cpu') return TURN_STEP_NEEDS_CPU;
  return null;
}

/**
 * Perform the next turn's update: the workers compute the iteration once, recording every
 * run's policy after each turn's update; each press shows the next turn of it.
 */
export function stepTurn(): void {
  const s = get();
  if (!isValid(s) || s.status === 'running' || turnStepBlocked(s.plan) || (session.current?.finished ?? false)) return;
  const plan = s.plan!;
  set({ status: 'paused', notice: null, lastCommand: 'step-turn' });
  enqueue(async () => {
    const current = get().turnStep;
    if (current && turnHold.records && current.done < current.turns) {
      showTurn(plan, current.done + 1);
      return;
    }
    if (!hasSession()) await openSession(plan);
    releaseTurnHold();
    const m = await session.current!.align();
    if (m >= plan.exp.iterations) return;
    turnHold.hold(m);
    turnHold.recorded(await session.current!.turns());
    showTurn(plan, 1);
  });
}

function showTurn(plan: Plan, done: number): void {
  const { exp } = plan;
  const T = exp.env.turns;
  const recs = turnHold.records!;
  const algorithms: TurnStep['algorithms'] = exp.algorithms.map((_, a) => {
    const updated: (number | 'all' | null)[] = [];
    let J = 0, n = 0;
    const prob = new Array<number>(T).fill(0);
    const perAlgorithm = runsPerAlgorithm(exp);
    for (let position = 0; position < perAlgorithm; position++) {
      const r = recs.records[a * perAlgorithm + position];
      if (!r || r.turns.length === 0) {
        updated.push(null);
        continue;
      }
      const together = r.turns[0] === -1;
      const i = together ? 0 : Math.min(done, r.turns.length) - 1;
      updated.push(together ? (done === 1 ? 'all' : null) : r.turns[i]);
      J += r.J[i];
      r.optimalProb[i].forEach((p, t) => (prob[t] += p));
      n++;
    }
    return { updated, J: n ? J / n : NaN, optimalProb: prob.map((p) => (n ? p / n : NaN)) };
  });
  if (done >= T) turnHold.lastTurnShown();
  treesDue.drop(); // the turn records' trees are newer than any the workers sent before
  set({ turnStep: { iteration: recs.iteration, done, turns: T, algorithms }, policyTrees: mergeTrees(get().policyTrees, turnTrees(recs.records, done)) });
  publish();
  if (session.current?.finished) set({ status: 'done' });
}

/** The watched runs' trees after `done` turn steps (a rule that updates every turn at once: after its one update). */
function turnTrees(records: TurnRecord[], done: number): PolicyTreeView[] {
  const out: PolicyTreeView[] = [];
  for (const r of records) {
    if (!r?.trees?.length) continue;
    out.push(r.trees[Math.min(done, r.trees.length) - 1]);
  }
  return out;
}

/** Ask the workers for the trees of the runs the tree panel draws (each executor's worker sends those it owns). */
export function watchTrees(): void {
  const s = get();
  const current = session.current;
  if (!current || !s.plan) return;
  const runs: TreeRun[] = treeRunsOf(s.plan.exp, s.treeRuns);
  current.watch(runs, s.treeContext);
}

/** Draw these runs' trees (one or two) in `context`. */
export function chooseTreeRuns(runs: TreeRun[] | null, context = get().treeContext): void {
  treesDue.drop();
  set({ treeRuns: runs, treeContext: context, policyTrees: [] });
  watchTrees();
}

export const toggleTreeDetails = () => set({ treeDetails: !get().treeDetails });

/** Pick the seed whose J fell the most (claim 2's algorithms first): the seed charts draw it, the tree shows its run. */
export function showLargestDrop(): void {
  const s = get();
  // the drop claim 2's evidence names; where it names none (no algorithm of the claim), the seed charts' largest
  const d = s.plan ? (evidenceLargestDrop(s.plan, s.live) ?? largestDrop(s.plan, s.live)) : null;
  set({ focusSeed: d });
  if (d) chooseTreeRuns([[d.algoIndex, d.seedIndex]]);
}

/** Leave turn-by-turn mode: the stepped iteration is shown whole. */
function releaseTurnHold(): void {
  turnHold.release();
  if (get().turnStep) set({ turnStep: null });
}

/** Stop and clear: the next Run starts from iteration 0. */
export function resetRun(): void {
  session.clear();
  commands.clear();
  turnHold.release();
  clock.reset();
  const s = get();
  set({ status: 'idle', live: null, iteration: 0, total: s.plan?.exp.iterations ?? 0, version: s.version + 1, turnStep: null, backend: null, itPerSec: null, elapsed: 0, error: null, lastCommand: 'reset' });
}

/**
 * Change one control. Invalid values only show their message. A valid learning rate or clip
 * applies to the running experiment from the next iteration ("hot"); any other valid change
 * restarts it ("cold"), or just replaces the plan when nothing is running.
 */
export function setDraftValue(path: string, value: unknown): void {
  applyDraft(setPath(get().draft, path, value) as Draft, path);
}

/** Replace the whole draft (structural edits: add/remove an algorithm, switch the environment). */
export function replaceDraft(draft: Draft): void {
  applyDraft(draft, null);
}

function applyDraft(draft: Draft, path: string | null): void {
  const before = get();
  const checked = checkDraft(draft);
  if (!checked.plan) {
    set({ draft, fieldErrors: checked.fieldErrors, configError: checked.configError });
    return;
  }
  const plan = checked.plan;
  if (path !== null && /^algorithms\[\d+\]\.label$/.test(path)) {
    set({ draft, plan, fieldErrors: {}, configError: null }); // a line's name: the runs go on
    return;
  }
  const active = session.active && (before.status === 'running' || before.status === 'paused');
  if (active && path !== null && isHotPath(path) && before.plan) {
    const oldValue = valueOf(before.plan, path, [], Infinity);
    const newValue = valueOf(plan, path, [], Infinity);
    const running = before.status === 'running';
    set({ draft, fieldErrors: {}, configError: null, plan });
    if (oldValue === newValue || newValue === undefined || oldValue === undefined) return;
    enqueue(async () => {
      const at = await session.current!.align();
      session.current!.hot(at, changeValues({ at, path, value: newValue }, plan.exp.algorithms.length));
      const live = get().live;
      const from = (live && valueOf(before.plan!, path, live.changes, at)) ?? oldValue;
      live?.changes.push({ iteration: at, path, from, to: newValue });
      set({ notice: `Applied without restarting: ${path} ${oldValue} → ${newValue} from iteration ${at}.`, version: get().version + 1 });
      if (running && get().status === 'running') runToEnd();
    });
    return;
  }
  const restart = active;
  resetRun();
  set({ draft, plan, fieldErrors: {}, configError: null, total: plan.exp.iterations, status: 'idle' });
  if (restart) {
    const what = path ?? 'The algorithms or environment';
    if (before.status === 'running') {
      startRun();
      set({ notice: `${what} changed: the experiment restarted from iteration 0 (this setting cannot change mid-run).` });
    } else set({ notice: `${what} changed: the experiment was reset to iteration 0 (this setting cannot change mid-run); press Run.` });
  }
}

export function setSpeed(speed: number): void {
  set({ speed });
  session.current?.speed(speed);
}

export const setXAxis = (xAxis: XAxis) => set({ xAxis });
export const setMetric = (metric: MetricName) => set({ metric });

export function setTheme(theme: Theme): void {
  set({ theme });
  try {
    if (theme === 'system') globalThis.localStorage?.removeItem('seeupo-theme');
    else globalThis.localStorage?.setItem('seeupo-theme', theme);
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
}

export const toggleHelp = (open?: boolean) => set({ helpOpen: open ?? !get().helpOpen });
