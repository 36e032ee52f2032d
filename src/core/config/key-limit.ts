import { ConfigError, formatPath } from './fields';

// A JSON text is scanned for its objects' key counts before JSON.parse builds it: an object of
// 2·10⁶ unknown keys costs V8 tens of seconds to parse (dictionary-mode objects) and the schema
// as long again to list them, all to be refused. No config, sweep or result object has more than
// a few dozen keys; past MAX_OBJECT_KEYS the text is refused in one linear pass (≈0.1 s for 30 MB).

export const MAX_OBJECT_KEYS = 1024;

/**
 * Throws a ConfigError when an object of `text` (JSON or not yet known to be) has more than `max`
 * keys, or the same key twice: JSON.parse keeps the last and drops the first without a word,
 * where an unknown field is refused by name (docs/cli.md "The config") and a link refuses a key
 * given twice. Keys are compared as written (a key spelled once with an escape is not matched).
 */
export function checkKeyCounts(text: string, what: string, max = MAX_OBJECT_KEYS): void {
  // per open object its key count and its keys (a Set made at its second key); null for an open list
  const stack: ({ n: number; first: string; keys: Set<string> | null } | null)[] = [];
  const n = text.length;
  let strFrom = 0;
  let strTo = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote
      strFrom = i + 1;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      strTo = i;
    } else if (c === 0x7b) stack.push({ n: 0, first: '', keys: null });
    else if (c === 0x5b) stack.push(null);
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x3a && stack.length) {
      const top = stack[stack.length - 1];
      if (!top) continue;
      if (++top.n > max)
        throw new ConfigError(
          '',
          `${what} has an object with more than ${max.toLocaleString('en-US')} keys (at depth ${stack.length}); the limit is ${max.toLocaleString('en-US')} (no config object has more than a few dozen fields)`,
        );
      const key = text.slice(strFrom, strTo);
      if (top.n === 1) top.first = key;
      else {
        top.keys ??= new Set([top.first]);
        if (top.keys.has(key)) throw new ConfigError(formatPath(pathAt(text, i)), `given twice in one object (${what}); JSON keeps only the last, so give it once`);
        top.keys.add(key);
      }
    }
  }
}

/** The keys and list indices leading to the key that ends at `end` (its ':'), by a second scan: only for a message. */
function pathAt(text: string, end: number): (string | number)[] {
  const path: (string | number)[] = [];
  const lists: boolean[] = [];
  let last = '';
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const from = i + 1;
      for (i++; i < end; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      last = text.slice(from, i);
    } else if (c === 0x7b || c === 0x5b) {
      lists.push(c === 0x5b);
      path.push(c === 0x5b ? 0 : '');
    } else if (c === 0x7d || c === 0x5d) {
      lists.pop();
      path.pop();
    } else if (c === 0x2c && lists[lists.length - 1]) (path[path.length - 1] as number)++;
    else if (c === 0x3a && lists.length && !lists[lists.length - 1]) path[path.length - 1] = last;
  }
  path[path.length - 1] = last;
  return path;
}
