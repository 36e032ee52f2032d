import * as z from 'zod';

// No code generation while validating: zod would otherwise generate its object parsers' code
// at run time (harmless, as only the schema's own keys reach it, but a Content-Security-Policy
// would then need 'unsafe-eval').
z.config({ jitless: true });

// Field builders whose messages state the allowed range or values, so every rejection
// reads "path: must be …, got …".

/** A plain JSON object (not null, not a list). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How many characters of a bad value a message quotes (the rest is elided with "…"). */
export const QUOTE_CHARS = 40;

/** Characters never written raw to a message: C0/C1 controls, DEL, line/paragraph separators, bidi overrides, BOM, lone surrogates. */
// (a surrogate pair is matched first, and kept, so only lone halves are escaped; no lookbehind, for older browsers)
const UNSAFE = /[\ud800-\udbff][\udc00-\udfff]|[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/g;

const escapeOne = (c: string): string => {
  if (c.length === 2) return c; // a whole surrogate pair: an ordinary character
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
};

/** `s` with every control (and other unsafe) character written as an escape: \x1b → \u001b, newline → \n. */
export function escapeControls(s: string): string {
  return s.replace(UNSAFE, escapeOne);
}

/** The first `max` characters of s (a surrogate pair is never split), plus "…" when s is longer. */
export function prefix(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // do not cut a pair in two
  return s.slice(0, end) + '…';
}

/**
 * A user-supplied string as a message quotes it: a short prefix, in double quotes, with quotes,
 * backslashes and control characters escaped, so one bad value is always one short line.
 */
export function quote(s: string, max = QUOTE_CHARS): string {
  const p = prefix(s, max);
  return `"${escapeControls(p.replace(/[\\"]/g, (c) => `\\${c}`))}"`;
}

/**
 * Free text that may carry pieces of the input (a JSON parser's message, a file name, a link's
 * message): control characters escaped, whitespace runs made one space, at most `max` characters.
 */
export function safeText(s: string, max = 200): string {
  return escapeControls(prefix(s.replace(/[ \t\r\n]+/g, ' '), max));
}

/** A value as a message echoes it: a short quoted prefix of a string, a number, or its kind. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return 'a list';
  return 'an object';
}

/** An object key as a path segment: as is when it is a plain name (letters, digits, _$.+-; dotted link keys too), else quoted: a short escaped prefix. */
export function showKey(k: string): string {
  return /^[A-Za-z0-9_$.+-]{1,40}$/.test(k) ? k : `[${quote(k)}]`;
}

/** Deepest nesting of lists and objects a config or input file may have (a real config needs 5). */
export const MAX_DEPTH = 64;

/**
 * The path to the first place where `value` nests deeper than `max` lists/objects, or null.
 * Iterative (an explicit stack), so a hostile 100,000-deep value cannot overflow the call stack;
 * run before any recursive walk (zod, JSON.stringify, structured clone).
 */
export function tooDeep(value: unknown, max = MAX_DEPTH): (string | number)[] | null {
  if (typeof value !== 'object' || value === null) return null;
  const stack: { v: object; depth: number; path: (string | number)[] }[] = [{ v: value, depth: 1, path: [] }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (depth > max) return path;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const c: unknown = v[i];
        if (typeof c === 'object' && c !== null) stack.push({ v: c, depth: depth + 1, path: [...path, i] });
      }
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const c: unknown = (v as Record<string, unknown>)[keys[i]!];
        if (typeof c === 'object' && c !== null) stack.push({ v: c, depth: depth + 1, path: [...path, keys[i]!] });
      }
    }
  }
  return null;
}

/** Throws a ConfigError when `value` nests deeper than MAX_DEPTH, naming where (a short path) and the limit. */
export function checkDepth(value: unknown, what = 'the config'): void {
  const path = tooDeep(value);
  if (!path) return;
  const shown = path.slice(0, 8);
  const where = formatPath(shown) + (path.length > shown.length ? '…' : '');
  throw new ConfigError(formatPath(path.slice(0, 1)), `${what} nests lists and objects deeper than ${MAX_DEPTH} levels (at ${where || 'the top'}); the limit is ${MAX_DEPTH}`);
}

