import { CLAIMS_RULES } from '../core/claims';
import { quote } from '../core/config/fields';
import { cellConfig, parseSweep, type Sweep } from '../core/sweep/cells';
import { shardCells, textDigest, type SweepCell, type SweepOutput, type SweepShardOutput } from '../core/sweep/document';
import { mergeShards } from '../core/sweep/merge';

type Shard = { index: number; count: number };
import type { Args } from './args';
import { InputError } from './errors';
import { readJson, showPath } from './inputs';
import { progressBar } from './progress';
import { openJournal, type Journal } from './sweep-journal';
import { withInterrupts, writeJsonAtomically } from './sweep-out';
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

/** The digest shards and journals carry: the sweep document (base and axes) it was run from. */
/**
 * The digest shards and journals carry: of the sweep (base and axes) and of the claims rules
 * version its verdicts are decided by, so cells decided by two versions of the rules
 * (docs/claims.md) are never merged or resumed together.
 */
export const sweepDigest = (sweep: Sweep) => textDigest(JSON.stringify({ base: sweep.base, axes: sweep.axes, claimsRules: CLAIMS_RULES }));

/** Runs·iterations of a journalled sweep's batch (batch.ts planJobs): a few seconds of one thread, the most an interrupt loses. */
export const JOURNAL_BATCH_RUN_ITERATIONS = 1 << 18;

/**
 * Runs the sweep (or prints a cell's config). Returns the document to print on stdout, or null
 * when it has written --out itself: with --out the sweep is a durable job (sweep-journal.ts),
 * each finished cell journalled beside FILE, SIGINT/SIGTERM leave the journal whole, and FILE is
 * written atomically (sweep-out.ts) before the journal is removed.
 */
export async function sweepCommand(args: Args, threads: number, dist: URL): Promise<unknown> {
  if (!args.file) throw new InputError('sweep: give the sweep file: seeupo-explorer sweep SWEEP.json [--shard I/N] [--out FILE] [--resume]');
  if (args.cell !== undefined && args.shard !== undefined) throw new InputError('sweep: give --cell K (print one cell\'s config) or --shard I/N (run a share of the cells), not both');
  if (args.cell !== undefined && args.resume) throw new InputError('--resume: continues a sweep run with --out; --cell K only prints a config');
  if (args.resume && args.out === undefined) throw new InputError('--resume: give --out FILE too: the journal it continues is FILE.journal, beside the output');
  const shard = args.shard === undefined ? null : parseShard(args.shard);
  if (args.cell !== undefined) {
    const k = /^[0-9]{1,5}$/.test(args.cell) ? Number(args.cell) : NaN;
    // the cell index is checked against the axes alone, and only that cell is resolved
    const sweep = parseSweep(readJson(args.file), { resolve: Number.isInteger(k) ? k : -1 });
    if (!(k < sweep.cells)) throw new InputError(`--cell: must be a cell index from 0 to ${sweep.cells - 1} (the sweep has ${sweep.cells} cells), got ${quote(args.cell)}`);
    return cellConfig(sweep, k);
  }
  const sweep = parseSweep(readJson(args.file));
  const mine = shardCells(sweep.cells, shard);
  const out = args.out;
  if (out === undefined) return finishSweep(sweep, shard, null, await runCells(sweep, shard, mine, threads, dist, null));
  // the signal handlers go in before the journal exists: a signal from then on leaves it whole
  let journal: Journal | null = null;
  let finished = 0;
  const stopped = () =>
    journal
      ? `${finished} of ${mine.length} cells are in the journal ${showPath(journal.path)}; run the same command with --resume to finish (only the missing cells run)`
      : 'nothing was run';
  return withInterrupts(stopped, async () => {
    try {
      journal = openJournal(out, { journal: 1, sweep: sweepDigest(sweep), shard: shard ? `${shard.index}/${shard.count}` : null, cells: sweep.cells }, sweep.axes, (c) => (shard ? c % shard.count === shard.index : true), args.resume);
      const j = journal;
      finished = j.done.length;
      const have = new Set(j.done.map((c) => c.index));
      const ran = await runCells(sweep, shard, mine.filter((c) => !have.has(c)), threads, dist, (cell) => {
        j.append(cell);
        finished++;
      });
      const doc = finishSweep(sweep, shard, j.done, ran);
      await writeJsonAtomically(doc, out);
      j.remove();
      return null;
    } finally {
      journal?.close();
    }
  });
}

async function runCells(sweep: Sweep, shard: Shard | null, todo: number[], threads: number, dist: URL, onCell: ((cell: SweepCell) => void) | null) {
  const bar = progressBar(shard ? `sweep ${shard.index}/${shard.count}` : 'sweep');
  const r = await runSweepCellsInNode(sweep, todo, {
    threads,
    workers: threads > 1 ? dist : null,
    shard,
    onProgress: (done, total) => bar.update({ iteration: done, total, latest: [] }),
    onCell: onCell ?? undefined,
    maxBatchRunIterations: onCell ? JOURNAL_BATCH_RUN_ITERATIONS : undefined,
  });
  bar.end();
  return r;
}

/** The document `sweep` prints: the journalled cells and those just run, in index order. */
function finishSweep(sweep: Sweep, shard: Shard | null, journalled: SweepCell[] | null, ran: { cells: SweepCell[]; warnings: string[] }): SweepOutput | SweepShardOutput {
  for (const w of ran.warnings) process.stderr.write(`warning: ${w}\n`);
  const cells = [...(journalled ?? []), ...ran.cells].sort((a, b) => a.index - b.index);
  if (!shard) return { version: 1, axes: sweep.axes, cells } satisfies SweepOutput;
  return { version: 1, axes: sweep.axes, shard: { index: shard.index, count: shard.count, cells: sweep.cells, sweep: sweepDigest(sweep) }, cells } satisfies SweepShardOutput;
}

export function mergeCommand(args: Args): SweepOutput {
  if (args.files.length === 0) throw new InputError('merge: give the shards\' output files: seeupo-explorer merge SHARD.json ... [--out FILE]');
  return mergeShards(
    args.files.map((f) => readJson(f)),
    args.files.map(showPath),
  );
}
