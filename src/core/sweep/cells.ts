import { ALGORITHM_IDS, fieldsRead } from '../algo/records';
import { checkDepth, ConfigError, issueToError, quote } from '../config/fields';
import { DEFAULTS } from '../config/defaults';
import { resolveConfig, type Experiment } from '../config/resolve';
import { concretePath, parseAxisPath, setAt, type AxisPath } from './paths';
import { gridValues, SWEEP_LIMITS, sweepSchema, type Axis, type AxisValue } from './schema';

// A sweep's cells: the product of its axes' values (first axis slowest), each an experiment
// config of its own — the base with the cell's values written at the axes' paths.

export interface Sweep {
  base: Record<string, unknown>;
  axes: Axis[];
  /** The axes' parsed paths and, for a "*" path, the algorithms (by index) the field applies to. */
  paths: { path: AxisPath; algorithms: number[] }[];
  cells: number;
}

export interface ParseSweepOptions {
  /**
   * Which cells to resolve: 'all' (default: a file's every cell, so every shard refuses a bad
   * value before running anything), a cell index (`sweep --cell K`: that cell only), or 'none'
   * (the page, which resolves them a slice at a time off the main thread's long tasks: resolveCellsInSlices).
   */
  resolve?: 'all' | 'none' | number;
}

/**
 * What resolving every cell costs, counted as cells × the base's JSON characters (a resolve
 * reads the whole base: a 65,536-entry reward table, 4,096 times, is minutes of work).
 */
export function validationCost(sweep: Pick<Sweep, 'base' | 'cells'>): number {
  return sweep.cells * JSON.stringify(sweep.base).length;
}

/** Validate a sweep document (any JSON value); throws a ConfigError naming the field (exit 2). */
export function parseSweep(raw: unknown, opts: ParseSweepOptions = {}): Sweep {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('', 'the sweep must be a JSON object: {"version": 1, "base": CONFIG, "axes": [...]}');
  checkDepth(raw, 'the sweep');
  const r = sweepSchema.safeParse(raw);
  if (!r.success) throw issueToError(r.error.issues[0]!, []);
  const { base, axes: rawAxes } = r.data;
  const baseExp = resolveBase(base);
  const axes: Axis[] = rawAxes.map((a, i) => {
    if ((a.values === undefined) === (a.grid === undefined)) throw new ConfigError(`axes[${i}]`, 'must give either "values" (a list) or "grid" ({"from", "to", "count", "scale"}), not both or neither');
    if (a.grid) {
      const g = a.grid;
      if (g.scale === 'log' && !(g.from > 0 && g.to > 0)) throw new ConfigError(`axes[${i}].grid`, `a log grid needs from > 0 and to > 0, got from ${g.from}, to ${g.to}`);
      if (g.count === 1 && g.from !== g.to) throw new ConfigError(`axes[${i}].grid.count`, `must be at least 2 when from (${g.from}) and to (${g.to}) differ`);
      return { path: a.path, values: gridValues(g) };
    }
    return { path: a.path, values: a.values! };
  });
  axes.forEach((a, i) => {
    const seen = new Map<string, number>();
    a.values.forEach((v, j) => {
      const key = JSON.stringify(v);
      if (seen.has(key)) throw new ConfigError(`axes[${i}].values[${j}]`, `duplicate value ${key.length > 40 ? quote(key) : key} (also values[${seen.get(key)}])${a.values.length > 1 && rawAxes[i]!.grid ? ': the grid is finer than 12 significant digits' : ''}`);
      seen.set(key, j);
    });
  });
  const paths = axes.map((a, i) => {
    const path = parseAxisPath(a.path, `axes[${i}].path`);
    return { path, algorithms: path.starField === null ? [] : starTargets(baseExp, path.starField, i) };
  });
  if (paths.length === 2 && concretePath(paths[0]!.path) === concretePath(paths[1]!.path) && paths[0]!.path.starField === paths[1]!.path.starField)
    throw new ConfigError('axes[1].path', `is the same field as axes[0] (${quote(axes[0]!.path)}); sweep two different fields`);
  const cells = axes.reduce((n, a) => n * a.values.length, 1);
  if (cells > SWEEP_LIMITS.cells)
    throw new ConfigError('axes', `${axes.map((a) => `${a.path} (${a.values.length} values)`).join(' × ')} make ${cells.toLocaleString('en-US')} cells; the limit is ${SWEEP_LIMITS.cells.toLocaleString('en-US')}: use fewer values`);
  const sweep = { base, axes, paths, cells };
  const which = opts.resolve ?? 'all';
  if (typeof which === 'number') {
    if (Number.isInteger(which) && which >= 0 && which < cells) resolveCell(sweep, which);
    return sweep;
  }
  if (which === 'none') return sweep;
  const cost = validationCost(sweep);
  if (cost > SWEEP_LIMITS.validationChars)
    throw new ConfigError(
      'axes',
      `${cells.toLocaleString('en-US')} cells × a base of ${JSON.stringify(base).length.toLocaleString('en-US')} characters = ${cost.toLocaleString('en-US')} characters to check; the limit is ${SWEEP_LIMITS.validationChars.toLocaleString('en-US')}: use fewer values or a smaller base (each cell is the whole base, checked)`,
    );
  // every cell is checked here, so each shard of a sweep refuses a bad value before any runs
  for (let c = 0; c < cells; c++) resolveCell(sweep, c);
  return sweep;
}