export interface NumSpec {
  min: number;
  max: number;
  int?: boolean;
  /** min itself is not allowed */
  openMin?: boolean;
  /** max itself is not allowed */
  openMax?: boolean;
}

export function describeRange(s: NumSpec): string {
  const what = s.int ? 'an integer' : 'a number';
  if (!s.openMin && !s.openMax) return `${what} from ${s.min} to ${s.max}`;
  return `${what} ${s.openMin ? '>' : '≥'} ${s.min} and ${s.openMax ? '<' : '≤'} ${s.max}`;
}

/** A number in range; `note` follows the range in the message ("… from 2 to 6 for preset "lock", got 9"). */
export function num(spec: NumSpec, note?: string) {
  return z.unknown().transform((v, ctx): number => {
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!spec.int || Number.isInteger(v)) &&
      (spec.openMax ? v < spec.max : v <= spec.max) &&
      (spec.openMin ? v > spec.min : v >= spec.min);
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: `must be ${describeRange(spec)}${note ? ` ${note}` : ''}, got ${show(v)}` });
      return z.NEVER;
    }
    return v as number;
  });
}

/**
 * A list of `item`s; anything else is refused as "must be <what>, got …" (`what` says what the
 * list holds, e.g. "a list of numbers (one per token sequence)"), where zod alone would say only
 * "must be a list". issueToError keeps this message.
 */
export function listOf<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, { error: (iss) => (iss.code === 'invalid_type' ? `must be ${what}, got ${show(iss.input)}` : undefined) });
}

/** A number in range, or null (meaning "off" / "use the default"). */
export function numOrNull(spec: NumSpec) {
  return z.unknown().transform((v, ctx): number | null => {
    if (v === null) return null;
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (spec.openMax ? v < spec.max : v <= spec.max) &&
      (spec.openMin ? v > spec.min : v >= spec.min);
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: `must be null or ${describeRange(spec)}, got ${show(v)}` });
      return z.NEVER;
    }
    return v as number;
  });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.unknown().transform((v, ctx): T[number] => {
    if (typeof v !== 'string' || !values.includes(v)) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${values.map((x) => `"${x}"`).join(', ')}, got ${show(v)}` });
      return z.NEVER;
    }
    return v as T[number];
  });
}

export function bool() {
  return z.unknown().transform((v, ctx): boolean => {
    if (typeof v !== 'boolean') {
      ctx.addIssue({ code: 'custom', message: `must be true or false, got ${show(v)}` });
      return z.NEVER;
    }
    return v;
  });
}

export function finiteNumber() {
  return z.unknown().transform((v, ctx): number => {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      ctx.addIssue({ code: 'custom', message: `must be a finite number, got ${show(v)}` });
      return z.NEVER;
    }
    return v;
  });
}

/** Path as written in configs: algorithms[0].clip */
export function formatPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else {
      const k = showKey(String(p));
      s += k.startsWith('[') || !s ? k : `.${k}`;
    }
  }
  return s;
}

export class ConfigError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(path ? `${path}: ${detail}` : detail);
    this.name = 'ConfigError';
  }
}

/** The first zod issue as one line naming the field. */
export function issueToError(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[] = []): ConfigError {
  const path = [...prefix, ...issue.path];
  switch (issue.code) {
    case 'unrecognized_keys': {
      const keys = issue.keys;
      const first = formatPath([...path, keys[0]!]);
      // at most three more names, each a short escaped prefix: a file with a million odd keys is still one short line
      const more = keys.slice(1, 4).map(showKey);
      const rest = keys.length - 1 - more.length;
      const also = more.length ? ` (also: ${more.join(', ')}${rest > 0 ? ` and ${rest.toLocaleString('en-US')} more` : ''})` : '';
      return new ConfigError(first, `unknown field${also}`);
    }
    case 'invalid_type':
      if (issue.expected === 'object') return new ConfigError(formatPath(path), 'must be an object');
      // listOf's own message says what the list holds (zod's default messages never start with "must be")
      if (issue.expected === 'array') return new ConfigError(formatPath(path), issue.message.startsWith('must be ') ? issue.message : 'must be a list');
      return new ConfigError(formatPath(path), `must be of type ${issue.expected}`);
    default:
      return new ConfigError(formatPath(path), issue.message);
  }
}
