import { once } from 'node:events';
import type { Writable } from 'node:stream';

// The result JSON as a stream: JSON.stringify of a whole result is one string,
// and a large experiment's result (16 algorithms × 1,024 seeds × 243 iterations, or 39 seeds ×
// 100,000 iterations) is longer than V8's longest string (about 512 MB): the run's work was lost
// at the very end with "Invalid string length". Here the same text is produced piece by piece
// (no piece longer than about a MiB) and written as it goes, waiting for the stream to drain.
// The text is byte for byte JSON.stringify(value) wherever that exists. Speed: a subtree whose
// text is guessed at most WHOLE characters (a run, its curves) is one JSON.stringify call, so the
// writer costs what JSON.stringify costs; only the few levels above (the result, its algorithms,
// their lists of runs) and a root toJSON go piece by piece.

/** Elements of an array of primitives serialized by one JSON.stringify call. */
const SLICE = 4096;
/** Characters of a string serialized by one JSON.stringify call. */
const STRING_SLICE = 1 << 16;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** Primitives JSON.stringify serializes without calling anything (no toJSON lookup): safe to serialize a slice at a time. */
const plain = (v: unknown) => v === null || v === undefined || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'symbol';

/** A string's JSON text in pieces (a surrogate pair is never split, so lone halves are escaped exactly as JSON.stringify does). */
function* stringPieces(s: string): Generator<string> {
  if (s.length <= STRING_SLICE) {
    yield JSON.stringify(s);
    return;
  }
  yield '"';
  for (let i = 0; i < s.length; ) {
    let j = Math.min(s.length, i + STRING_SLICE);
    if (j < s.length && isHigh(s.charCodeAt(j - 1))) j--;
    const part = JSON.stringify(s.slice(i, j));
    yield part.slice(1, -1);
    i = j;
  }
  yield '"';
}

/**
 * The JSON text of `value` as a sequence of pieces whose concatenation is JSON.stringify(value)
 * (toJSON, boxed primitives, non-finite numbers as null, undefined/functions/symbols skipped in
 * objects and null in lists, a TypeError for cycles and BigInts). Nothing for a value that
 * JSON.stringify turns into undefined.
 */
export function* jsonPieces(value: unknown, whole = WHOLE): Generator<string> {
  yield* pieces(value, '', new Set(), whole);
}

/** Characters of a subtree serialized by one JSON.stringify call (as guessed by sizeGuess). */
export const WHOLE = 1 << 20;
/** The longest text of a number JSON.stringify writes ("-1.7976931348623157e+308" is 24). */
const NUMBER_CHARS = 25;

/**
 * A guess at the length of JSON.stringify(v), or -1 when it exceeds `budget` or nests past
 * `depth`. Nothing depends on it for correctness, only for speed and the size of a piece: a
 * subtree guessed short is one JSON.stringify call, whose text is then yielded in slices of at
 * most WHOLE characters, and one too long for a string (RangeError) goes piece by piece. It does
 * not read every number: a list that starts and ends with a number (a curve) is taken to be
 * numbers throughout, which is what makes the writer cost what JSON.stringify costs in a short
 * run, where a walk over every value runs as unoptimized code (docs/architecture.md "Start-up").
 */
function sizeGuess(v: unknown, budget: number, depth: number): number {
  switch (typeof v) {
    case 'number':
      return NUMBER_CHARS;
    case 'string':
      return 2 + 6 * v.length; // every character escaped as \uXXXX at worst
    case 'object':
      break;
    default:
      return 5; // booleans, null in a list; nothing in an object
  }
  if (v === null) return 4;
  if (depth === 0) return -1;
  let n = 2;
  if (Array.isArray(v)) {
    const a = v as unknown[];
    const len = a.length;
    n += len; // separators
    // read with at(), not a[0]: optimized, a plain index read that has seen lists of doubles and
    // other lists turns the list of doubles into one of boxed numbers (V8 unifies the kinds of
    // elements it reads), a number object per value, which JSON.stringify then writes slower
    if (len > 0 && typeof a.at(0) === 'number' && typeof a.at(-1) === 'number') {
      n += len * NUMBER_CHARS;
      return n > budget ? -1 : n;
    }
    for (let i = 0; i < len && n <= budget; i++) {
      const b = sizeGuess(a[i], budget - n, depth - 1);
      if (b < 0) return -1;
      n += b;
    }
    return n > budget ? -1 : n;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const b = sizeGuess(o[k], budget - n, depth - 1);
    if (b < 0) return -1;
    n += b + 4 + 6 * k.length; // quotes, colon, comma
    if (n > budget) return -1;
  }
  return n > budget ? -1 : n;
}

/** `text` in pieces of at most `size` characters, never splitting a surrogate pair (each chunk is encoded on its own). */
function* slices(text: string, size: number): Generator<string> {
  if (text.length <= size) {
    yield text;
    return;
  }
  for (let i = 0; i < text.length; ) {
    let j = Math.min(text.length, i + size);
    if (j < text.length && j - i > 1 && isHigh(text.charCodeAt(j - 1))) j--;
    yield text.slice(i, j);
    i = j;
  }
}

