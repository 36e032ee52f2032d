import { useId, useState, type ChangeEvent } from 'react';
import { setDraftValue, useApp } from '../../store';
import { getPath, numberOrText } from '../../draft';
import { rangeHint, tooltip, type ControlDef } from '../../controls/registry';
import { useHidden } from '../../hide';

// One control rendered from a registry entry. Number boxes are text boxes bound to the draft
// value as a string: whatever is typed reaches validation (bad text gets the schema's message).

export interface FieldProps {
  def: ControlDef;
  /** Replaces setDraftValue(def.path, value) (e.g. switching the policy kind rewrites `policy`). */
  onValue?: (value: unknown) => void;
  /** Select entries shown before the registry's options (e.g. the preset's default noise). */
  leadingOptions?: readonly (readonly [value: string, label: string])[];
  /** Select entries shown after them (e.g. "Custom table"). */
  trailingOptions?: readonly (readonly [value: string, label: string])[];
  /** The select's value when the draft leaves the field out and the def has no fallback. */
  emptyValue?: string;
  /** Shown disabled, with this reason in the tooltip. */
  disabledReason?: string;
  /** Prefix of the accessible name, where labels repeat (an algorithm's label). */
  labelPrefix?: string;
}

const toText = (v: unknown): string => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join(',') : String(v));

/** "64, 64" → [64, 64]; "" → undefined (the default); bad entries stay text for the schema to name. */
function parseList(t: string): unknown {
  const parts = t.split(/[,\s]+/).filter((p) => p !== '');
  return parts.length === 0 ? undefined : parts.map(numberOrText);
}

export function Field({ def, onValue, leadingOptions, trailingOptions, emptyValue, disabledReason, labelPrefix }: FieldProps) {
  const raw = useApp((s) => getPath(s.draft, def.path));
  const error = useApp((s) => s.fieldErrors[def.path]);
  const [editing, setEditing] = useState<string | null>(null);
  const id = useId();
  const hidden = useHidden(def.path);
  const errorId = `${id}-error`;
  const value = raw === undefined ? def.fallback : raw;
  const commit = onValue ?? ((v: unknown) => setDraftValue(def.path, v));
  const name = labelPrefix ? `${labelPrefix} ${def.label}` : def.label;
  const title = disabledReason ? `${def.label}: ${disabledReason}` : tooltip(def);
  const common = {
    id,
    'data-testid': `field-${def.path}`,
    name: def.path,
    title,
    'aria-label': name,
    'aria-invalid': error !== undefined,
    'aria-describedby': error !== undefined ? errorId : undefined,
    disabled: disabledReason !== undefined,
  };

  const fromText = (t: string): unknown => {
    if (def.kind === 'intList') return parseList(t);
    if (t.trim() === '') return def.optional ? undefined : def.nullable ? null : t;
    return numberOrText(t);
  };
  const onText = (e: ChangeEvent<HTMLInputElement>) => {
    setEditing(e.target.value);
    commit(fromText(e.target.value));
  };

  let input;
  if (def.kind === 'select') {
    const current = value === undefined ? (emptyValue ?? '') : String(value);
    const options: [string, string][] = (leadingOptions ?? []).map(([v, l]) => [v, l]);
    for (const o of def.options ?? []) options.push([o, def.optionLabels?.[o] ?? o]);
    for (const [v, l] of trailingOptions ?? []) options.push([v, l]);
    if (!options.some(([v]) => v === current)) options.push([current, `${current === '' ? '(none)' : current} (invalid)`]);
    input = (
      <select {...common} value={current} onChange={(e) => commit(e.target.value === '' && def.optional ? undefined : e.target.value)}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>{l}</option>
        ))}
      </select>
    );
  } else if (def.kind === 'bool') {
    // an optional switch that is off by default leaves the config when unchecked (the link stays short)
    input = <input {...common} type="checkbox" checked={value === true} onChange={(e) => commit(!e.target.checked && def.optional && def.fallback === false ? undefined : e.target.checked)} />;
  } else {
    const text = editing ?? toText(value);
    input = (
      <input {...common} type="text" inputMode={def.kind === 'int' ? 'numeric' : def.kind === 'intList' ? 'text' : 'decimal'} autoComplete="off" spellCheck={false}
        placeholder={def.nullable ? def.nullText : undefined} value={text} onChange={onText} onBlur={() => setEditing(null)} />
    );
  }

  const slider = def.slider;
  const n = typeof value === 'number' ? value : NaN;
  if (hidden) return null; // hide=… in the link (classroom links)
  return (
    <div className={`ctl ctl-${def.kind}${error ? ' ctl-invalid' : ''}`}>
      <label className="ctl-label" htmlFor={id} title={title}>
        {def.label}
        <span className={`ctl-tag ${def.hot ? 'ctl-hot' : 'ctl-cold'}`}
          title={def.hot ? 'Applies to the running experiment from its next iteration' : 'A change restarts the experiment'}>
          {def.hot ? 'hot' : 'restarts'}
        </span>
      </label>
      <div className="ctl-row">
        {slider && (
          <input type="range" className="ctl-slider" data-testid={`slider-${def.path}`} aria-label={`${name} slider`}
            min={slider.min} max={slider.max} step={slider.step} disabled={common.disabled}
            value={Number.isFinite(n) ? Math.min(slider.max, Math.max(slider.min, slider.log ? Math.log10(n) : n)) : slider.min}
            aria-valuetext={`${slider.name} ${Number.isFinite(n) ? n : toText(value)}`}
            onChange={(e) => {
              const x = Number(e.target.value);
              const v = slider.log ? Number(Math.pow(10, x).toPrecision(2)) : Number(x.toFixed(2));
              setEditing(null);
              commit(v);
            }} />
        )}
        {input}
        {def.spec && <span className="ctl-range" aria-hidden="true">{rangeHint(def)}</span>}
      </div>
      {error && (
        <span className="field-error" role="alert" id={errorId} data-testid={`error-${def.path}`}>
          {error}
        </span>
      )}
    </div>
  );
}
