import { DEFAULTS } from '../../../core/config/defaults';
import { setDraftValue, useApp } from '../../store';
import { OPTIMIZER_CONTROLS, policyControls, RUN_CONTROLS } from '../../controls/registry';
import { Field } from './Field';

// Policy & training: the policy (tabular or a shared MLP), exact or sampled mode, seeds, G,
// iterations, and the optimizer with its learning rate (applied live).

/** Switching the kind rewrites `policy` whole: a tabular policy has no hidden layers. */
function setPolicyKind(kind: unknown): void {
  if (kind === 'mlp') setDraftValue('policy', { kind: 'mlp', hidden: [...DEFAULTS.mlpHidden], activation: DEFAULTS.mlpActivation });
  else if (kind === 'tabular') setDraftValue('policy', { kind: 'tabular' });
  else setDraftValue('policy.kind', kind);
}

/**
 * A config or link may replay some seed indices only (`seedIndices`, no control of its own):
 * say which, keep it in the page's link, and offer to drop it.
 */
function SeedIndices() {
  const given = useApp((s) => s.draft.seedIndices);
  const error = useApp((s) => s.fieldErrors.seedIndices);
  if (given === undefined) return null;
  const list = Array.isArray(given) ? given.map(String).join(', ') : String(given);
  return (
    <div className="seed-indices" data-testid="seed-indices">
      <span>
        Seed indices {list} only (<code>seedIndices</code>, from the link or config: each replays exactly its run in the full experiment; the page&apos;s link keeps it).
      </span>{' '}
      <button type="button" data-testid="clear-seed-indices" onClick={() => setDraftValue('seedIndices', undefined)}
        title="Removes seedIndices: every seed index runs (restarts the experiment)">
        Run every seed
      </button>
      {error && <p className="field-error" role="alert" data-testid="error-seedIndices">{error}</p>}
    </div>
  );
}

export function PolicyControls() {
  const draft = useApp((s) => s.draft);
  const [kind, ...policyRest] = policyControls(draft);
  const run = (p: string) => RUN_CONTROLS.find((d) => d.path === p)!;
  return (
    <div className="ctl-section-body">
      <div className="ctl-grid">
        <Field def={kind!} onValue={setPolicyKind} />
        {policyRest.map((d) => (
          <Field key={d.path} def={d} />
        ))}
      </div>
      <div className="ctl-grid">
        <Field def={run('mode')} />
        <Field def={run('seeds')} />
        <Field def={run('groupSize')} />
        <Field def={run('iterations')} />
        <Field def={run('seed')} />
      </div>
      <SeedIndices />
      <div className="ctl-grid">
        {OPTIMIZER_CONTROLS.map((d) => (
          <Field key={d.path} def={d} />
        ))}
      </div>
    </div>
  );
}
