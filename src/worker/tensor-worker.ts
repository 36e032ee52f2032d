/// <reference lib="webworker" />
// Web Worker entry: selects a tfjs backend and runs a whole experiment on the tensor executor.
// Stopping a run terminates this worker (the page never waits on it).
import { resolveConfig } from '../core/config/resolve';
import { chooseExecutor } from '../core/run/choose';
import { browserBackend } from '../exec/tensor/register-browser';
import { runOnTensor } from '../exec/tensor/run-experiment';
import type { TensorMessage, TensorRequest } from './tensor-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (m: TensorMessage) => scope.postMessage(m);

async function run({ config, progressEvery }: TensorRequest): Promise<void> {
  const exp = resolveConfig(config);
  const choice = chooseExecutor(exp);
  const report = await browserBackend(exp.backend);
  post({ type: 'backend', report });
  const result = await runOnTensor(exp, {
    backend: report.backend,
    reason: `${choice.reason}; ${report.reason}`,
    progressEvery,
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  post({ type: 'done', result });
}

let started = false;
scope.onmessage = (e: MessageEvent<TensorRequest>) => {
  if (started) return post({ type: 'error', message: 'this tensor worker already ran an experiment' });
  started = true;
  run(e.data).catch((err: unknown) => post({ type: 'error', message: err instanceof Error ? err.message : String(err) }));
};
