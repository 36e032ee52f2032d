// The `write` rows of `npm run bench`: the result of the default experiment at 64 seeds (about
// 17 MB of JSON) written by the CLI's streaming writer (src/cli/write-json.ts) against
// JSON.stringify of the whole value plus one write, both to a file, in turn, median of 5,
// wall and CPU time; beside them the same writer with every value piece by piece (whole: 0, the
// writer before subtrees went whole) and --out's writer (writeJsonAtomically: synchronous
// writes, then fsync and a rename, so its wall time holds the disk's flush). The texts must be
// the same bytes.
import { createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { writeJson } from '../src/cli/write-json';
import { writeJsonAtomically } from '../src/cli/sweep-out';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(f: () => Promise<void> | void): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await f();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

export async function writeRows(seeds = 64, reps = 5): Promise<void> {
  const config = { ...DEFAULT_CONFIG, seeds };
  const result = await runOnCpu(resolveConfig(config), config, { threads: 1, launch: inThisThread });
  const a = join(tmpdir(), `seeupo-bench-write-${process.pid}-a.json`);
  const b = join(tmpdir(), `seeupo-bench-write-${process.pid}-b.json`);
  const c = join(tmpdir(), `seeupo-bench-write-${process.pid}-c.json`);
  const d = join(tmpdir(), `seeupo-bench-write-${process.pid}-d.json`);
  const stringify: { wall: number; cpu: number }[] = [];
  const streamed: { wall: number; cpu: number }[] = [];
  const pieceByPiece: { wall: number; cpu: number }[] = [];
  const atomic: { wall: number; cpu: number }[] = [];
  try {
    for (let r = 0; r < reps + 1; r++) {
      const s = await timed(() => writeFileSync(a, JSON.stringify(result) + '\n'));
      const w = await timed(() => writeJson(result, createWriteStream(b), { end: true }));
      const p = await timed(() => writeJson(result, createWriteStream(c), { end: true, whole: 0 }));
      const o = await timed(() => writeJsonAtomically(result, d));
      if (r > 0) (stringify.push(s), streamed.push(w), pieceByPiece.push(p), atomic.push(o)); // the first round warms up
    }
    const same = [b, c, d].every((f) => readFileSync(a).equals(readFileSync(f)));
    const mb = readFileSync(a).length / 1e6;
    console.log(`result writing: the default experiment at ${seeds} seeds (${mb.toFixed(1)} MB), to a file, median of ${reps} rounds (the four writers in turn) after a warm-up round`);
    console.log('writer                                   wall ms    CPU ms');
    const row = (name: string, xs: { wall: number; cpu: number }[]) =>
      console.log(`${name.padEnd(38)}${median(xs.map((x) => x.wall)).toFixed(1).padStart(9)}${median(xs.map((x) => x.cpu)).toFixed(1).padStart(10)}`);
    row('JSON.stringify(result) + one write', stringify);
    row('writeJson (streamed, src/cli)', streamed);
    row('writeJson, every value piece by piece', pieceByPiece);
    row('writeJsonAtomically (--out, fsync)', atomic);
    console.log(`ratio (streamed / stringify, wall) ${(median(streamed.map((x) => x.wall)) / median(stringify.map((x) => x.wall))).toFixed(2)}; bytes ${same ? 'identical' : 'DIFFERENT'}`);
    if (!same) process.exitCode = 1;
  } finally {
    for (const f of [a, b, c, d]) rmSync(f, { force: true });
  }
}
