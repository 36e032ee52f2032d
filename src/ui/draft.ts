import type { z } from 'zod';
import { bool, finiteNumber, num, numOrNull, oneOf, show } from '../core/config/fields';
import { LIMITS } from '../core/config/schema';
import { controlsFor, isCustomEnv, type ControlDef } from './controls/registry';
import { customTableShape } from './draft-edits';
import { getPath, joinPath, parsePath } from './draft-path';
import { isRecord } from '../core/config/fields';

// The draft (the config object the controls edit) checked control by control before
// resolveConfig, so several bad fields each get their message at once; and resolveConfig's
// errors mapped back to the control that shows them. Pure: no React.

export { getPath, setPath, numberOrText, parsePath, joinPath } from './draft-path';
export {
  addAlgorithm,
  removeAlgorithm,
  setEnvPreset,
  toCustomEnv,
  resizeRewards,
  setTurnRewards,
  turnTablesFit,
  turnTableCells,
  customTableShape,
  effectiveAlgorithm,
  entryLabel,
  algorithmSummary,
  algorithmsOf,
  MAX_EDITOR_CELLS,
  type DraftEdit,
  type TableShape,
} from './draft-edits';

type Draft = Record<string, unknown>;

/** At most this many bad reward cells get their own message (the rest are counted). */
const MAX_CELL_MESSAGES = 50;

/** Paths applied to the running experiment; every other change restarts it. */
export const HOT_PATHS = ['optimizer.lr', 'algorithms[i].clip'] as const;

export function isHotPath(path: string): boolean {
  return path === 'optimizer.lr' || /^algorithms\[\d+\]\.clip$/.test(path);
}

/** The schema builder a control's value goes through (the same ones schema.ts uses). */
function schemaOf(def: ControlDef): z.ZodType | null {
  if (def.kind === 'select') return def.options ? oneOf(def.options as [string, ...string[]]) : null;
  if (def.kind === 'bool') return bool();
  if (def.kind === 'intList' || !def.spec) return null;
  return def.nullable ? numOrNull(def.spec) : num(def.spec);
}

function checkList(def: ControlDef, v: unknown): string | null {
  if (!Array.isArray(v)) return `${def.path}: must be a list of widths, e.g. [32] or [64, 64], got ${show(v)}`;
  if (v.length > LIMITS.hiddenLayers) return `${def.path}: at most ${LIMITS.hiddenLayers} hidden layers, got ${v.length}`;
  const each = num(def.spec!);
  for (let i = 0; i < v.length; i++) {
    const r = each.safeParse(v[i]);
    if (!r.success) return `${def.path}[${i}]: ${r.error.issues[0]!.message}`;
  }
  return null;
}

function checkRewards(env: Record<string, unknown>, draft: Draft, out: Record<string, string>): void {
  const rewards = env.rewards;
  if (!Array.isArray(rewards) || rewards.length === 0) {
    out['env.rewards'] = `env.rewards: must be a list of reward tables, one per context (at least one), got ${show(rewards)}`;
    return;
  }
  const cell = finiteNumber();
  let bad = 0;
  rewards.forEach((row, x) => {
    if (!Array.isArray(row)) {
      out[`env.rewards[${x}]`] = `env.rewards[${x}]: must be a list of numbers (one per token sequence), got ${show(row)}`;
      return;
    }
    row.forEach((v, s) => {
      const r = cell.safeParse(v);
      if (r.success) return;
      if (++bad <= MAX_CELL_MESSAGES) out[`env.rewards[${x}][${s}]`] = `env.rewards[${x}][${s}]: ${r.error.issues[0]!.message}`;
    });
  });
  if (bad > MAX_CELL_MESSAGES) out['env.rewards'] = `env.rewards: ${bad} cells are not finite numbers (the first ${MAX_CELL_MESSAGES} are marked)`;
  const shape = customTableShape(draft);
  if (!shape) return;
  const { contexts, sequences } = shape;
  if (rewards.length !== contexts)
    out['env.rewards'] = `env.rewards: must have one table per context (${contexts}), got ${rewards.length}` +
      (rewards.length < contexts ? `: env.rewards[${rewards.length}] is missing` : `: env.rewards[${contexts}] is extra`);
  const power = `vocab^(turns·tokensPerTurn) = ${String(env.vocab)}^${(env.turns as number) * (env.tokensPerTurn as number)}`;
  rewards.forEach((row, x) => {
    if (!Array.isArray(row) || row.length === sequences) return;
    const where = row.length < sequences ? `env.rewards[${x}][${row.length}] is missing` : `env.rewards[${x}][${sequences}] is extra`;
    out[`env.rewards[${x}]`] = `env.rewards[${x}]: must have ${sequences} numbers (${power}), got ${row.length}: ${where}`;
  });
}

/**
 * env.turnRewards (algorithms.md §1): every cell a finite number, then the shapes resolveConfig
 * checks (one list per context, T − 1 tables, V^(t·L) numbers in table t), in its words, so
 * every bad table gets its message at once.
 */
