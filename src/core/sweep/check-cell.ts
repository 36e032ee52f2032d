import { ConfigError, isRecord, quote } from '../config/fields';
import type { Verdict } from '../claims';
import { cellValues } from './cells';
import type { SweepAlgorithm, SweepCell, SweepClaim } from './document';
import type { Axis } from './schema';

// A cell of a sweep's output read back from a file someone else wrote (a shard given to `merge`,
// a journal line read by `sweep --resume`): every field checked against the shape `cellOf`
// writes and against the sweep's axes, so a tampered or truncated cell is refused naming the
// file and the field, never merged into a result.

const VERDICTS: readonly Verdict[] = ['observed', 'not observed', 'undecided', 'not testable'];
/** Algorithms one cell may list (the config allows at most 16). */
const MAX_ALGORITHMS = 64;

const fail = (where: string, detail: string): never => {
  throw new ConfigError(where, detail);
};
const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const finiteOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));
const shown = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? quote(s, 40) : s;
};

/** Only the keys listed: a cell with extra fields is not one `sweep` wrote. */
function onlyKeys(v: Record<string, unknown>, keys: readonly string[], where: string): void {
  for (const k in v) if (!keys.includes(k)) fail(`${where}.${k.length > 30 ? quote(k, 30) : k}`, `is not a field of a sweep cell (${keys.join(', ')})`);
}

function checkClaim(c: unknown, where: string): SweepClaim {
  if (!isRecord(c)) return fail(where, 'must be {"claim", "verdict"} (with "parts" for claim 4)');
  onlyKeys(c, ['claim', 'verdict', 'parts'], where);
  if (!isInt(c.claim, 1, 5)) fail(`${where}.claim`, `must be a claim number from 1 to 5, got ${shown(c.claim)}`);
  if (!VERDICTS.includes(c.verdict as Verdict)) fail(`${where}.verdict`, `must be one of ${VERDICTS.join(', ')}, got ${shown(c.verdict)}`);
  if (c.parts !== undefined) {
    if (!Array.isArray(c.parts) || c.parts.length > 8) fail(`${where}.parts`, 'must be a list of at most 8 {"part", "verdict"}');
    (c.parts as unknown[]).forEach((p, i) => {
      const w = `${where}.parts[${i}]`;
      if (!isRecord(p)) return fail(w, 'must be {"part", "verdict"}');
      onlyKeys(p, ['part', 'verdict'], w);
      if (typeof p.part !== 'string' || !/^[a-z]$/.test(p.part)) fail(`${w}.part`, `must be a letter a–z, got ${shown(p.part)}`);
      if (!VERDICTS.includes(p.verdict as Verdict)) fail(`${w}.verdict`, `must be one of ${VERDICTS.join(', ')}, got ${shown(p.verdict)}`);
    });
  }
  return c as unknown as SweepClaim;
}

function checkAlgorithm(a: unknown, where: string): SweepAlgorithm {
  if (!isRecord(a)) return fail(where, 'must be an algorithm entry {"id", "finalJ", "atOptimum", "violations", "medianItersTo95", "claims"}');
  onlyKeys(a, ['id', 'finalJ', 'atOptimum', 'violations', 'medianItersTo95', 'claims'], where);
  if (typeof a.id !== 'string' || a.id.length === 0 || a.id.length > 100) fail(`${where}.id`, `must be an algorithm id (1–100 characters), got ${shown(a.id)}`);
  const f = a.finalJ;
  if (!isRecord(f)) fail(`${where}.finalJ`, 'must be {"mean", "lo", "hi"}');
  const fj = f as Record<string, unknown>;
  onlyKeys(fj, ['mean', 'lo', 'hi'], `${where}.finalJ`);
  for (const k of ['mean', 'lo', 'hi']) if (!(k in fj) || !finiteOrNull(fj[k])) fail(`${where}.finalJ.${k}`, `must be a finite number or null, got ${shown(fj[k])}`);
  if (typeof a.atOptimum !== 'number' || !(a.atOptimum >= 0 && a.atOptimum <= 1)) fail(`${where}.atOptimum`, `must be a share from 0 to 1, got ${shown(a.atOptimum)}`);
  if (!isInt(a.violations, 0)) fail(`${where}.violations`, `must be a whole number ≥ 0, got ${shown(a.violations)}`);
  if (a.medianItersTo95 !== null && !(typeof a.medianItersTo95 === 'number' && a.medianItersTo95 >= 0 && Number.isFinite(a.medianItersTo95)))
    fail(`${where}.medianItersTo95`, `must be a number ≥ 0 or null, got ${shown(a.medianItersTo95)}`);
  if (!Array.isArray(a.claims) || a.claims.length > 5) fail(`${where}.claims`, 'must be a list of at most 5 claim verdicts');
  (a.claims as unknown[]).forEach((c, i) => checkClaim(c, `${where}.claims[${i}]`));
  return a as unknown as SweepAlgorithm;
}

