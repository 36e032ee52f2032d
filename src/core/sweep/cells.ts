import { ALGORITHM_IDS, fieldsRead } from '../algo/records';
import { checkDepth, ConfigError, isRecord, issueToError, quote } from '../config/fields';
import { ENV_PRESETS } from '../env/presets';
import { DEFAULT_CONFIG, DEFAULTS } from '../config/defaults';
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
  /** validationCost of resolving every cell. */
  cost: number;
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
 * What resolving every cell costs, counted as cells × (the base's JSON characters + 8 per
 * reward-table entry): a resolve reads the whole base and builds the environment's tables, so
 * a 65,536-entry table — written out, or made by a preset at 16 tokens × 4 turns — resolved
 * 4,096 times is minutes of work.
 */
export function validationCost(sweep: Pick<Sweep, 'base' | 'cells'>, baseExp: Pick<Experiment, 'env'>): number {
  const entries = baseExp.env.rewards.reduce((n, r) => n + r.length, 0);
  return sweep.cells * (JSON.stringify(sweep.base).length + 8 * entries);
}

/**
 * The reward-table entries a base's environment has, read off the config without building it
 * (a preset's sizes, or a custom table's lists); 0 when it cannot tell (resolving then says why).
 */
export function declaredTableEntries(base: Record<string, unknown>): number {
  const env = base.env;
  if (!isRecord(env)) return 0;
  if (Array.isArray(env.rewards)) return env.rewards.reduce((n: number, r) => n + (Array.isArray(r) ? r.length : 0), 0);
  const def = typeof env.preset === 'string' && Object.hasOwn(ENV_PRESETS, env.preset) ? ENV_PRESETS[env.preset]! : null;
  if (!def) return 0;
  const size = (k: 'turns' | 'vocab' | 'tokensPerTurn') => (typeof env[k] === 'number' && Number.isInteger(env[k]) && (env[k] as number) > 0 ? (env[k] as number) : def.defaults[k]);
  const entries = def.contexts * Math.pow(size('vocab'), size('turns') * size('tokensPerTurn'));
  return Number.isFinite(entries) ? entries : Number.MAX_SAFE_INTEGER;
}

/** Refuses a sweep whose cells would take too long to check (validationCost past SWEEP_LIMITS.validationCost). */
export function checkValidationCost(sweep: Pick<Sweep, 'base' | 'cells' | 'cost'>): void {
  if (sweep.cost > SWEEP_LIMITS.validationCost)
    throw new ConfigError(
      'axes',
      `${sweep.cells.toLocaleString('en-US')} cells of this base cost ${sweep.cost.toExponential(2)} to check (the base's characters and 8 per reward-table entry, per cell); the limit is ${SWEEP_LIMITS.validationCost.toExponential(2)}: use fewer values or a smaller environment (each cell resolves the whole base)`,
    );
}

/** Validate a sweep document (any JSON value); throws a ConfigError naming the field (exit 2). */
export function parseSweep(raw: unknown, opts: ParseSweepOptions = {}): Sweep {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('', 'the sweep must be a JSON object: {"version": 1, "base": CONFIG, "axes": [...]}');
  checkDepth(raw, 'the sweep');
  const r = sweepSchema.safeParse(raw);
  if (!r.success) throw issueToError(r.error.issues[0]!, []);
  const { base, axes: rawAxes } = r.data;
  // what checking the cells would cost, before even the base is built (a preset at its largest
  // sizes takes a while to build once; 4,096 times is minutes)
  const declaredCells = rawAxes.reduce((n, a) => n * (a.values?.length ?? a.grid?.count ?? 1), 1);
  if (typeof opts.resolve !== 'number' && declaredCells <= SWEEP_LIMITS.cells)
    checkValidationCost({ base, cells: declaredCells, cost: declaredCells * (JSON.stringify(base).length + 8 * declaredTableEntries(base)) });
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
  paths.forEach((p, i) => checkChangesCells(baseExp, p.path, i));
  if (paths.length === 2 && concretePath(paths[0]!.path) === concretePath(paths[1]!.path) && paths[0]!.path.starField === paths[1]!.path.starField)
    throw new ConfigError('axes[1].path', `is the same field as axes[0] (${quote(axes[0]!.path)}); sweep two different fields`);
  const cells = axes.reduce((n, a) => n * a.values.length, 1);
  if (cells > SWEEP_LIMITS.cells)
    throw new ConfigError('axes', `${axes.map((a) => `${a.path} (${a.values.length} values)`).join(' × ')} make ${cells.toLocaleString('en-US')} cells; the limit is ${SWEEP_LIMITS.cells.toLocaleString('en-US')}: use fewer values`);
  const sweep = { base, axes, paths, cells, cost: 0 };
  sweep.cost = validationCost(sweep, baseExp);
  const which = opts.resolve ?? 'all';
  if (typeof which === 'number') {
    if (Number.isInteger(which) && which >= 0 && which < cells) resolveCell(sweep, which);
    return sweep;
  }
  if (which === 'none') return sweep;
  checkValidationCost(sweep);
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

/**
 * An axis must be able to change a cell: optimizer.lr when every algorithm of the base carries
 * its own lr (each run's rate is its algorithm's: records.ts algorithmLr), or an algorithm field
 * the algorithm's rule never reads, would give identical cells under different labels.
 */
function checkChangesCells(exp: Experiment, path: AxisPath, axis: number): void {
  const where = `axes[${axis}].path`;
  if (concretePath(path) === 'optimizer.lr' && exp.algorithms.length > 0 && exp.algorithms.every((a) => a.lr !== null && a.lr !== undefined))
    throw new ConfigError(where, `optimizer.lr changes no cell: every algorithm of the base sets its own lr (${exp.algorithms.map((a) => `${a.id}: ${a.lr}`).join(', ')}), which takes its place; sweep "algorithms.*.lr" instead`);
  const [top, index, field] = path.keys;
  // a field of an algorithm past the list would leave holes, refused as some other entry's missing id
  if (top === 'algorithms' && path.starField === null && typeof index === 'number' && path.keys.length >= 3 && index >= exp.algorithms.length)
    throw new ConfigError(where, `algorithms[${index}] does not exist (the base has ${exp.algorithms.length} algorithms)`);
  if (top === 'algorithms' && path.starField === null && typeof index === 'number' && typeof field === 'string' && path.keys.length === 3) {
    const a = exp.algorithms[index];
    if (a && !['rule', 'advantage', 'label', 'lr', 'id'].includes(field) && !fieldsRead(a).has(field as never))
      throw new ConfigError(where, `algorithms[${index}] (${a.id}, rule ${a.rule}) does not read "${field}": the axis changes no cell`);
  }
}

/** The algorithms (by index) whose rule reads `field` (records.ts fieldsRead); "rule", "advantage", "lr" and "label" apply to all. */
function starTargets(exp: Experiment, field: string, axis: number): number[] {
  const all = ['rule', 'advantage', 'label', 'lr'];
  if (field === 'label' && exp.algorithms.length > 1)
    throw new ConfigError(`axes[${axis}].path`, `algorithms.*.label would give the base's ${exp.algorithms.length} algorithms one label, and no two algorithms may read alike; sweep one algorithm's label (algorithms.0.label)`);
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
  if (sweep.paths.some((p) => p.path.keys[0] === 'policy') && config.policy === undefined) config.policy = { ...DEFAULT_CONFIG.policy }; // the default (tabular), whose field the axis then sets
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
