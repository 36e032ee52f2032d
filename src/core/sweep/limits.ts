import { ConfigError } from '../config/fields';
import { tensorWork, workEstimate, type Experiment } from '../config/resolve';
import { LIMITS } from '../config/schema';
import { chooseExecutor } from '../run/choose';
import type { Sweep } from './cells';

// The work limit of one experiment (resolve.ts: LIMITS.maxWork token-updates on the CPU executor,
// LIMITS.maxNetworkWork multiply-adds on the tensor executor) applies to what one invocation of
// `sweep` computes: every cell it runs together, as they run together. Checked before anything runs.

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Throws a ConfigError (exit 2) naming the axes and the size when the cells this invocation runs
 * (`exps`, resolved) need more than one experiment may; `shard` is "I/N" when sharded.
 */
export function checkSweepWork(sweep: Pick<Sweep, 'axes' | 'cells'>, exps: Experiment[], shard: { index: number; count: number } | null): void {
  const totals = emptyWork();
  for (const exp of exps) addWork(totals, exp);
  checkSweepWorkTotals(sweep, totals, shard);
}

/** The work of some cells, summed (what checkSweepWork needs of each, so the cells themselves need not be kept). */
export interface SweepWork {
  cpu: number;
  tensor: number;
  runs: number;
  cells: number;
}
export const emptyWork = (): SweepWork => ({ cpu: 0, tensor: 0, runs: 0, cells: 0 });

export function addWork(w: SweepWork, exp: Experiment): void {
  w.cells++;
  w.runs += exp.algorithms.length * exp.seedIndices.length;
  // the WebGPU executor runs the CPU executor's tabular work (token-updates), on a GPU
  if (chooseExecutor(exp).executor === 'tensor') w.tensor += tensorWork(exp).total;
  else w.cpu += workEstimate(exp);
}

/** checkSweepWork on summed work. */
export function checkSweepWorkTotals(sweep: Pick<Sweep, 'axes' | 'cells'>, totals: SweepWork, shard: { index: number; count: number } | null): void {
  const { cpu, tensor, runs } = totals;
  const cpuShare = cpu / LIMITS.maxWork;
  const tensorShare = tensor / LIMITS.maxNetworkWork;
  const share = Math.max(cpuShare, tensorShare);
  if (share <= 1) return;
  const axes = sweep.axes.map((a) => `${a.path} (${a.values.length} value${a.values.length === 1 ? '' : 's'})`).join(' × ');
  const what = shard
    ? `shard ${shard.index}/${shard.count} of ${axes} = ${count(sweep.cells)} cells runs ${count(totals.cells)} cells, ${count(runs)} runs`
    : `${axes} = ${count(sweep.cells)} cells, ${count(runs)} runs`;
  const [need, limit] =
    cpuShare >= tensorShare
      ? [`${cpu.toExponential(2)} token-updates`, `${LIMITS.maxWork.toExponential(0)} token-updates`]
      : [`${tensor.toExponential(2)} multiply-adds on the tensor executor`, `${LIMITS.maxNetworkWork.toExponential(0)} multiply-adds`];
  const shards = Math.ceil(share * (shard?.count ?? 1));
  throw new ConfigError(
    'axes',
    `${what}: about ${need}; the limit is ${limit} per invocation (a few minutes of compute, as for one experiment): use fewer values, seeds or iterations, or split the sweep with --shard I/N (N ≥ ${count(shards)})`,
  );
}
