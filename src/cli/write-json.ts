import { once } from 'node:events';
import type { Writable } from 'node:stream';

// The result JSON as a stream: JSON.stringify of a whole result is one string,
// and a large experiment's result (16 algorithms × 1,024 seeds × 243 iterations, or 39 seeds ×
// 100,000 iterations) is longer than V8's longest string (about 512 MB): the run's work was lost
// at the very end with "Invalid string length". Here the same text is produced piece by piece
// (no piece longer than a few hundred kilobytes) and written as it goes, waiting for the stream
// to drain. The text is byte for byte JSON.stringify(value) wherever that exists.

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
export function* jsonPieces(value: unknown): Generator<string> {
  yield* pieces(value, '', new Set());
}

function* pieces(input: unknown, key: string, open: Set<object>): Generator<string> {
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
        for (const p of pieces(a[i], String(i), open)) {
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
      for (const p of pieces((obj as Record<string, unknown>)[k], k, open)) {
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
    let buf = '';
    const check = () => {
      if (failure) throw failure;
      if (out.destroyed) throw new Error('the output stream was closed before the result was written');
    };
    const flush = async () => {
      check();
      const text = buf;
      buf = '';
      if (!out.write(text)) await once(out, 'drain'); // rejects if the stream errors meanwhile
      check();
    };
    for (const p of jsonPieces(value)) {
      buf += p;
      if (buf.length >= chunkChars) await flush();
    }
    buf += opts.trailer ?? '\n';
    await flush();
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
