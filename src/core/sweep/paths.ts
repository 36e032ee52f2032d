import { ConfigError, isRecord, quote } from '../config/fields';
import { configSchema } from '../config/schema';

// Axis paths: config paths as permalinks write them ("optimizer.lr", "algorithms.1.clip"; the
// bracket form "algorithms[1].clip" too), with "*" in place of the algorithm index for "every
// algorithm the field applies to" ("algorithms.*.normalization").

export type PathKey = string | number;

export interface AxisPath {
  /** The path's keys; for a "*" path, the algorithm index is left out: ["algorithms", field]. */
  keys: PathKey[];
  /** "algorithms.*.field": the field to set on every algorithm it applies to. */
  starField: string | null;
}

const TOP_KEYS = Object.keys(configSchema.shape).filter((k) => k !== 'version');

/** Keys that reach an object's prototype: never a config field, refused in every path. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Parse an axis path; `where` names it in messages ("axes[0].path"). */
export function parseAxisPath(path: string, where: string): AxisPath {
  const keys: PathKey[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let consumed = 0;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    consumed += m[0].length;
    if (m[2] !== undefined) keys.push(Number(m[2]));
    else keys.push(/^\d{1,4}$/.test(m[1]!) ? Number(m[1]) : m[1]!);
  }
  const dots = (path.match(/\./g) ?? []).length;
  // "algorithms[0]clip": after "]" comes ".", "[" or the end
  const wellFormed = keys.length > 0 && consumed + dots === path.length && !/^\.|\.$|\.\.|\.\[|\][^.[]/.test(path);
  if (!wellFormed) throw new ConfigError(where, `must be a config path such as "optimizer.lr" or "algorithms.*.clip", got ${quote(path)}`);
  const bad = keys.find((k) => typeof k === 'string' && FORBIDDEN_KEYS.has(k));
  if (bad !== undefined) throw new ConfigError(where, `must not name "${bad}" (a config path has no __proto__, constructor or prototype field), got ${quote(path)}`);
  const top = keys[0];
  if (typeof top !== 'string' || !TOP_KEYS.includes(top))
    throw new ConfigError(where, `must start with a config field (${TOP_KEYS.join(', ')}), got ${quote(path)}`);
  const starAt = keys.indexOf('*');
  if (starAt >= 0) {
    if (top !== 'algorithms' || starAt !== 1 || keys.length !== 3 || typeof keys[2] !== 'string' || keys[2] === '*')
      throw new ConfigError(where, `"*" stands for the algorithm index only, as in "algorithms.*.FIELD", got ${quote(path)}`);
    return { keys: ['algorithms', keys[2]], starField: keys[2] };
  }
  if (top === 'algorithms' && (keys.length < 3 || typeof keys[1] !== 'number'))
    throw new ConfigError(where, `an algorithm's field is "algorithms.INDEX.FIELD" or "algorithms.*.FIELD", got ${quote(path)}`);
  return { keys, starField: null };
}

/** The path as resolve.ts names the field it sets ("algorithms[1].clip"); for a "*" path, that of algorithm i. */
export function concretePath(p: AxisPath, algorithm = 0): string {
  const keys = p.starField === null ? p.keys : ['algorithms', algorithm, p.starField];
  let s = '';
  for (const k of keys) s += typeof k === 'number' ? `[${k}]` : s ? `.${k}` : k;
  return s;
}

/** A copy of `obj` with `value` at `keys` (the objects and lists along the path copied; missing ones created). */
export function setAt(obj: unknown, keys: readonly PathKey[], value: unknown, i = 0): unknown {
  if (i === keys.length) return value;
  const k = keys[i]!;
  if (typeof k === 'string' && FORBIDDEN_KEYS.has(k)) throw new ConfigError(String(k), 'is not a config field (a path never reaches a prototype)');
  if (typeof k === 'number') {
    const arr = Array.isArray(obj) ? obj.slice() : [];
    while (arr.length < k) arr.push({});
    arr[k] = setAt(arr[k], keys, value, i + 1);
    return arr;
  }
  const out: Record<string, unknown> = isRecord(obj) ? { ...obj } : {};
  out[k] = setAt(out[k], keys, value, i + 1);
  return out;
}
