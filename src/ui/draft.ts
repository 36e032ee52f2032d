import type { z } from 'zod';
import { bool, finiteNumber, num, numOrNull, oneOf, show } from '../core/config/fields';
import { LIMITS } from '../core/config/schema';
import { controlsFor, isCustomEnv, type ControlDef } from './controls/registry';
import { customTableShape } from './draft-edits';
import { getPath, joinPath, parsePath } from './draft-path';

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
  customTableShape,
  effectiveAlgorithm,
  entryLabel,
  algorithmSummary,
  algorithmsOf,
  MAX_EDITOR_CELLS,
  type DraftEdit,
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
  if (isCustomEnv(draft)) checkRewards(draft.env as Record<string, unknown>, draft, out);
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths the controls show messages under, for this draft (besides the registry's). */
function extraPaths(draft: Draft): string[] {
  const paths = ['algorithms'];
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