function checkTurnRewards(env: Record<string, unknown>, draft: Draft, out: Record<string, string>): void {
  const raw = env.turnRewards;
  if (raw === undefined) return;
  const list = 'must be a list with one list of turn tables per context';
  if (!Array.isArray(raw)) {
    out['env.turnRewards'] = `env.turnRewards: ${list}, got ${show(raw)}`;
    return;
  }
  const cell = finiteNumber();
  let bad = 0;
  raw.forEach((tables, x) => {
    if (!Array.isArray(tables)) {
      out[`env.turnRewards[${x}]`] = `env.turnRewards[${x}]: must be a list of turn tables (one per turn before the last), got ${show(tables)}`;
      return;
    }
    tables.forEach((table, t) => {
      if (!Array.isArray(table)) {
        out[`env.turnRewards[${x}][${t}]`] = `env.turnRewards[${x}][${t}]: must be a list of numbers (one per ${t + 1}-turn prefix), got ${show(table)}`;
        return;
      }
      table.forEach((v, q) => {
        const r = cell.safeParse(v);
        if (r.success) return;
        if (++bad <= MAX_CELL_MESSAGES) out[`env.turnRewards[${x}][${t}][${q}]`] = `env.turnRewards[${x}][${t}][${q}]: ${r.error.issues[0]!.message}`;
      });
    });
  });
  if (bad > MAX_CELL_MESSAGES) out['env.turnRewards'] = `env.turnRewards: ${bad} cells are not finite numbers (the first ${MAX_CELL_MESSAGES} are marked)`;
  const shape = customTableShape(draft);
  if (!shape) return;
  const L = env.tokensPerTurn as number;
  if (raw.length !== shape.contexts) {
    out['env.turnRewards'] ??= `env.turnRewards: must have one list of turn tables per context (${shape.contexts}), got ${raw.length}`;
    return;
  }
  raw.forEach((tables, x) => {
    if (!Array.isArray(tables)) return;
    if (tables.length !== shape.prefixes.length) {
      out[`env.turnRewards[${x}]`] = `env.turnRewards[${x}]: must have ${shape.prefixes.length} tables (one per turn before the last; the terminal table is env.rewards), got ${tables.length}`;
      return;
    }
    tables.forEach((table, t) => {
      const n = shape.prefixes[t]!;
      if (!Array.isArray(table) || table.length === n) return;
      const power = L === 1 ? `V^${t + 1}` : `V^(${t + 1}·L)`;
      out[`env.turnRewards[${x}][${t}]`] = `env.turnRewards[${x}][${t}]: turn ${t + 1} needs ${n} numbers (${power}), got ${table.length}`;
    });
  });
}

/**
 * Per-control messages (path → "path: must be …, got …") before resolveConfig, checked with the
 * schema's own builders; {} when every control's value is acceptable on its own (resolveConfig
 * then does the cross-field checks).
 */
export function validateDraft(draft: Draft): Record<string, string> {
  const out: Record<string, string> = {};
  for (const def of controlsFor(draft)) {
    const v = getPath(draft, def.path);
    if (v === undefined) continue;
    if (def.kind === 'intList') {
      const m = checkList(def, v);
      if (m) out[def.path] = m;
      continue;
    }
    const schema = schemaOf(def);
    const r = schema?.safeParse(v);
    if (r && !r.success) out[def.path] = `${def.path}: ${r.error.issues[0]!.message}`;
  }
  if (isCustomEnv(draft)) {
    checkRewards(draft.env as Record<string, unknown>, draft, out);
    checkTurnRewards(draft.env as Record<string, unknown>, draft, out);
  }
  return out;
}


/** Paths the controls show messages under, for this draft (besides the registry's). */
function extraPaths(draft: Draft): string[] {
  const paths = ['algorithms'];
  if (draft.seedIndices !== undefined) paths.push('seedIndices'); // no control of its own: a note in the run settings
  const algos = Array.isArray(draft.algorithms) ? draft.algorithms : [];
  algos.forEach((_, i) => paths.push(`algorithms[${i}]`));
  if (isCustomEnv(draft)) {
    paths.push('env.rewards');
    const rewards = (draft.env as Record<string, unknown>).rewards;
    if (Array.isArray(rewards))
      rewards.forEach((row, x) => {
        paths.push(`env.rewards[${x}]`);
        if (Array.isArray(row)) for (let s = 0; s < row.length; s++) paths.push(`env.rewards[${x}][${s}]`);
      });
    const turnRewards = (draft.env as Record<string, unknown>).turnRewards;
    if (turnRewards !== undefined) paths.push('env.turnRewards');
    if (Array.isArray(turnRewards))
      turnRewards.forEach((tables, x) => {
        paths.push(`env.turnRewards[${x}]`);
        if (Array.isArray(tables))
          tables.forEach((table, t) => {
            paths.push(`env.turnRewards[${x}][${t}]`);
            if (Array.isArray(table)) for (let q = 0; q < table.length; q++) paths.push(`env.turnRewards[${x}][${t}][${q}]`);
          });
      });
  }
  return paths;
}

/**
 * The control that shows a resolveConfig error at `errorPath`, or null (the banner shows it):
 * the exact path if a control has it, else the nearest enclosing control; "env" (too many token
 * sequences) → "env.turns"; "env.noise…" → "env.noise.kind"; a preset's reward checked against
 * bernoulli noise → "env.noise.kind".
 */
export function controlPathOf(errorPath: string, draft: Draft): string | null {
  const known = new Set([...controlsFor(draft).map((d) => d.path), ...extraPaths(draft)]);
  if (known.has(errorPath)) return errorPath;
  if (errorPath === 'executor' || errorPath === 'backend') return errorPath; // the compute badge's force menu
  if (errorPath === 'env') return isRecord(draft.env) ? 'env.turns' : null;
  if (errorPath === 'env.noise' || errorPath.startsWith('env.noise.') || errorPath.startsWith('env.noise[')) return 'env.noise.kind';
  if (errorPath.startsWith('env.rewards') && !isCustomEnv(draft)) return 'env.noise.kind';
  const keys = parsePath(errorPath);
  for (let n = keys.length - 1; n >= 1; n--) {
    const p = joinPath(keys.slice(0, n));
    if (p === 'env' || p === 'policy' || p === 'optimizer') break; // an unknown field there: the banner says which
    if (known.has(p)) return p;
  }
  return null;
}
