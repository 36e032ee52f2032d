// Config paths as the controls and error messages write them ("env.rewards[0][3]",
// "algorithms[2].clip") and immutable reads and writes through them. Pure: no React.

import { isRecord } from '../core/config/fields';

export type PathKey = string | number;

/** "a.b[2].c" → ["a", "b", 2, "c"]; "" → []. */
export function parsePath(path: string): PathKey[] {
  const keys: PathKey[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) keys.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return keys;
}

/** ["algorithms", 2, "clip"] → "algorithms[2].clip" (as resolveConfig's messages write it). */
export function joinPath(keys: readonly PathKey[]): string {
  let s = '';
  for (const k of keys) s += typeof k === 'number' ? `[${k}]` : s ? `.${k}` : k;
  return s;
}


/** The value at `path`, or undefined where any step is missing. */
export function getPath(obj: unknown, path: string): unknown {
  let node = obj;
  for (const k of parsePath(path)) {
    if (typeof k === 'number') {
      if (!Array.isArray(node)) return undefined;
      node = node[k];
    } else {
      if (!isRecord(node) || !Object.hasOwn(node, k)) return undefined;
      node = node[k];
    }
  }
  return node;
}

function setIn(node: unknown, keys: readonly PathKey[], i: number, value: unknown): unknown {
  if (i === keys.length) return value;
  const k = keys[i]!;
  if (typeof k === 'number') {
    const arr = Array.isArray(node) ? node.slice() : [];
    while (arr.length < k) arr.push(0); // no holes: a JSON config has none
    arr[k] = setIn(arr[k], keys, i + 1, value);
    return arr;
  }
  const obj: Record<string, unknown> = isRecord(node) ? { ...node } : {};
  const next = setIn(obj[k], keys, i + 1, value);
  if (next === undefined) delete obj[k];
  else obj[k] = next;
  return obj;
}

/**
 * A copy of `obj` with `value` at `path` (only the objects along the path are copied; missing
 * ones are created: a list before "[n]", an object otherwise). `undefined` removes an object
 * key, so the config falls back to its default or preset value.
 */
export function setPath<T>(obj: T, path: string, value: unknown): T {
  return setIn(obj, parsePath(path), 0, value) as T;
}

/**
 * A typed number field's value: the number when the text is a finite number, else the raw
 * text, so the schema refuses it by name ('seeds: must be an integer from 1 to 1024, got "abc"').
 */
export function numberOrText(s: string): unknown {
  const t = s.trim();
  if (t === '') return s;
  const n = Number(t);
  return Number.isFinite(n) ? n : s;
}