function resolveBase(base: Record<string, unknown>): Experiment {
  try {
    return resolveConfig(base);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(e.path ? `base.${e.path}` : 'base', e.detail);
    throw e;
  }
}

/** The algorithms (by index) whose rule reads `field` (records.ts fieldsRead); "rule", "advantage", "lr" and "label" apply to all. */
function starTargets(exp: Experiment, field: string, axis: number): number[] {
  const all = ['rule', 'advantage', 'label', 'lr'];
  const out = exp.algorithms.flatMap((a, i) => (all.includes(field) || fieldsRead(a).has(field as never) ? [i] : []));
  if (out.length === 0)
    throw new ConfigError(`axes[${axis}].path`, `no algorithm of the base reads "${field}" (algorithms: ${exp.algorithms.map((a) => `${a.id} (${a.rule})`).join(', ')})`);
  return out;
}

/** Cell `index`'s value on each axis (the first axis varies slowest). */
export function cellValues(sweep: Pick<Sweep, 'axes'>, index: number): AxisValue[] {
  const out: AxisValue[] = [];
  let rest = index;
  for (let a = sweep.axes.length - 1; a >= 0; a--) {
    const n = sweep.axes[a]!.values.length;
    out[a] = sweep.axes[a]!.values[rest % n]!;
    rest = Math.floor(rest / n);
  }
  return out;
}

/** Cell `index` as an experiment config of its own: the base with the cell's values written in. */
export function cellConfig(sweep: Sweep, index: number): Record<string, unknown> {
  const values = cellValues(sweep, index);
  let config: Record<string, unknown> = { ...sweep.base };
  const touchesAlgorithms = sweep.paths.some((p) => p.path.keys[0] === 'algorithms');
  if (touchesAlgorithms && config.algorithms === undefined) config.algorithms = ALGORITHM_IDS.map((id) => ({ id })); // resolve.ts's default list
  if (sweep.paths.some((p) => p.path.keys[0] === 'optimizer') && config.optimizer === undefined) config.optimizer = { ...DEFAULTS.optimizer }; // its default, whose lr the axis then sets
  sweep.paths.forEach((p, a) => {
    const v = values[a];
    if (p.path.starField === null) config = setAt(config, p.path.keys, v) as Record<string, unknown>;
    else for (const i of p.algorithms) config = setAt(config, ['algorithms', i, p.path.starField], v) as Record<string, unknown>;
  });
  return config;
}

/** Cell `index` resolved; a ConfigError names the axis value (or the cell) that made it invalid. */
export function resolveCell(sweep: Sweep, index: number): Experiment {
  try {
    return resolveConfig(cellConfig(sweep, index));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const values = cellValues(sweep, index);
    const a = sweep.paths.findIndex((p) => (p.path.starField === null ? [concretePath(p.path)] : p.algorithms.map((i) => concretePath(p.path, i))).some((c) => e.path === c || e.path.startsWith(`${c}.`) || e.path.startsWith(`${c}[`)));
    if (a >= 0) {
      const j = sweep.axes[a]!.values.indexOf(values[a]!);
      if (/^unknown field/.test(e.detail)) throw new ConfigError(`axes[${a}].path`, `${e.path}: ${e.detail}`);
      throw new ConfigError(`axes[${a}].values[${j}]`, `${e.path}: ${e.detail}`);
    }
    throw new ConfigError(`cell ${index} (${describeCell(sweep, values)})`, e.message);
  }
}

/** "optimizer.lr = 0.3, algorithms.*.normalization = "group"" */
export function describeCell(sweep: Pick<Sweep, 'axes'>, values: AxisValue[]): string {
  return sweep.axes.map((a, i) => `${a.path} = ${JSON.stringify(values[i])}`).join(', ');
}
