import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIN, cli, ROOT, useCliScratch } from '../helpers/cli';

// A sweep with --out is a durable job (docs/sweeps.md "Interrupted sweeps"): each finished cell
// is journalled beside FILE as it completes; SIGINT or SIGKILL at any point, then `--resume`,
// gives the bytes of a run never interrupted; --out is checked before any work and written
// atomically. Waits on state (the journal's line count), never on times.

const tmp = useCliScratch();
// 6 cells (seeds × groupSize: each its own batch, so cells finish one by one)
const DURABLE = join(ROOT, 'test/fixtures/sweep/durable.json');
const CELLS = 6;

let whole: string | null = null;
function uninterrupted(): string {
  if (whole === null) {
    const r = cli('sweep', DURABLE, '--threads', '1');
    expect(r.code, r.stderr).toBe(0);
    whole = r.stdout;
  }
  return whole;
}

const lines = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').length - 1 : 0);

/** Start the sweep, wait until its journal has `k` lines (head + k − 1 cells), send `signal`; resolves with how it ended. */
function interruptAt(out: string, k: number, signal: 'SIGINT' | 'SIGKILL' | 'SIGTERM', threads = '1'): Promise<{ code: number | null; signal: string | null; stderr: string; linesAtKill: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sweep', DURABLE, '--threads', threads, '--out', out, '--resume'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let linesAtKill = -1;
    const journal = `${out}.journal`;
    // a resumed run starts from the lines already there: wait for a line of its own (its signal handlers are in by then)
    const at = Math.max(k, lines(journal) + 1);
    const poll = setInterval(() => {
      const n = lines(journal);
      if (linesAtKill < 0 && n >= at) {
        linesAtKill = n;
        child.kill(signal);
      }
    }, 2);
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      clearInterval(poll);
      resolve({ code, signal: sig, stderr, linesAtKill });
    });
  });
}

describe('sweep --out: a durable job', () => {
  it('SIGINT or SIGKILL at a random point, then --resume, gives the uninterrupted bytes (property over kill points)', async () => {
    const expected = uninterrupted();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ at: fc.integer({ min: 1, max: CELLS }), signal: fc.constantFrom('SIGINT' as const, 'SIGKILL' as const) }), { minLength: 1, maxLength: 2 }), async (kills) => {
        const dir = join(tmp.dir, `prop-${run++}`);
        mkdirSync(dir);
        const out = join(dir, 'out.json');
        for (const { at, signal } of kills) {
          const r = await interruptAt(out, at, signal);
          if (r.linesAtKill < 0 || r.code === 0) continue; // it finished first (an earlier resume had little left): nothing interrupted
          if (signal === 'SIGINT') {
            expect(r.code, r.stderr).toBe(130);
            expect(r.stderr).toContain('--resume');
          } else expect(r.signal).toBe('SIGKILL');
          // never a half-written output, never a stray temporary file
          expect(existsSync(out)).toBe(false);
          expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
          expect(lines(`${out}.journal`)).toBeGreaterThanOrEqual(r.linesAtKill);
        }
        const done = cli('sweep', DURABLE, '--threads', '1', '--out', out, '--resume');
        expect(done.code, done.stderr).toBe(0);
        expect(readFileSync(out, 'utf8')).toBe(expected);
        expect(existsSync(`${out}.journal`)).toBe(false); // removed once the output is written
      }),
      { numRuns: 4, seed: 2811, endOnFailure: true },
    );
  }, 300_000);

  it('interrupted twice: the resumed run appends after the cells read back, the head stays the first line', async () => {
    const out = join(tmp.dir, 'twice.json');
    const first = await interruptAt(out, 2, 'SIGINT');
    expect(first.code, first.stderr).toBe(130);
    const second = await interruptAt(out, 4, 'SIGINT');
    expect(second.code, second.stderr).toBe(130);
    const journal = readFileSync(`${out}.journal`, 'utf8').split('\n').slice(0, -1);
    expect(JSON.parse(journal[0]!)).toMatchObject({ journal: 1, cells: CELLS });
    expect(journal.length).toBeGreaterThanOrEqual(4);
    expect(new Set(journal.slice(1).map((l) => JSON.parse(l).index)).size).toBe(journal.length - 1);
    const done = cli('sweep', DURABLE, '--threads', '1', '--out', out, '--resume');
    expect(done.code, done.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(uninterrupted());
  }, 120_000);

  it('SIGTERM on worker threads: exit 143, the journal intact, --resume finishes with the same bytes', async () => {
    const out = join(tmp.dir, 'term.json');
    const r = await interruptAt(out, 2, 'SIGTERM', '2');
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/terminated: \d of 6 cells are in the journal/);
    const done = cli('sweep', DURABLE, '--threads', '2', '--out', out, '--resume');
    expect(done.code, done.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(uninterrupted());
  }, 120_000);

  it('a torn last journal line (killed mid-write) is dropped; a journal of another sweep or a tampered cell is refused', () => {
    const out = join(tmp.dir, 'torn.json');
    const j = `${out}.journal`;
    const cells = (JSON.parse(uninterrupted()) as { cells: unknown[] }).cells;
    const full = cli('sweep', DURABLE, '--cell', '0'); // warms nothing; checks --cell still works with the journal code
    expect(full.code).toBe(0);
    // head + cell 0 + half of cell 1
    const head = readJournalHead();
    writeFileSync(j, `${head}\n${JSON.stringify(cells[0])}\n${JSON.stringify(cells[1]).slice(0, 50)}`);
    const r = cli('sweep', DURABLE, '--threads', '1', '--out', out, '--resume');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(uninterrupted());
    // another sweep's journal
    writeFileSync(j, `${head.replace(/"sweep":"[0-9a-f]+"/, '"sweep":"0123456789abcdef"')}\n`);
    const other = cli('sweep', DURABLE, '--threads', '1', '--out', out, '--resume');
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('torn.json.journal: line 1');
    // a cell whose values are not its own
    const bad = { ...(cells[0] as object), values: [999, 8] };
    writeFileSync(j, `${head}\n${JSON.stringify(bad)}\n`);
    const tampered = cli('sweep', DURABLE, '--threads', '1', '--out', out, '--resume');
    expect(tampered.code).toBe(2);
    expect(tampered.stderr).toContain('line 2.values');
  }, 120_000);

  it('without --resume an existing journal is never overwritten; --resume needs --out', () => {
    const out = join(tmp.dir, 'kept.json');
    writeFileSync(`${out}.journal`, `${readJournalHead()}\n`);
    const r = cli('sweep', DURABLE, '--threads', '1', '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('add --resume');
    expect(readFileSync(`${out}.journal`, 'utf8')).toBe(`${readJournalHead()}\n`);
    const noOut = cli('sweep', DURABLE, '--resume');
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--resume: give --out FILE');
  });
});