/**
 * Check a cell read from a file: cell `want` of the sweep with these axes (its values exactly
 * the axes' values for that index), every field present and of its type; `ids`, when given, the
 * algorithm list every cell of the sweep has. Returns it typed; throws a ConfigError at `where`.
 */
export function checkCell(c: unknown, axes: readonly Axis[], want: number, where: string, ids: readonly string[] | null): SweepCell {
  if (!isRecord(c)) return fail(where, 'must be a sweep cell {"index", "values", "Jstar", "algorithms"}');
  onlyKeys(c, ['index', 'values', 'Jstar', 'algorithms'], where);
  if (c.index !== want) fail(`${where}.index`, `must be ${want}, got ${shown(c.index)}`);
  const values = cellValues({ axes: axes as Axis[] }, want);
  if (!Array.isArray(c.values) || c.values.length !== values.length || c.values.some((v, i) => !Object.is(v, values[i])))
    fail(`${where}.values`, `must be cell ${want}'s values on the axes, ${shown(values)}, got ${shown(c.values)}`);
  if (typeof c.Jstar !== 'number' || !Number.isFinite(c.Jstar)) fail(`${where}.Jstar`, `must be a finite number, got ${shown(c.Jstar)}`);
  if (!Array.isArray(c.algorithms) || c.algorithms.length === 0 || c.algorithms.length > MAX_ALGORITHMS)
    fail(`${where}.algorithms`, `must list 1–${MAX_ALGORITHMS} algorithms`);
  const algorithms = (c.algorithms as unknown[]).map((a, i) => checkAlgorithm(a, `${where}.algorithms[${i}]`));
  const got = algorithms.map((a) => a.id);
  if (new Set(got).size !== got.length) fail(`${where}.algorithms`, `lists an algorithm twice (${shown(got)})`);
  if (ids && (got.length !== ids.length || got.some((id, i) => id !== ids[i])))
    fail(`${where}.algorithms`, `must be the sweep's algorithms ${shown(ids)}, got ${shown(got)}`);
  return c as unknown as SweepCell;
}

/** Check axes read from a file: the shape `sweep` writes, at most 2 axes of at most 256 scalar values, the cell count within `maxCells`. */
export function checkAxes(axes: unknown, where: string, maxCells: number): Axis[] {
  if (!Array.isArray(axes) || axes.length < 1 || axes.length > 2) return fail(where, 'must list one or two axes');
  let cells = 1;
  axes.forEach((a, i) => {
    const w = `${where}[${i}]`;
    if (!isRecord(a)) return fail(w, 'must be {"path", "values"}');
    onlyKeys(a, ['path', 'values'], w);
    if (typeof a.path !== 'string' || a.path.length === 0 || a.path.length > 100) fail(`${w}.path`, `must be a config path, got ${shown(a.path)}`);
    if (!Array.isArray(a.values) || a.values.length < 1 || a.values.length > 256) fail(`${w}.values`, 'must list 1–256 values');
    (a.values as unknown[]).forEach((v, j) => {
      const ok = v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length >= 1 && v.length <= 100);
      if (!ok) fail(`${w}.values[${j}]`, `must be a number, a string, true, false or null, got ${shown(v)}`);
    });
    if (new Set((a.values as unknown[]).map((v) => JSON.stringify(v))).size !== (a.values as unknown[]).length) fail(`${w}.values`, 'lists a value twice');
    cells *= (a.values as unknown[]).length;
  });
  if (cells > maxCells) fail(where, `make ${cells.toLocaleString('en-US')} cells; the limit is ${maxCells.toLocaleString('en-US')}`);
  return axes as Axis[];
}
