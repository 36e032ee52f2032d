import { controlsFor } from '../controls/registry';
import { algorithmLabel } from '../../core/algo/records';
import { effectiveAlgorithm, algorithmsOf } from '../draft-edits';
import { setSettingsOpen, useApp, type AppState } from '../store';

// Why Run is off: the first invalid field, named in words and by its path, with a
// button that opens the settings and puts the cursor in it. The messages are the schema's
// (through the store's checkDraft), not a second copy of its rules.

/** "Learning rate", "GRPO · Clip ε", or the path itself when no control names it. */
export function fieldWords(path: string, draft: Record<string, unknown>): string {
  const def = controlsFor(draft).find((d) => d.path === path);
  const m = /^algorithms\[(\d+)\]/.exec(path);
  if (m) {
    const entry = algorithmsOf(draft)[Number(m[1])];
    const who = entry === undefined ? `algorithm ${Number(m[1]) + 1}` : algorithmLabel(effectiveAlgorithm(entry));
    return def ? `${who} · ${def.label}` : who;
  }
  return def?.label ?? path;
}

/** The first problem in the draft: its control path and message, or the banner's config error. */
function firstProblem(s: AppState): { path: string | null; message: string } | null {
  const [path, message] = Object.entries(s.fieldErrors)[0] ?? [];
  if (path !== undefined && message !== undefined) return { path, message };
  if (s.configError) return { path: null, message: s.configError };
  return null;
}

/** Open the settings, scroll the field into view and focus it. */
export function goToField(path: string): void {
  setSettingsOpen(true);
  requestAnimationFrame(() => {
    const el = document.querySelector<HTMLElement>(`[data-testid="field-${CSS.escape(path)}"]`) ?? document.querySelector<HTMLElement>(`[data-testid="error-${CSS.escape(path)}"]`);
    if (!el) return;
    el.closest('details')?.setAttribute('open', '');
    el.scrollIntoView({ block: 'center' });
    el.focus();
  });
}

export function RunBlocked() {
  const path = useApp((s) => firstProblem(s)?.path ?? null);
  const message = useApp((s) => firstProblem(s)?.message ?? null);
  const problem = message === null ? null : { path, message };
  const draft = useApp((s) => s.draft);
  const count = useApp((s) => Object.keys(s.fieldErrors).length);
  if (!problem) return null;
  const where = problem.path ? `${fieldWords(problem.path, draft)} (${problem.path})` : 'the settings';
  // the store's messages start with the path ("seeds: must be …"): say it once
  const detail = problem.path && problem.message.startsWith(`${problem.path}: `) ? problem.message.slice(problem.path.length + 2) : problem.message;
  return (
    <p className="run-blocked" role="alert" data-testid="run-why">
      Run is off until {where} is fixed: {detail}
      {count > 1 ? ` (and ${count - 1} more)` : ''}{' '}
      {problem.path && (
        <button type="button" data-testid="go-to-field" onClick={() => goToField(problem.path!)}>
          Go to the field
        </button>
      )}
    </p>
  );
}
