import * as z from 'zod';
import { finiteNumber, isRecord, num, oneOf, show } from '../config/fields';

// The sweep document (docs/sweeps.md): a base experiment config and one or two axes, each a
// config path with the values it takes, written out or as a grid. Parsed here into plain axes
// (every grid expanded into its values); paths.ts reads the paths, cells.ts builds the cells.

export const SWEEP_LIMITS = {
  axes: { min: 1, max: 2 },
  /** Values one axis may take. */
  values: 256,
  /** Cells of a sweep (the product of the axes' sizes). */
  cells: 4096,
  /** Characters of an axis path. */
  pathChars: 100,
  /** Characters of a string value. */
  valueChars: 100,
  /** The work of resolving every cell (cells.ts validationCost): cells × (base characters + 8 per table entry). */
  validationCost: 2 ** 25,
} as const;

export type AxisValue = number | string | boolean | null;

/** An axis as the output lists it: its path and every value, in order. */
export interface Axis {
  path: string;
  values: AxisValue[];
}

export interface SweepInput {
  version: 1;
  /** The experiment config every cell starts from (resolve.ts validates it). */
  base: Record<string, unknown>;
  axes: Axis[];
}

const scalar = z.unknown().transform((v, ctx): AxisValue => {
  const ok =
    v === null ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    (typeof v === 'string' && v.length >= 1 && v.length <= SWEEP_LIMITS.valueChars);
  if (!ok) {
    ctx.addIssue({ code: 'custom', message: `must be a finite number, a string of 1–${SWEEP_LIMITS.valueChars} characters, true, false or null, got ${show(v)}` });
    return z.NEVER;
  }
  return v as AxisValue;
});

const pathField = z.unknown().transform((v, ctx): string => {
  if (typeof v !== 'string' || v.length === 0 || v.length > SWEEP_LIMITS.pathChars || !/^[A-Za-z0-9_.*[\]]+$/.test(v)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a config path of 1–${SWEEP_LIMITS.pathChars} letters, digits, dots and [i] (e.g. "optimizer.lr", "algorithms.*.normalization", "algorithms.1.clip"), got ${show(v)}`,
    });
    return z.NEVER;
  }
  return v;
});

const gridSchema = z.strictObject({
  from: finiteNumber(),
  to: finiteNumber(),
  count: num({ min: 1, max: SWEEP_LIMITS.values, int: true }),
  scale: oneOf(['linear', 'log']).optional(),
});

const axisSchema = z.strictObject({
  path: pathField,
  values: z.array(scalar).min(1, 'must list at least one value').max(SWEEP_LIMITS.values, `at most ${SWEEP_LIMITS.values} values`).optional(),
  grid: gridSchema.optional(),
});

export const sweepSchema = z.strictObject({
  version: z.unknown().transform((v, ctx): 1 => {
    if (v !== 1) {
      ctx.addIssue({ code: 'custom', message: `must be 1, got ${show(v)}` });
      return z.NEVER;
    }
    return 1;
  }),
  base: z.unknown().transform((v, ctx): Record<string, unknown> => {
    if (!isRecord(v)) {
      ctx.addIssue({ code: 'custom', message: `must be an experiment config (an object), got ${show(v)}` });
      return z.NEVER;
    }
    return v;
  }),
  axes: z.array(axisSchema).min(SWEEP_LIMITS.axes.min, 'must list one or two axes').max(SWEEP_LIMITS.axes.max, 'must list one or two axes (a phase diagram has at most two)'),
});

/**
 * A grid's values: `count` points from `from` to `to`, evenly spaced (linear) or evenly spaced in
 * log (log; both ends > 0), each rounded to 12 significant digits so 0.1·3 reads 0.3. One point: `from`.
 */
export function gridValues(g: { from: number; to: number; count: number; scale?: 'linear' | 'log' }): number[] {
  const round = (x: number) => Number(x.toPrecision(12));
  if (g.count === 1) return [g.from];
  const out: number[] = [];
  for (let i = 0; i < g.count; i++) {
    const f = i / (g.count - 1);
    out.push(round(g.scale === 'log' ? g.from * Math.pow(g.to / g.from, f) : g.from + (g.to - g.from) * f));
  }
  out[0] = g.from; // the ends exactly as written
  out[g.count - 1] = g.to;
  return out;
}
