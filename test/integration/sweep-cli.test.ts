import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, useCliScratch } from '../helpers/cli';

// `seeupo-explorer sweep` and `merge` as separate processes: merged shards equal the
// unsharded output byte for byte, every cell equals `run` of that cell, the shard syntax is
// checked strictly, and scripts/sweep-parallel.sh (xargs -P, and the shard mode a Kubernetes
// Indexed Job or a Slurm array runs) gives the same bytes.

const tmp = useCliScratch();
const TINY = join(ROOT, 'test/fixtures/sweep/tiny.json');
const SCRIPT = join(ROOT, 'scripts/sweep-parallel.sh');

interface Cell {
  index: number;
  values: unknown[];
  Jstar: number;
  algorithms: { id: string; finalJ: unknown; atOptimum: number; violations: number; medianItersTo95: number | null; claims: unknown[] }[];
}

function sweep(...args: string[]): string {
  const r = cli('sweep', TINY, ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

function oneLine(r: { code: number | null; stderr: string }, ...mentions: string[]) {
  expect(r.code).toBe(2);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  for (const m of mentions) expect(r.stderr).toContain(m);
}

describe('sweep and merge (separate processes)', () => {
  it('merged shards equal the unsharded output byte for byte, whatever the split', () => {
    const whole = sweep('--threads', '2');
    const doc = JSON.parse(whole) as { axes: unknown; cells: Cell[] };
    expect(doc.axes).toEqual([
      { path: 'optimizer.lr', values: [0.1, 1, 10] },
      { path: 'algorithms.*.normalization', values: ['group', 'batch'] },
    ]);
    expect(doc.cells.map((c) => [c.index, c.values])).toEqual([[0, [0.1, 'group']], [1, [0.1, 'batch']], [2, [1, 'group']], [3, [1, 'batch']], [4, [10, 'group']], [5, [10, 'batch']]]);
    for (const n of [1, 4, 7]) {
      const files = Array.from({ length: n }, (_, i) => {
        const f = join(tmp.dir, `shard-${i}-of-${n}.json`);
        const r = cli('sweep', TINY, '--shard', `${i}/${n}`, '--threads', '1', '--out', f);
        expect(r.code, r.stderr).toBe(0);
        return f;
      });
      const merged = cli('merge', ...files.reverse());
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.stdout).toBe(whole);
    }
  });

  it('every number of every cell is what `run` gives for the cell (sweep --cell K prints its config)', () => {
    const doc = JSON.parse(sweep()) as { cells: Cell[] };
    for (const cell of doc.cells) {
      const config = cli('sweep', TINY, '--cell', String(cell.index));
      expect(config.code).toBe(0);
      const r = cli('run', tmp.file(`cell-${cell.index}.json`, config.stdout), '--threads', '1');
      expect(r.code, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout) as {
        Jstar: number;
        claims: { claim: number; verdict: string; parts?: { part: string; verdict: string }[]; evidence: { algorithms: { id: string }[] } }[];
        algorithms: { id: string; summary: { finalJ: unknown; atOptimum: number; violations: number; medianItersTo95: number | null } }[];
      };
      expect(cell.Jstar).toBe(result.Jstar);
      expect(cell.algorithms).toEqual(
        result.algorithms.map((a) => ({
          id: a.id,
          finalJ: a.summary.finalJ,
          atOptimum: a.summary.atOptimum,
          violations: a.summary.violations,
          medianItersTo95: a.summary.medianItersTo95,
          claims: result.claims
            .filter((c) => c.evidence.algorithms.some((e) => e.id === a.id))
            .map((c) => ({ claim: c.claim, verdict: c.verdict, ...(c.parts ? { parts: c.parts.map((p) => ({ part: p.part, verdict: p.verdict })) } : {}) })),
        })),
      );
    }
    // the numbers are not all alike: the axes move them
    expect(new Set(doc.cells.map((c) => JSON.stringify(c.algorithms.map((a) => a.finalJ)))).size).toBe(6);
  });

  it('MLP cells (the per-cell fallback on the tensor executor) equal `run` of the cell too', () => {
    const file = tmp.file('mlp-sweep.json', {
      version: 1,
      base: { version: 1, env: { preset: 'lock' }, mode: 'sampled', iterations: 6, seeds: 2, policy: { kind: 'mlp', hidden: [8] }, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] },
      axes: [{ path: 'optimizer.lr', values: [0.3, 1] }],
    });
    const r = cli('sweep', file, '--threads', '1');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { cells: Cell[] };
    for (const cell of doc.cells) {
      const alone = JSON.parse(cli('run', tmp.file(`mlp-${cell.index}.json`, cli('sweep', file, '--cell', String(cell.index)).stdout)).stdout) as {
        Jstar: number;
        algorithms: { id: string; summary: { finalJ: unknown; atOptimum: number; violations: number; medianItersTo95: number | null } }[];
      };
      expect(cell.Jstar).toBe(alone.Jstar);
      const { finalJ, atOptimum, violations, medianItersTo95 } = alone.algorithms[0]!.summary;
      expect(cell.algorithms.map(({ claims: _, ...a }) => a)).toEqual(
        alone.algorithms.map((a) => ({ id: a.id, finalJ: a.summary.finalJ, atOptimum: a.summary.atOptimum, violations: a.summary.violations, medianItersTo95: a.summary.medianItersTo95 })),
      );
      expect([finalJ, atOptimum, violations, medianItersTo95]).not.toContain(undefined);
    }
  });

  it('--shard is checked strictly; merge refuses an incomplete or mixed set', () => {
    for (const bad of ['3/3', '1/0', '-1/2', '1/x', '1', '1/2/3', ' 1/2', '01/99999'])
      oneLine(cli('sweep', TINY, `--shard=${bad}`), '--shard: must be I/N with N from 1 to 4096 and I from 0 to N−1');
    oneLine(cli('sweep', TINY, '--shard'), '--shard: give a value');
    oneLine(cli('sweep', TINY, '--shard', '0/2', '--shard', '1/2'), '--shard: given twice');
    oneLine(cli('run', TINY, '--shard', '0/2'), '--shard: not an option of run');
    oneLine(cli('sweep', TINY, '--cell', '6'), '--cell: must be a cell index from 0 to 5');
    oneLine(cli('sweep', TINY, 'extra.json'), 'sweep: unexpected argument extra.json');
    const a = join(tmp.dir, 'a.json');
    expect(cli('sweep', TINY, '--shard', '0/2', '--out', a).code).toBe(0);
    oneLine(cli('merge', a), 'merge: shard 1/2 missing');
    oneLine(cli('merge', a, a), 'shard 0/2 is given twice');
    oneLine(cli('merge', TINY), 'is not the output of seeupo-explorer sweep');
    oneLine(cli('merge'), 'merge: give the shards');
    // a 100-byte shard claiming 10⁹ cells: refused from its head, nothing allocated (it once died with V8 "invalid size", exit 133)
    const huge = tmp.file('huge.json', { version: 1, axes: [{ path: 'seeds', values: [1] }], shard: { index: 0, count: 1, cells: 1e9, sweep: '0123456789abcdef' }, cells: [] });
    oneLine(cli('merge', huge), 'huge.json: shard.cells: must be a whole number from 1 to 4,096');
  });

  it('scripts/sweep-parallel.sh: xargs -P 2 over 3 shards, and the shard mode of a Kubernetes Indexed Job / Slurm array, give the same bytes', () => {
    const whole = sweep();
    const env = { ...process.env, NO_COLOR: '1' };
    const run = (args: string[], extra: Record<string, string> = {}) => {
      const r = spawnSync('sh', [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...env, ...extra }, timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
    };
    const local = join(tmp.dir, 'local.json');
    run(['local', TINY, '3', local, '2']);
    expect(readFileSync(local, 'utf8')).toBe(whole);
    // as an indexed job would: each shard with its index in the engine's variable, then one merge
    const dir = join(tmp.dir, 'engine');
    run(['shard', TINY, '3', dir], { JOB_COMPLETION_INDEX: '0' });
    run(['shard', TINY, '3', dir], { SLURM_ARRAY_TASK_ID: '1' });
    run(['shard', TINY, '3', dir], { JOB_COMPLETION_INDEX: '2' });
    const merged = join(tmp.dir, 'merged.json');
    run(['merge', '3', dir, merged]);
    expect(readFileSync(merged, 'utf8')).toBe(whole);
    const r = spawnSync('sh', [SCRIPT, 'shard', TINY, '3', dir], { cwd: ROOT, encoding: 'utf8', env: { ...env, JOB_COMPLETION_INDEX: '', SLURM_ARRAY_TASK_ID: '', SHARD_INDEX: '' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no shard index');
  });
});
