import { create } from 'zustand';
import { runOnCpu, type ShardLauncher } from '../exec/cpu/run-experiment';
import type { ExperimentResult } from '../core/run/result';
import type { BackendReport } from '../exec/tensor/backend';
import { browserThreads, launchInWebWorker } from '../worker/browser-launcher';
import { launchTensorWorker } from '../worker/tensor-launcher';
import { configFromForm, DEFAULT_FORM, fieldOf, type Field, type FormValues } from './form';
import { planExperiment, type Plan } from './plan';
import { meansFromResult, SeedMeans, type ChartRow } from './stream';

export type Status = 'idle' | 'running' | 'done' | 'stopped' | 'error';

export interface AppState {
  /** The controls' current values (may be invalid: see fieldErrors / configError). */
  form: FormValues;
  /** resolveConfig's message for the control it blames. */
  fieldErrors: Partial<Record<Field, string>>;
  /** A config error that no control owns (shown in the error banner). */
  configError: string | null;
  /** The last valid plan; runs start only when the controls are valid too. */
  plan: Plan | null;
  status: Status;
  /** Iterations every run has completed. */
  iteration: number;
  total: number;
  chart: ChartRow[];
  result: ExperimentResult | null;
  /** The tfjs backend of the current or last tensor-executor run. */
  backend: BackendReport | null;
  error: string | null;
}

/** Iterations between a shard's progress messages. */
const PROGRESS_EVERY = 5;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

const cleared = { status: 'idle' as Status, iteration: 0, chart: [] as ChartRow[], result: null, backend: null, error: null };

function initialState(): AppState {
  const base = { ...cleared, form: DEFAULT_FORM, fieldErrors: {}, configError: null };
  try {
    const plan = planExperiment(configFromForm(DEFAULT_FORM), browserThreads());
    return { ...base, plan, total: plan.exp.iterations };
  } catch (e) {
    return { ...base, plan: null, total: 0, status: 'error', error: `The default experiment is invalid: ${message(e)}` };
  }
}

export const useApp = create<AppState>()(() => initialState());

/** True when the controls are valid and nothing is running. */
export const canRun = (s: AppState) =>
  s.plan !== null && s.status !== 'running' && s.configError === null && Object.keys(s.fieldErrors).length === 0;

/** Change one control: re-validate through resolveConfig; a valid change replaces the plan and clears the last run. */
export function setField<K extends Field>(field: K, value: FormValues[K]): void {
  const s = useApp.getState();
  if (s.status === 'running') return;
  const form = { ...s.form, [field]: value };
  try {
    const plan = planExperiment(configFromForm(form), browserThreads());
    useApp.setState({ ...cleared, form, plan, total: plan.exp.iterations, fieldErrors: {}, configError: null });
  } catch (e) {
    const f = fieldOf(e);
    useApp.setState({ form, fieldErrors: f ? { [f]: message(e) } : {}, configError: f ? null : `Invalid settings: ${message(e)}` });
  }
}

/** Calls `fn` once at the next frame however often it is asked in between. */
function frameBatcher(fn: () => void): { request(): void; cancel(): void } {
  let handle: number | null = null;
  const tick = () => {
    handle = null;
    fn();
  };
  return {
    request() {
      if (handle === null) handle = requestAnimationFrame(tick);
    },
    cancel() {
      if (handle !== null) cancelAnimationFrame(handle);
      handle = null;
    },
  };
}

let currentRun = 0;
/** Cancels the current run's workers. */
let cancelCurrent: (() => void) | null = null;

/**
 * Run the planned experiment in Web Workers, on the executor the plan chose: the CPU executor
 * (one worker per shard) or the tensor executor (one worker, tfjs). Progress is merged into a
 * plain accumulator as it arrives and pushed to the store at most once per animation frame.
 */
export function startRun(): void {
  const state = useApp.getState();
  const { plan } = state;
  if (!plan || !canRun(state)) return;
  const id = ++currentRun;
  const { exp } = plan;
  const means = new SeedMeans(exp.algorithms.length, exp.seeds, exp.iterations);
  let iteration = 0;
  const live = () => id === currentRun;
  const frame = frameBatcher(() => {
    if (live()) useApp.setState({ iteration, chart: means.rows() });
  });
  const progress = (p: { iteration: number; latest: Parameters<SeedMeans['add']>[0] }) => {
    means.add(p.latest);
    iteration = p.iteration;
    frame.request();
  };
  const finish = (result: ExperimentResult) => {
    frame.cancel();
    if (!live()) return;
    cancelCurrent = null;
    useApp.setState({ status: 'done', iteration: result.iterations, chart: meansFromResult(result), result });
  };
  const fail = (e: unknown) => {
    frame.cancel();
    if (!live()) return;
    cancelCurrent = null;
    useApp.setState({ status: 'error', error: `The run failed on the ${plan.choice.executor === 'cpu' ? 'CPU' : 'tensor'} executor: ${message(e)}` });
  };
  useApp.setState({ ...cleared, status: 'running', total: exp.iterations });

  if (plan.choice.executor === 'tensor') {
    const handle = launchTensorWorker({ config: plan.config, progressEvery: PROGRESS_EVERY }, (m) => {
      if (!live()) return;
      if (m.type === 'backend') useApp.setState({ backend: m.report });
      else if (m.type === 'progress') progress(m.progress);
      else if (m.type === 'done') finish(m.result);
      else fail(m.message);
    });
    cancelCurrent = () => {
      frame.cancel();
      handle.cancel();
    };
    return;
  }
  const handles: { cancel(): void }[] = [];
  const launch: ShardLauncher = (req, onMessage) => {
    const h = launchInWebWorker(req, onMessage);
    handles.push(h);
    return h;
  };
  cancelCurrent = () => {
    frame.cancel();
    handles.forEach((h) => h.cancel());
  };
  runOnCpu(exp, plan.config, { threads: plan.threads, launch, progressEvery: PROGRESS_EVERY, onProgress: progress }).then(finish, fail);
}

/** Stop the running experiment: its workers are terminated and what it drew so far stays. */
export function stopRun(): void {
  if (useApp.getState().status !== 'running') return;
  currentRun++;
  cancelCurrent?.();
  cancelCurrent = null;
  useApp.setState({ status: 'stopped' });
}
