import { z } from 'zod';

// No code generation while validating: zod would otherwise generate its object parsers' code
// at run time (harmless, as only the schema's own keys reach it, but a Content-Security-Policy
// would then need 'unsafe-eval').
z.config({ jitless: true });

// Field builders whose messages state the allowed range or values, so every rejection
// reads "path: must be …, got …".

/** A plain JSON object (not null, not a list). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return 'a list';
  return 'an object';
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

export function num(spec: NumSpec) {
  return z.unknown().transform((v, ctx): number => {
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!spec.int || Number.isInteger(v)) &&
      (spec.openMax ? v < spec.max : v <= spec.max) &&
      (spec.openMin ? v > spec.min : v >= spec.min);
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: `must be ${describeRange(spec)}, got ${show(v)}` });
      return z.NEVER;
    }
    return v as number;
  });
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
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
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
      const where = formatPath(path);
      const first = where ? `${where}.${keys[0]}` : keys[0]!;
      return new ConfigError(first, `unknown field${keys.length > 1 ? ` (also: ${keys.slice(1).join(', ')})` : ''}`);
    }
    case 'invalid_type':
      if (issue.expected === 'object') return new ConfigError(formatPath(path), 'must be an object');
      if (issue.expected === 'array') return new ConfigError(formatPath(path), 'must be a list');
      return new ConfigError(formatPath(path), `must be of type ${issue.expected}`);
    default:
      return new ConfigError(formatPath(path), issue.message);
  }
}
