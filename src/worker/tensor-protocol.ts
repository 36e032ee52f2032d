import type { ExperimentResult } from '../core/run/result';
import type { Progress } from '../exec/cpu/run-experiment';
import type { BackendReport } from '../exec/tensor/backend';

/** Page → tensor worker: run this config (validated again in the worker). */
export interface TensorRequest {
  config: unknown;
  /** Iterations between progress messages. */
  progressEvery: number;
}

/**
 * Tensor worker → page. `backend` comes once, before the first progress; `progress` has the
 * CPU executor's shape so the chart merges it the same way; `done` or `error` ends the run.
 */
export type TensorMessage =
  | { type: 'backend'; report: BackendReport }
  | { type: 'progress'; progress: Progress }
  | { type: 'done'; result: ExperimentResult }
  | { type: 'error'; message: string };
