import { isRecord } from '../core/config/fields';
import { configIssues } from '../core/config/issues';
import { controlsFor, isCustomEnv } from './controls/registry';
import { joinPath, parsePath } from './draft-path';

// The messages beside the controls. The draft (the config object the controls edit) is checked
// by the schema alone (core/config/issues.ts: every problem at once, in resolveConfig's words),
// and each problem is shown at the control its path belongs to; resolveConfig's cross-field
// errors go through the same mapping (controlPathOf). The page has no rules of its own: a
// half-typed number is kept in the draft as its text (numberOrText), so the schema names it too.
// Pure: no React.

type Draft = Record<string, unknown>;

/** At most this many bad cells of a reward table get their own message (the rest are counted). */
const MAX_CELL_MESSAGES = 50;

/** A cell of a reward table: "env.rewards[x][s]" or "env.turnRewards[x][t][q]" → its table's path, else null. */
function tableOfCell(path: string): 'env.rewards' | 'env.turnRewards' | null {
  if (/^env\.rewards\[\d+\]\[\d+\]$/.test(path)) return 'env.rewards';
  if (/^env\.turnRewards\[\d+\]\[\d+\]\[\d+\]$/.test(path)) return 'env.turnRewards';
  return null;
}

/**
 * Per-control messages (control path → "path: must be …, got …"): every problem the schema finds,
 * at the control that shows it, in the controls' order; {} when the schema accepts the draft
 * (resolveConfig then does the cross-field checks). A problem no control shows is left to
 * resolveConfig, whose error the banner shows once the fields are fixed.
 */
export function validateDraft(draft: Draft): Record<string, string> {
  const order = controlPaths(draft);
  const known = new Set(order);
  const found = new Map<string, string>();
  const badCells = { 'env.rewards': 0, 'env.turnRewards': 0 };
  for (const issue of configIssues(draft)) {
    const control = controlOf(issue.path, draft, known);
    if (control === null) continue;
    const table = tableOfCell(control);
    if (table && ++badCells[table] > MAX_CELL_MESSAGES) continue;
    if (!found.has(control)) found.set(control, issue.message);
  }
  for (const [table, bad] of Object.entries(badCells))
    if (bad > MAX_CELL_MESSAGES && !found.has(table)) found.set(table, `${table}: ${bad} cells are not finite numbers (the first ${MAX_CELL_MESSAGES} are marked)`);
  const rank = new Map(order.map((p, i) => [p, i]));
  const rankOf = (p: string) => rank.get(p) ?? order.length;
  return Object.fromEntries([...found].sort(([a], [b]) => rankOf(a) - rankOf(b)));
}

/** Every path the controls show messages under, for this draft: the registry's, then the others. */
function controlPaths(draft: Draft): string[] {
  const paths = [...controlsFor(draft).map((d) => d.path), 'algorithms'];
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
  paths.push('executor', 'backend'); // the compute badge's force menu
  return paths;
}

function controlOf(errorPath: string, draft: Draft, known: ReadonlySet<string>): string | null {
  if (known.has(errorPath)) return errorPath;
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

/**
 * The control that shows an error at `errorPath` (a schema problem or a resolveConfig error), or
 * null (the banner shows it): the exact path if a control has it, else the nearest enclosing
 * control; "env" (too many token sequences) → "env.turns"; "env.noise…" → "env.noise.kind"; a
 * preset's reward checked against bernoulli noise → "env.noise.kind".
 */
export function controlPathOf(errorPath: string, draft: Draft): string | null {
  return controlOf(errorPath, draft, new Set(controlPaths(draft)));
}
