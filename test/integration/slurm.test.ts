import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, ROOT } from '../helpers/cli';

// The Slurm recipe end to end on a real one-node cluster (scripts/slurm-up.sh starts one:
// Debian's slurm-wlm and munge on localhost; .ci/run does so before the tests). The sweep's
// shards run as a job array (scripts/sweep-slurm.sh), a dependent job merges them, and the
// merged file equals the unsharded sweep byte for byte; then one array task is cancelled
// midway (after its journal holds a cell), rerun — it resumes from its journal — and the merge
// gives the same bytes. Everything waits on job and journal state, never on times.
// Without a cluster (not root, no apt) this fails in CI (CI=true) and is skipped elsewhere.

const SWEEP = join(ROOT, 'test/fixtures/sweep/durable.json');
const SLURM = join(ROOT, 'scripts/sweep-slurm.sh');
const N = 2;
const CELLS_PER_SHARD = 3;
const CI = process.env.CI === 'true' || process.env.CI === '1';

function sh(cmd: string, args: string[], timeout = 600_000) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout });
  return { code: r.error ? -1 : r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? String(r.error) : '') };
}

/** Start the cluster (idempotent); null when it is up, else why not. */
function clusterUp(): { why: string | null; timings: string } {
  if (process.getuid?.() !== 0 && sh('scontrol', ['ping']).code !== 0) return { why: 'not root, and no Slurm cluster answers scontrol ping', timings: '' };
  const r = sh('sh', [join(ROOT, 'scripts/slurm-up.sh')]);
  const timings = (r.stderr.match(/slurm-up: .*/) ?? [''])[0];
  return { why: r.code === 0 ? null : `scripts/slurm-up.sh failed (exit ${r.code}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`, timings };
}

const up = clusterUp();
if (up.why && CI) throw new Error(`Slurm integration test: no cluster in CI: ${up.why}`);

const sleepPoll = () => new Promise((r) => setTimeout(r, 100));

function jobState(id: string): string {
  const r = sh('scontrol', ['show', 'job', id, '-o']);
  return /JobState=([A-Z_]+)/.exec(r.stdout)?.[1] ?? 'UNKNOWN';
}

/** Poll until `done()` holds; fails after `limitMs` with `what` (a bound on a stuck cluster, not a timing). */
async function until(what: string, done: () => boolean, limitMs = 300_000): Promise<void> {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > limitMs) throw new Error(`waited ${limitMs / 1000}s for ${what}`);
    await sleepPoll();
  }
}

const FINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'OUT_OF_MEMORY', 'NODE_FAIL', 'PREEMPTED', 'BOOT_FAIL', 'DEADLINE'];
const lines = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').length - 1 : 0);

describe.skipIf(up.why !== null)(`Slurm: a sweep as a job array and a dependent merge${up.why ? ` (skipped: ${up.why})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'seeupo-slurm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  ensureBuilt();
  const whole = (() => {
    const r = cli('sweep', SWEEP, '--threads', '1');
    if (r.code !== 0) throw new Error(r.stderr);
    return r.stdout;
  })();

  it('submit → the array runs the shards → the merge job writes the unsharded bytes', async () => {
    const work = join(dir, 'plain');
    const out = join(work, 'merged.json');
    const t0 = Date.now();
    const sub = sh(SLURM, ['submit', SWEEP, String(N), work, out]);
    expect(sub.code, sub.stderr).toBe(0);
    const [array, merge] = sub.stdout.trim().split(' ');
    await until(`merge job ${merge}`, () => FINAL.includes(jobState(merge!)));
    const seconds = (Date.now() - t0) / 1000;
    expect(jobState(merge!), readFileSync(join(work, 'logs/merge.log'), 'utf8')).toBe('COMPLETED');
    for (let i = 0; i < N; i++) expect(jobState(`${array}_${i}`)).toBe('COMPLETED');
    expect(readFileSync(out, 'utf8')).toBe(whole);
    console.log(`slurm: ${up.timings}; submit → merged ${seconds.toFixed(1)}s (${N} shards of ${CELLS_PER_SHARD} cells)`);
  }, 600_000);

  it('a task cancelled midway, rerun: it resumes from its journal and the merge gives the same bytes', async () => {
    const work = join(dir, 'killed');
    const out = join(work, 'merged.json');
    const sub = sh(SLURM, ['submit', SWEEP, String(N), work, out]);
    expect(sub.code, sub.stderr).toBe(0);
    const [array, merge] = sub.stdout.trim().split(' ');
    const task = `${array}_1`;
    const journal = join(work, `shard-1-of-${N}.json.journal`);
    // midway: its journal holds the head and at least one cell, not all of them
    await until(`task ${task} journalling a cell`, () => lines(journal) >= 2 || FINAL.includes(jobState(task)));
    expect(jobState(task)).toBe('RUNNING');
    expect(sh('scancel', [task]).code).toBe(0);
    await until(`task ${task} to end`, () => FINAL.includes(jobState(task)));
    expect(jobState(task)).toBe('CANCELLED');
    const kept = lines(journal);
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(1 + CELLS_PER_SHARD + 1); // not every cell: it was stopped midway
    expect(existsSync(join(work, `shard-1-of-${N}.json`))).toBe(false);
    // the first merge can never start (afterok on a cancelled task): Slurm drops it
    await until(`merge job ${merge} dropped`, () => FINAL.includes(jobState(merge!)) || jobState(merge!) === 'UNKNOWN');
    const t0 = Date.now();
    const again = sh(SLURM, ['rerun', SWEEP, String(N), work, out, '1']);
    expect(again.code, again.stderr).toBe(0);
    const [rerun, merge2] = again.stdout.trim().split(' ');
    await until(`merge job ${merge2}`, () => FINAL.includes(jobState(merge2!)));
    expect(jobState(merge2!), readFileSync(join(work, 'logs/merge.log'), 'utf8')).toBe('COMPLETED');
    expect(jobState(`${rerun}_1`)).toBe('COMPLETED');
    expect(readFileSync(out, 'utf8')).toBe(whole);
    expect(existsSync(journal)).toBe(false);
    console.log(`slurm: cancelled task 1 with ${kept - 1} of ${CELLS_PER_SHARD} cells journalled; rerun → merged ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  }, 600_000);
});
