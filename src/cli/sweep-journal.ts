import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { ConfigError, safeText } from '../core/config/fields';
import { checkCell } from '../core/sweep/check-cell';
import type { SweepCell } from '../core/sweep/document';
import type { Axis } from '../core/sweep/schema';
import { InputError } from './errors';
import { showPath } from './inputs';

// The journal of a sweep written with --out (docs/sweeps.md "Interrupted sweeps"): FILE.journal,
// beside FILE. Its first line names the sweep (the digest shards carry), the shard and the cell
// count; then one line per finished cell, the cell's entry exactly as the output holds it,
// appended and flushed to disk as the cell finishes. `sweep … --resume` reads it back (each
// cell checked as merge checks a shard's), runs only the cells it lacks, and writes the same
// bytes as a run never interrupted; the journal is removed once FILE is written.

/** A journal holds at most 4,096 cells of at most 16 algorithms: far below this. */
export const MAX_JOURNAL_BYTES = 64 << 20;

export interface JournalHead {
  journal: 1;
  /** The sweep digest (document.ts textDigest of base and axes). */
  sweep: string;
  /** "I/N", or null for the whole sweep. */
  shard: string | null;
  /** Cells of the whole sweep. */
  cells: number;
}

export interface Journal {
  path: string;
  /** The cells read back on --resume (none on a fresh start). */
  done: SweepCell[];
  /** Append a finished cell (one write, then fsync). */
  append(cell: SweepCell): void;
  /** Close and delete it (the output is written). */
  remove(): void;
  close(): void;
}

export const journalPath = (out: string) => `${out}.journal`;

/**
 * Open the journal beside `out`: a new one (refusing to overwrite one left by an interrupted
 * run unless `resume`), or with `resume` the existing one read back, its torn last line (a
 * process killed mid-write) cut off. `owns(index)`: the cells this invocation runs.
 */
export function openJournal(out: string, head: JournalHead, axes: readonly Axis[], owns: (index: number) => boolean, resume: boolean): Journal {
  const path = journalPath(out);
  const name = showPath(path);
  let fd: number;
  let done: SweepCell[] = [];
  try {
    fd = openSync(path, 'wx');
    writeLine(fd, JSON.stringify(head));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new InputError(`--out: cannot create the journal ${name}: ${safeText(code ?? 'error', 40)}`);
    if (!resume)
      throw new InputError(`--out: ${name} holds the journal of an interrupted sweep: add --resume to finish it (only the missing cells run), or delete it to start over`);
    // append mode: the cells this run adds go after those read back (an 'r+' descriptor writes at
    // position 0, over the head, which a second interruption then left as the first line)
    fd = openSync(path, 'a+');
    try {
      done = readBack(fd, name, head, axes, owns);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }
  let open = true;
  return {
    path,
    done,
    append(cell) {
      writeLine(fd, JSON.stringify(cell));
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
    remove() {
      this.close();
      unlinkSync(path);
    },
  };
}

/** One line, in one write, flushed to disk. */
function writeLine(fd: number, text: string): void {
  const buf = Buffer.from(text + '\n', 'utf8');
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off);
  fsyncSync(fd);
}

function readBack(fd: number, name: string, head: JournalHead, axes: readonly Axis[], owns: (index: number) => boolean): SweepCell[] {
  const size = fstatSync(fd).size;
  if (size > MAX_JOURNAL_BYTES) throw new InputError(`${name}: the journal is ${size.toLocaleString('en-US')} bytes; the limit is ${MAX_JOURNAL_BYTES.toLocaleString('en-US')}: not one this sweep wrote`);
  const buf = Buffer.alloc(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  // a line without its newline was being written when the process died: drop it
  const end = buf.lastIndexOf(0x0a, got - 1) + 1;
  if (end < got) ftruncateSync(fd, end);
  const lines = buf.subarray(0, end).toString('utf8').split('\n').slice(0, -1);
  const bad = (line: number, detail: string) => new ConfigError(`${name}: line ${line}`, detail);
  let first: unknown;
  try {
    first = JSON.parse(lines[0] ?? '');
  } catch {
    throw bad(1, 'must be the journal head {"journal": 1, "sweep", "shard", "cells"}; delete the journal to start over');
  }
  const h = first as Partial<JournalHead> | null;
  if (!h || h.journal !== 1 || h.sweep !== head.sweep || h.shard !== head.shard || h.cells !== head.cells)
    throw bad(1, `is the journal of another sweep or shard (${safeText(JSON.stringify(first) ?? '', 120)}; this is sweep ${head.sweep}, shard ${head.shard ?? 'none'}): delete it to start over, or give the sweep it belongs to`);
  const seen = new Set<number>();
  const cells: SweepCell[] = [];
  for (let i = 1; i < lines.length; i++) {
    let c: unknown;
    try {
      c = JSON.parse(lines[i]!);
    } catch {
      throw bad(i + 1, 'is not a JSON cell: the journal is damaged; delete it to start over');
    }
    const index = (c as { index?: unknown } | null)?.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= head.cells || !owns(index))
      throw bad(i + 1, `holds cell ${safeText(String(index), 20)}, which this ${head.shard ? `shard (${head.shard})` : 'sweep'} does not run`);
    if (seen.has(index)) throw bad(i + 1, `holds cell ${index} a second time`);
    seen.add(index);
    cells.push(checkCell(c, axes, index, `${name}: line ${i + 1}`, null));
  }
  return cells;
}
