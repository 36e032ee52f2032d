import { useState } from 'react';
import { replaceDraft, isValid, setDraftValue, useApp } from '../../store';
import { algorithmColor } from '../../palette';
import { ALGORITHM_PRESETS, algorithmLabel } from '../../../core/algo/records';
import { addAlgorithm, algorithmsOf, algorithmSummary, effectiveAlgorithm, entryLabel, getPath, removeAlgorithm } from '../../draft';
import { ALGORITHM_PRESET_IDS, algorithmControls, isFieldRelevant } from '../../controls/registry';
import { Field } from './Field';

// One card per algorithm entry, in its plan colour: a one-line summary (collapsed by default),
// and when open the fields its rule reads (the others hidden, listed as such).

function Message({ path }: { path: string }) {
  const error = useApp((s) => s.fieldErrors[path]);
  if (!error) return null;
  return <p className="field-error" role="alert" data-testid={`error-${path}`}>{error}</p>;
}

function AlgorithmCard({ index, entry, color, count }: { index: number; entry: unknown; color: string; count: number }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const draft = useApp((s) => s.draft);
  const fieldErrors = useApp((s) => s.fieldErrors);
  const prefix = `algorithms[${index}]`;
  const hasError = Object.keys(fieldErrors).some((k) => k === prefix || k.startsWith(`${prefix}.`));
  const expanded = open || hasError;
  const rec = effectiveAlgorithm(entry);
  const id = rec.id;
  const label = entryLabel(entry);
  const experimentLr = getPath(draft, 'optimizer.lr');
  // a blank learning rate falls back to the experiment's: say which value that is
  const defs = algorithmControls(index, rec).map((d) =>
    d.field === 'lr' ? { ...d, nullText: `the experiment's lr${typeof experimentLr === 'number' ? ` (${experimentLr})` : ''}` } : d,
  );
  const shown = defs.filter((d) => isFieldRelevant(d, rec) || fieldErrors[d.path] !== undefined);
  const hidden = defs.filter((d) => !shown.includes(d));
  const bodyId = `algorithm-body-${index}`;

  const remove = () => {
    const r = removeAlgorithm(draft, index);
    setError(r.ok ? null : r.error);
    if (r.ok) replaceDraft(r.draft);
  };

  return (
    <li className="algo-card" data-testid={`algorithm-${id}`} style={{ borderLeftColor: color }}>
      <div className="algo-head">
        <span className="swatch" style={{ background: color }} aria-hidden="true" />
        <button type="button" className="algo-toggle" aria-expanded={expanded} aria-controls={bodyId} data-testid={`toggle-${id}`}
          onClick={() => setOpen(!expanded)} title={expanded ? 'Hide the fields' : 'Show the fields'}>
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {algorithmSummary(entry)}
        </button>
        <button type="button" className="algo-remove" data-testid={`remove-${id}`} aria-label={`Remove ${label}`} onClick={remove}
          disabled={count <= 1} title={count <= 1 ? 'An experiment needs at least one algorithm' : `Remove ${label} (restarts the experiment)`}>
          ×
        </button>
      </div>
      <label className="algo-name">
        <span className="ctl-label">Name</span>{' '}
        <input type="text" data-testid={`label-${id}`} maxLength={40} placeholder={algorithmLabel({ ...rec, label: undefined })}
          defaultValue={typeof rec.label === 'string' ? rec.label : ''} aria-label={`Name of ${label}'s line`}
          title="The name of this line in the legend, captions and verdicts (empty: the derived name). Does not restart the run."
          onChange={(e) => setDraftValue(`${prefix}.label`, e.currentTarget.value.trim() === '' ? undefined : e.currentTarget.value)} />
      </label>
      <Message path={`${prefix}.label`} />
      <Message path={prefix} />
      {error && <p className="field-error" role="alert">{error}</p>}
      {expanded && (
        <div id={bodyId} className="algo-body">
          <div className="ctl-grid">
            {shown.map((d) => (
              <Field key={d.path} def={d} labelPrefix={label} />
            ))}
          </div>
          {hidden.length > 0 && (
            <p className="muted algo-hidden">
              Hidden:{' '}
              {[
                [hidden.filter((d) => !d.gaeOnly || rec.advantage === 'gae'), `not read by the ${String(rec.rule)} rule`] as const,
                [hidden.filter((d) => d.gaeOnly && rec.advantage !== 'gae'), 'gae advantages only'] as const,
              ]
                .filter(([ds]) => ds.length > 0)
                .map(([ds, why]) => `${ds.map((d) => d.label).join(', ')} (${why})`)
                .join('; ')}
              .
            </p>
          )}
        </div>
      )}
    </li>
  );
}

export function AlgorithmList() {
  const algorithms = useApp((s) => s.draft.algorithms);
  const draft = useApp((s) => s.draft);
  const plan = useApp((s) => s.plan);
  const valid = useApp(isValid);
  const [preset, setPreset] = useState<string>(ALGORITHM_PRESET_IDS[0]!);
  const [error, setError] = useState<string | null>(null);
  const list = Array.isArray(algorithms) ? algorithms : [];
  const implicit = algorithms === undefined;
  const seen = new Map<string, number>();

  const add = () => {
    const r = addAlgorithm(draft, preset);
    setError(r.ok ? null : r.error);
    if (r.ok) replaceDraft(r.draft);
  };

  return (
    <div className="ctl-section-body">
      <Message path="algorithms" />
      {implicit && (
        <p className="muted">
          This config leaves the algorithms out, so it runs the nine named ones.{' '}
          <button type="button" data-testid="list-algorithms" onClick={() => replaceDraft({ ...draft, algorithms: algorithmsOf(draft) })}>
            List them to edit
          </button>
        </p>
      )}
      <ul className="algo-list" data-testid="algorithm-list">
        {list.map((entry, i) => {
          const id = effectiveAlgorithm(entry).id;
          const n = (seen.get(id) ?? 0) + 1;
          seen.set(id, n);
          const color = valid && plan?.algorithms[i]?.id === id ? plan.algorithms[i]!.color : algorithmColor(effectiveAlgorithm(entry));
          return <AlgorithmCard key={n > 1 ? `${id}#${n}` : id} index={i} entry={entry} color={color} count={list.length} />;
        })}
      </ul>
      <div className="algo-add">
        <label>
          <span className="ctl-label">Add algorithm</span>{' '}
          <select data-testid="add-algorithm-preset" aria-label="Algorithm preset to add" value={preset} onChange={(e) => setPreset(e.target.value)}>
            {ALGORITHM_PRESET_IDS.map((p) => (
              <option key={p} value={p}>{ALGORITHM_PRESETS[p]!.label}</option>
            ))}
          </select>
        </label>
        <button type="button" data-testid="add-algorithm" onClick={add} title="Adds an entry with the preset's fields (restarts the experiment)">
          Add
        </button>
      </div>
      {error && <p className="field-error" role="alert" data-testid="add-algorithm-error">{error}</p>}
    </div>
  );
}
