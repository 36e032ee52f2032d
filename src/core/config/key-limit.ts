import { ConfigError } from './fields';

// A JSON text is scanned for its objects' key counts before JSON.parse builds it: an object of
// 2·10⁶ unknown keys costs V8 tens of seconds to parse (dictionary-mode objects) and the schema
// as long again to list them, all to be refused. No config, sweep or result object has more than
// a few dozen keys; past MAX_OBJECT_KEYS the text is refused in one linear pass (≈0.1 s for 30 MB).

export const MAX_OBJECT_KEYS = 1024;

/** Throws a ConfigError when an object of `text` (JSON or not yet known to be) has more than `max` keys. */
export function checkKeyCounts(text: string, what: string, max = MAX_OBJECT_KEYS): void {
  // one counter per open object; -1 for an open list
  const stack: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b) stack.push(0);
    else if (c === 0x5b) stack.push(-1);
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x3a && stack.length && stack[stack.length - 1]! >= 0) {
      const k = ++stack[stack.length - 1]!;
      if (k > max)
        throw new ConfigError(
          '',
          `${what} has an object with more than ${max.toLocaleString('en-US')} keys (at depth ${stack.length}); the limit is ${max.toLocaleString('en-US')} (no config object has more than a few dozen fields)`,
        );
    }
  }
}
