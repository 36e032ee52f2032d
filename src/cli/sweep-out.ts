import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { quote } from '../core/config/fields';
import { InputError } from './errors';
import { showPath } from './inputs';
import { jsonChunks } from './write-json';

// --out, for every command (main.ts): checked before any work, written whole or not at all.
// A long run must never end in a lost result (a folder, a path through a missing folder or a
// name too long found only after the run), and a failed or interrupted write must never leave a
// half-written file where a good one was: the text goes to a temporary file in the same folder,
// is flushed to disk, and is renamed over FILE in one step.

/** Bytes of one file name (Linux NAME_MAX); the journal's ".journal" must fit too. */
export const NAME_MAX_BYTES = 255;
const JOURNAL_SUFFIX_BYTES = '.journal'.length;
/** Bytes of a whole path (Linux PATH_MAX, less room for the suffixes). */
export const PATH_MAX_BYTES = 4000;

const temporaries = new Set<string>();
let counter = 0;
const tmpName = (folder: string) => join(folder, `.seeupo-out-${process.pid}-${counter++}.tmp`);

function why(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'the folder does not exist';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return code ? `cannot write there (${code})` : 'cannot write there';
  }
}

/**
 * Check --out before anything runs (exit 2 with one line): not a folder, a name of at most
 * NAME_MAX_BYTES − 8 bytes (room for the journal beside it), its folder existing and writable
 * (a temporary file is created there and removed).
 */
export function checkOutFile(path: string): void {
  const name = showPath(path);
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  const base = basename(path);
  if (bytes(base) > NAME_MAX_BYTES - JOURNAL_SUFFIX_BYTES)
    throw new InputError(`--out: the file name is ${bytes(base)} bytes; the limit is ${NAME_MAX_BYTES - JOURNAL_SUFFIX_BYTES} (${NAME_MAX_BYTES} less room for the ".journal" beside it)`);
  const full = resolve(path);
  if (bytes(full) > PATH_MAX_BYTES) throw new InputError(`--out: the path is ${bytes(full)} bytes; the limit is ${PATH_MAX_BYTES}`);
  try {
    if (statSync(full).isDirectory()) throw new InputError(`--out: ${name} is a folder; give a file name (e.g. ${name.replace(/\/?$/, '/result.json')})`);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new InputError(`--out: ${name}: ${why(code)}`);
  }
  const folder = dirname(full);
  const shownFolder = quote(folder.length > 80 ? '…' + folder.slice(-80) : folder, 120);
  const probe = tmpName(folder);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (e) {
    throw new InputError(`--out: cannot write in the folder ${shownFolder}: ${why((e as NodeJS.ErrnoException).code)}`);
  }
}

/**
 * Write JSON.stringify(value) + "\n" to `path` atomically: into a temporary file beside it,
 * flushed to disk, then renamed over `path`. On any failure (or an interrupt, see
 * removeTemporaries) the temporary file is removed and `path` is untouched.
 */
export async function writeJsonAtomically(value: unknown, path: string): Promise<void> {
  const tmp = tmpName(dirname(resolve(path)));
  temporaries.add(tmp);
  try {
    // written with plain synchronous calls, a chunk of about a MiB each: a file stream would load
    // Node's stream and fs/promises modules, a cost every short run paid at start-up
    // (docs/architecture.md "Start-up"); between chunks the event loop runs, so a signal's
    // handler (withInterrupts) still ends a long write
    const fd = openSync(tmp, 'wx');
    try {
      let first = true;
      for (const text of jsonChunks(value, 1 << 20, '\n')) {
        if (!first) await new Promise((next) => setImmediate(next));
        first = false;
        writeAll(fd, text);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    temporaries.delete(tmp);
  } catch (e) {
    removeTemporaries();
    throw e;
  }
}

/** Write all of `text` (UTF-8) at the file's current position: writeSync may write less than asked. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** Remove the temporary files of writes in progress (before exiting on a signal). */
export function removeTemporaries(): void {
  for (const t of temporaries) {
    try {
      unlinkSync(t);
    } catch {
      // already gone
    }
  }
  temporaries.clear();
}

/**
 * While `during` runs, SIGINT and SIGTERM end the process cleanly: `onStop` says what was kept
 * (its line goes to stderr), temporary output files are removed, exit 130 (SIGINT) or 143
 * (SIGTERM). The journal needs no finishing: each of its lines is written by one synchronous
 * call, which a signal handler (run on the event loop) never interrupts.
 */
export async function withInterrupts<T>(onStop: () => string, during: () => Promise<T>): Promise<T> {
  const handler = (signal: NodeJS.Signals) => {
    removeTemporaries();
    process.stderr.write(`\n${signal === 'SIGINT' ? 'interrupted' : 'terminated'}: ${onStop()}\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    return await during();
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
}
