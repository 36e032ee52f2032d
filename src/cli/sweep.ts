import { quote } from '../core/config/fields';
import { cellConfig, parseSweep } from '../core/sweep/cells';
import { CLAIMS_RULES } from '../core/claims';
import { mergeShards, shardCells, textDigest, type SweepOutput, type SweepShardOutput } from '../core/sweep/document';
import type { Args } from './args';
import { InputError } from './errors';
import { readJson, showPath } from './inputs';
import { progressBar } from './progress';
import { runSweepCellsInNode } from './sweep-run';

// `seeupo-explorer sweep SWEEP.json [--shard I/N] [--cell K]` and `seeupo-explorer merge SHARD.json ...`
// (docs/sweeps.md). Both return the document to print; main.ts writes it.

/** --shard I/N: N from 1 to 4096 and I from 0 to N − 1, plain digits. */
export function parseShard(value: string): { index: number; count: number } {
  const m = /^([0-9]{1,4})\/([0-9]{1,4})$/.exec(value);
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || count < 1 || count > 4096 || index >= count)
    throw new InputError(`--shard: must be I/N with N from 1 to 4096 and I from 0 to N−1 (shard I runs cells I, I+N, I+2N, …), e.g. --shard 0/4, got ${quote(value)}`);
  return { index, count };
}

export async function sweepCommand(args: Args, threads: number, dist: URL): Promise<unknown> {
  if (!args.file) throw new InputError('sweep: give the sweep file: seeupo-explorer sweep SWEEP.json [--shard I/N] [--out FILE]');
  if (args.cell !== undefined && args.shard !== undefined) throw new InputError('sweep: give --cell K (print one cell\'s config) or --shard I/N (run a share of the cells), not both');
  const shard = args.shard === undefined ? null : parseShard(args.shard);
  const sweep = parseSweep(readJson(args.file));
  if (args.cell !== undefined) {
    const k = /^[0-9]{1,5}$/.test(args.cell) ? Number(args.cell) : NaN;
    if (!(k < sweep.cells)) throw new InputError(`--cell: must be a cell index from 0 to ${sweep.cells - 1} (the sweep has ${sweep.cells} cells), got ${quote(args.cell)}`);
    return cellConfig(sweep, k);
  }
  const bar = progressBar(process.stderr, shard ? `sweep ${shard.index}/${shard.count}` : 'sweep');
  const { cells, warnings } = await runSweepCellsInNode(sweep, shardCells(sweep.cells, shard), {
    threads,
    workers: threads > 1 ? dist : null,
    shard,
    onProgress: (done, total) => bar.update({ iteration: done, total, latest: [] }),
  });
  bar.end();
  for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
  if (!shard) return { version: 1, axes: sweep.axes, cells } satisfies SweepOutput;
  const digest = textDigest(JSON.stringify({ base: sweep.base, axes: sweep.axes }));
  return { version: 1, axes: sweep.axes, shard: { index: shard.index, count: shard.count, cells: sweep.cells, sweep: digest, claimsRules: CLAIMS_RULES }, cells } satisfies SweepShardOutput;
}

export function mergeCommand(args: Args): SweepOutput {
  if (args.files.length === 0) throw new InputError('merge: give the shards\' output files: seeupo-explorer merge SHARD.json ... [--out FILE]');
  return mergeShards(
    args.files.map((f) => readJson(f)),
    args.files.map(showPath),
  );
}