/**
 * JSON.stringify(v) if it is a string V8 can hold, else null (RangeError: longer than the
 * longest string); any other error (a cycle, a BigInt, a throwing toJSON) is JSON.stringify's own.
 */
function stringifyOrNull(v: unknown): string | null {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (e instanceof RangeError && /string length/i.test(e.message)) return null;
    throw e;
  }
}

function* pieces(input: unknown, key: string, open: Set<object>, whole: number): Generator<string> {
  // a subtree guessed short: one JSON.stringify call, the speed of the whole writer, its text in
  // slices of at most `whole` characters. JSON.stringify of a subtree is the subtree's text within
  // JSON.stringify of the whole (toJSON below the root is called with its own key, boxed values,
  // prototypes and holes are treated alike; a cycle or a BigInt throws its TypeError) except
  // for a toJSON at the root, which would be called with '' instead of `key`: that goes below.
  if (typeof input === 'object' && input !== null && !open.has(input) && typeof (input as { toJSON?: unknown }).toJSON !== 'function' && sizeGuess(input, whole, 64) >= 0) {
    const text = stringifyOrNull(input);
    if (text !== null) {
      yield* slices(text, whole);
      return;
    }
  }
  let value = input;
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (value === null) {
    yield 'null';
    return;
  }
  switch (typeof value) {
    case 'string':
      yield* stringPieces(value);
      return;
    case 'number':
    case 'boolean':
    case 'bigint': // throws the TypeError JSON.stringify throws
      yield JSON.stringify(value);
      return;
    case 'undefined':
    case 'function':
    case 'symbol':
      return;
  }
  const obj = value as object;
  if (obj instanceof Number || obj instanceof Boolean || obj instanceof BigInt) {
    yield JSON.stringify(obj);
    return;
  }
  if (obj instanceof String) {
    yield* stringPieces(String(obj));
    return;
  }
  if (open.has(obj)) throw new TypeError('Converting circular structure to JSON');
  open.add(obj);
  if (Array.isArray(obj)) {
    const a = obj as unknown[];
    yield '[';
    for (let i = 0; i < a.length; ) {
      if (i > 0) yield ',';
      // a run of primitives (a metric's curve): one JSON.stringify per slice of it
      let j = i;
      while (j < a.length && j - i < SLICE && plain(a[j])) j++;
      if (j > i) {
        const part = JSON.stringify(a.slice(i, j));
        yield part.slice(1, -1);
        i = j;
      } else {
        let any = false;
        for (const p of pieces(a[i], String(i), open, whole)) {
          any = true;
          yield p;
        }
        if (!any) yield 'null';
        i++;
      }
    }
    yield ']';
  } else {
    yield '{';
    let first = true;
    for (const k of Object.keys(obj)) {
      let head = (first ? '' : ',') + JSON.stringify(k) + ':';
      for (const p of pieces((obj as Record<string, unknown>)[k], k, open, whole)) {
        if (head) {
          yield head;
          head = '';
          first = false;
        }
        yield p;
      }
    }
    yield '}';
  }
  open.delete(obj);
}

export interface WriteJsonOptions {
  /** Characters gathered before each write (default 1 MiB). */
  chunkChars?: number;
  /** Text after the JSON (default a newline). */
  trailer?: string;
  /** End the stream and wait until it is closed (a file); otherwise wait until everything written is flushed (stdout). */
  end?: boolean;
  /** Subtrees whose text is at most this long go in one JSON.stringify call (default WHOLE; 0: always piece by piece). */
  whole?: number;
}

/**
 * The text of JSON.stringify(value) + trailer in chunks of at least `chunkChars` characters (but
 * the last), each shorter than chunkChars + WHOLE: what a writer writes at a time.
 */
export function* jsonChunks(value: unknown, chunkChars: number, trailer: string, whole = WHOLE): Generator<string> {
  let buf = '';
  for (const p of jsonPieces(value, whole)) {
    buf += p;
    if (buf.length >= chunkChars) {
      yield buf;
      buf = '';
    }
  }
  yield buf + trailer;
}

/**
 * Write JSON.stringify(value) + trailer to `out` without ever holding the whole text: pieces
 * are gathered into chunks of about `chunkChars` characters, each written once the stream has
 * drained. Rejects with the stream's error (a full disk, a closed pipe, a folder given as file).
 */
export async function writeJson(value: unknown, out: Writable, opts: WriteJsonOptions = {}): Promise<void> {
  const chunkChars = opts.chunkChars ?? 1 << 20;
  let failure: unknown = null;
  const onError = (e: unknown) => {
    failure ??= e;
  };
  out.on('error', onError);
  try {
    const check = () => {
      if (failure) throw failure;
      if (out.destroyed) throw new Error('the output stream was closed before the result was written');
    };
    for (const text of jsonChunks(value, chunkChars, opts.trailer ?? '\n', opts.whole)) {
      check();
      if (!out.write(text)) await once(out, 'drain'); // rejects if the stream errors meanwhile
      check();
    }
    if (opts.end) {
      check();
      const closed = once(out, 'close');
      out.end();
      await closed; // rejects with the error if closing fails
    } else {
      await new Promise<void>((resolve, reject) => out.write('', (e) => (e ? reject(e) : resolve())));
    }
    if (failure) throw failure;
  } finally {
    out.off('error', onError);
  }
}
