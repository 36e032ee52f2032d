// The value syntax of a permalink's `key=value` pairs: numbers, true/false/null, bare words
// (letters, digits, _ . + -), JSON strings in double quotes, and [lists] of these. Parsed by
// hand (never eval); a malformed value is reported, not thrown past the caller.

const BARE = /^[A-Za-z_][A-Za-z0-9_.+-]*$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/;
const RESERVED = new Set(['true', 'false', 'null', 'Infinity', 'NaN']);
/** Lists nest at most this deep (reward tables are lists of lists). */
export const MAX_LITERAL_DEPTH = 4;

export type Literal = number | boolean | null | string | Literal[];

/** The text of a value; null when it has no literal form (an object, or a non-finite number). */
export function printLiteral(v: unknown, depth = 0): string | null {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'string') return BARE.test(v) && !RESERVED.has(v) ? v : JSON.stringify(v);
  if (Array.isArray(v) && depth < MAX_LITERAL_DEPTH) {
    const items: string[] = [];
    for (const x of v) {
      const t = printLiteral(x, depth + 1);
      if (t === null) return null;
      items.push(t);
    }
    return `[${items.join(',')}]`;
  }
  return null;
}

export class LiteralError extends Error {}

/** Parse a whole value; throws LiteralError with what is wrong. */
export function parseLiteral(text: string): Literal {
  let i = 0;
  const fail = (what: string): never => {
    throw new LiteralError(`${what} at character ${i + 1} of ${JSON.stringify(text.length > 60 ? text.slice(0, 60) + '…' : text)}`);
  };
  const value = (depth: number): Literal => {
    const c = text[i];
    if (c === '[') {
      if (depth >= MAX_LITERAL_DEPTH) fail(`lists nest at most ${MAX_LITERAL_DEPTH} deep`);
      i++;
      const out: Literal[] = [];
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value(depth + 1));
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return out;
        } else fail('expected "," or "]"');
      }
    }
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) fail('unterminated string');
      const raw = text.slice(i, j + 1);
      i = j + 1;
      try {
        return JSON.parse(raw) as string;
      } catch {
        return fail('bad escape in string');
      }
    }
    const num = NUMBER.exec(text.slice(i));
    if (num) {
      i += num[0].length;
      return Number(num[0]);
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.+-]*/.exec(text.slice(i));
    if (word) {
      i += word[0].length;
      if (word[0] === 'true') return true;
      if (word[0] === 'false') return false;
      if (word[0] === 'null') return null;
      if (word[0] === 'Infinity' || word[0] === 'NaN') fail(`${word[0]} is not allowed (numbers must be finite)`);
      return word[0];
    }
    return fail(c === undefined ? 'missing value' : `unexpected ${JSON.stringify(c)}`);
  };
  const v = value(0);
  if (i !== text.length) fail('unexpected text after the value');
  return v;
}
