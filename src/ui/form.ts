import { DEFAULT_CONFIG } from '../core/config/defaults';
import { ConfigError } from '../core/config/fields';
import type { BackendName } from '../exec/tensor/backend';

// The page's controls, as strings, and the config they make. Validation is resolveConfig's
// (through planExperiment); its errors are mapped back to the control that caused them.

export interface FormValues {
  policy: 'tabular' | 'mlp';
  mode: 'sampled' | 'exact';
  iterations: string;
  seeds: string;
  executor: 'auto' | 'cpu' | 'tensor';
  backend: 'auto' | BackendName;
}

export type Field = keyof FormValues;
export const FIELDS: readonly Field[] = ['policy', 'mode', 'iterations', 'seeds', 'executor', 'backend'];

/** The MLP the policy control offers: one hidden layer of 32 tanh units. */
export const MLP_POLICY = { kind: 'mlp' as const, hidden: [32], activation: 'tanh' as const };

export const DEFAULT_FORM: FormValues = {
  policy: DEFAULT_CONFIG.policy.kind,
  mode: DEFAULT_CONFIG.mode,
  iterations: String(DEFAULT_CONFIG.iterations),
  seeds: String(DEFAULT_CONFIG.seeds),
  executor: DEFAULT_CONFIG.executor,
  backend: 'auto',
};

/** A number field's value: the number, or the raw text when it is not one (resolveConfig then names it). */
const numberOrText = (s: string): unknown => {
  const t = s.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : s;
};

export function configFromForm(f: FormValues): Record<string, unknown> {
  const config: Record<string, unknown> = {
    ...DEFAULT_CONFIG,
    policy: f.policy === 'mlp' ? MLP_POLICY : { kind: 'tabular' },
    mode: f.mode,
    iterations: numberOrText(f.iterations),
    seeds: numberOrText(f.seeds),
    executor: f.executor,
  };
  if (f.backend !== 'auto') config.backend = f.backend;
  return config;
}

/** The control a config error belongs to, or null when it names no control (then the banner shows it). */
export function fieldOf(e: unknown): Field | null {
  if (!(e instanceof ConfigError)) return null;
  const head = e.path.split(/[.[]/)[0] as Field;
  return FIELDS.includes(head) ? head : null;
}
