import type { ChangeEvent, ReactNode } from 'react';
import { setField, useApp } from '../store';
import type { Field, FormValues } from '../form';

type Options = readonly (readonly [value: string, label: string])[];

const POLICY: Options = [['tabular', 'Tabular'], ['mlp', 'MLP (32 tanh)']];
const MODE: Options = [['sampled', 'Sampled'], ['exact', 'Exact (deterministic)']];
const EXECUTOR: Options = [['auto', 'Auto'], ['cpu', 'CPU (float64)'], ['tensor', 'Tensor (tfjs)']];
const BACKEND: Options = [['auto', 'Auto'], ['webgpu', 'WebGPU'], ['webgl', 'WebGL'], ['wasm', 'wasm'], ['cpu', 'tfjs cpu']];

const HINTS: Partial<Record<Field, string>> = {
  policy: 'Tabular: one logit per node and token. MLP: one hidden layer of 32 tanh units, on the tensor executor.',
  mode: 'Sampled: G rollouts per context each iteration. Exact: every token sequence weighted by its probability (deterministic).',
  executor: 'Auto: tabular policies on the CPU executor, MLPs (or a named backend) on the tensor executor.',
  backend: 'tfjs backend of the tensor executor. Auto prefers wasm when the only WebGPU adapter is software.',
};

/** One labelled control with resolveConfig's message for it underneath. */
function Control({ field, label, children }: { field: Field; label: string; children: ReactNode }) {
  const error = useApp((s) => s.fieldErrors[field]);
  return (
    <label className="control" title={HINTS[field]}>
      <span className="control-label">{label}</span>
      {children}
      {error && (
        <span className="field-error" role="alert" id={`${field}-error`} data-testid={`${field}-error`}>
          {error}
        </span>
      )}
    </label>
  );
}

function Select({ field, options }: { field: Field; options: Options }) {
  const value = useApp((s) => s.form[field]);
  const invalid = useApp((s) => s.fieldErrors[field] !== undefined);
  const onChange = (e: ChangeEvent<HTMLSelectElement>) => setField(field, e.target.value as FormValues[typeof field]);
  return (
    <select data-testid={field} name={field} value={value} onChange={onChange} aria-invalid={invalid}
      aria-describedby={invalid ? `${field}-error` : undefined}>
      {options.map(([v, l]) => (
        <option key={v} value={v}>{l}</option>
      ))}
    </select>
  );
}

function NumberInput({ field, max }: { field: 'iterations' | 'seeds'; max: number }) {
  const value = useApp((s) => s.form[field]);
  const invalid = useApp((s) => s.fieldErrors[field] !== undefined);
  return (
    <input type="number" inputMode="numeric" data-testid={field} name={field} min={1} max={max} step={1} value={value}
      onChange={(e) => setField(field, e.target.value)} aria-invalid={invalid}
      aria-describedby={invalid ? `${field}-error` : undefined} />
  );
}

/** The experiment's settings. Every change is validated by resolveConfig before a run may start. */
/** resolveConfig's warnings for the current settings (fields the chosen executor or rule ignores). */
function Warnings() {
  const warnings = useApp((s) => s.plan?.exp.warnings ?? []);
  const valid = useApp((s) => s.configError === null && Object.keys(s.fieldErrors).length === 0);
  if (!valid || warnings.length === 0) return null;
  return (
    <p className="config-warnings" data-testid="config-warnings">
      {warnings.join(' · ')}
    </p>
  );
}

export function ConfigControls() {
  const running = useApp((s) => s.status === 'running');
  return (
    <fieldset className="config" disabled={running} aria-label="Settings">
      <Control field="policy" label="Policy"><Select field="policy" options={POLICY} /></Control>
      <Control field="mode" label="Mode"><Select field="mode" options={MODE} /></Control>
      <Control field="iterations" label="Iterations"><NumberInput field="iterations" max={100_000} /></Control>
      <Control field="seeds" label="Seeds"><NumberInput field="seeds" max={1024} /></Control>
      <Control field="executor" label="Executor"><Select field="executor" options={EXECUTOR} /></Control>
      <Control field="backend" label="Backend"><Select field="backend" options={BACKEND} /></Control>
      <Warnings />
    </fieldset>
  );
}