/** The journal head this sweep writes (read off a fresh journal of a run stopped at once). */
let headLine: string | null = null;
function readJournalHead(): string {
  if (headLine === null) {
    const out = join(tmp.dir, 'head.json');
    const r = cli('sweep', DURABLE, '--threads', '1', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    // the run finished and removed its journal; rebuild the head the same way sweep.ts does
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { cells: unknown[] };
    expect(doc.cells).toHaveLength(CELLS);
    const shard = cli('sweep', DURABLE, '--shard', '0/1', '--threads', '1');
    const digest = (JSON.parse(shard.stdout) as { shard: { sweep: string } }).shard.sweep;
    headLine = JSON.stringify({ journal: 1, sweep: digest, shard: null, cells: CELLS });
  }
  return headLine;
}

describe('--out is checked before any work (exit 2, nothing run)', () => {
  const cases: [string, () => string, RegExp][] = [
    ['a folder', () => tmp.dir, /is a folder/],
    ['a path through a missing folder', () => join(tmp.dir, 'no', 'such', 'out.json'), /cannot write in the folder .*does not exist/],
    ['a path through a file', () => join(DURABLE, 'out.json'), /a part of the path is a file, not a folder/],
    ['a name too long', () => join(tmp.dir, 'x'.repeat(250) + '.json'), /the file name is 255 bytes; the limit is 247/],
  ];
  for (const [what, path, message] of cases)
    it(what, () => {
      for (const cmd of [['sweep', DURABLE], ['run', join(ROOT, 'test/fixtures/sweep/tiny.json')]]) {
        const t0 = Date.now();
        const r = cli(...cmd, '--out', path());
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toContain('--out');
        void t0;
      }
    });

  it('an existing --out is replaced whole or left as it was, never half-written', () => {
    const out = tmp.file('existing.json', 'OLD CONTENT\n');
    const before = statSync(out).ino;
    const bad = cli('sweep', join(ROOT, 'test/fixtures/sweep/tiny.json'), '--cell', '99', '--out', out);
    expect(bad.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('OLD CONTENT\n');
    const r = cli('sweep', DURABLE, '--threads', '1', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(uninterrupted());
    expect(statSync(out).ino).not.toBe(before); // a new file renamed over it, not the old one rewritten in place
  });
});

describe('writeJsonAtomically', () => {
  it('a write that fails midway leaves the old file whole and no temporary file', async () => {
    const { writeJsonAtomically } = await import('../../src/cli/sweep-out');
    const out = tmp.file('atomic.json', 'OLD\n');
    // a value whose serialization fails after the first megabyte has been written
    const value = { big: 'x'.repeat(3 << 20), later: { toJSON: () => { throw new Error('disk full (simulated)'); } } };
    await expect(writeJsonAtomically(value, out)).rejects.toThrow('disk full');
    expect(readFileSync(out, 'utf8')).toBe('OLD\n');
    expect(readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await writeJsonAtomically({ a: 1 }, out);
    expect(readFileSync(out, 'utf8')).toBe('{"a":1}\n');
  });
});
