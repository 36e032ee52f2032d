/// <reference lib="webworker" />
// Web Worker entry: one share of a sweep's cells (core/sweep/run.ts), batched on the CPU executor
// in this thread; a cell that needs the tensor executor (MLP policies) runs on it here too.
import { chooseExecutor, runWith } from '../core/run/choose';
import { parseSweep } from '../core/sweep/cells';
import { shardCells } from '../core/sweep/document';
import { runSweepCells, type SweepExecutors } from '../core/sweep/run';
import { inThisThread, runOnCpu, runShardsOnCpu } from '../exec/cpu/run-experiment';
import type { SweepWorkerEvent, SweepWorkerRequest } from './sweep-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (e: SweepWorkerEvent) => scope.postMessage(e);

const executors: SweepExecutors = {
  batch: (exp, specs, report) => runShardsOnCpu(exp, { exp }, [specs], { threads: 1, launch: inThisThread, onProgress: (p) => report(p.iteration) }),
  single: (exp, config, report) =>
    runWith(chooseExecutor(exp), {
      async webgpu() {
        const { runOnWebGpu } = await import('../exec/webgpu/run-experiment');
        return runOnWebGpu(exp, (p) => report(p.iteration));
      },
      async tensor(choice) {
        const [{ browserBackend }, { runOnTensor }] = await Promise.all([import('../exec/tensor/register-browser'), import('../exec/tensor/run-experiment')]);
        const backend = await browserBackend(exp.backend);
        return runOnTensor(exp, { backend: backend.backend, reason: `${choice.reason}; backend ${backend.backend}: ${backend.reason}`, onProgress: (p) => report(p.iteration) });
      },
      cpu: () => runOnCpu(exp, config, { threads: 1, launch: inThisThread, onProgress: (p) => report(p.iteration) }),
    }),
};

scope.onmessage = async (e: MessageEvent<SweepWorkerRequest>) => {
  try {
    const sweep = parseSweep(e.data.doc);
    const { warnings } = await runSweepCells(sweep, shardCells(sweep.cells, e.data.shard), executors, {
      shard: e.data.shard,
      onProgress: (done, total) => post({ type: 'progress', done, total }),
      onCell: (cell) => post({ type: 'cell', cell }),
    });
    post({ type: 'done', warnings });
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
