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
      <div className="ctl-grid">
        {OPTIMIZER_CONTROLS.map((d) => (
          <Field key={d.path} def={d} />
        ))}
      </div>
    </div>
  );
}
