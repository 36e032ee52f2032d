import type { Experiment } from '../../core/config/resolve';
import type { ExperimentResult } from '../../core/run/result';
import type { Progress } from '../host/progress';
import { nodeBackend } from './register-node';
import { runOnTensor } from './run-experiment';

/** The tensor executor in Node: pick the backend (wasm, else cpu, or the one asked for) and run. */
export async function runTensorInNode(exp: Experiment, why: string, onProgress?: (p: Progress) => void): Promise<ExperimentResult> {
  const report = await nodeBackend(exp.backend);
  return runOnTensor(exp, { backend: report.backend, reason: `${why}; backend ${report.backend}: ${report.reason}`, onProgress });
}
