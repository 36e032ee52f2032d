import { create } from 'zustand';
import { runOnCpu } from '../exec/cpu/run-experiment';
import type { ExperimentResult } from '../core/run/result';
import { DEFAULT_CONFIG } from '../core/config/defaults';
import { browserThreads, launchInWebWorker } from '../worker/browser-launcher';
import { planExperiment, type Plan } from './plan';
import { meansFromResult, SeedMeans, type ChartRow } from './stream';

export type Status = 'idle' | 'running' | 'done' | 'error';

export interface AppState {
  plan: Plan | null;
  status: Status;
  /** Iterations every run has completed. */
  iteration: number;
  total: number;
  chart: ChartRow[];
  result: ExperimentResult | null;
  error: string | null;
}

/** Iterations between a shard's progress messages. */
const PROGRESS_EVERY = 5;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function initialState(): AppState {
  const base = { status: 'idle' as Status, iteration: 0, chart: [], result: null, error: null };
  try {
    const plan = planExperiment(DEFAULT_CONFIG, browserThreads());
    return { ...base, plan, total: plan.exp.iterations };
  } catch (e) {
    return { ...base, plan: null, total: 0, status: 'error', error: `The default experiment is invalid: ${message(e)}` };
  }
}

export const useApp = create<AppState>()(() => initialState());

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

/**
 * Run the planned experiment in Web Workers. Progress is merged into a plain accumulator as it
 * arrives and pushed to the store at most once per animation frame.
 */
export function startRun(): void {
  const { plan, status } = useApp.getState();
  if (!plan || status === 'running') return;
  const id = ++currentRun;
  const { exp } = plan;
  const means = new SeedMeans(exp.algorithms.length, exp.seeds, exp.iterations);
  let iteration = 0;
  const frame = frameBatcher(() => {
    if (id === currentRun) useApp.setState({ iteration, chart: means.rows() });
  });
  useApp.setState({ status: 'running', iteration: 0, total: exp.iterations, chart: [], result: null, error: null });
  runOnCpu(exp, plan.config, {
    threads: plan.threads,
    launch: launchInWebWorker,
    progressEvery: PROGRESS_EVERY,
    onProgress: (p) => {
      means.add(p.latest);
      iteration = p.iteration;
      frame.request();
    },
  }).then(
    (result) => {
      frame.cancel();
      if (id !== currentRun) return;
      useApp.setState({ status: 'done', iteration: result.iterations, chart: meansFromResult(result), result });
    },
    (e: unknown) => {
      frame.cancel();
      if (id !== currentRun) return;
      useApp.setState({ status: 'error', error: `The run failed: ${message(e)}` });
    },
  );
}
