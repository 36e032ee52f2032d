import { ConfigError } from '../config/fields';

// The small changes a lesson's verdict is checked under (its `holdsUnder`): the same experiment
// with the learning rate scaled, with another experiment seed, or from a random start. They are
// the changes a reader would try first; a verdict that flips under one of them teaches an
// artifact of the chosen numbers, not the paper's mechanism. The JSON forms are those
// `seeupo-explorer lessons` prints (docs/cli.md): {"scale": "lr", "by": 0.5}, {"seed": 7},
// {"initScale": 0.3}.

export type Variant = { scale: 'lr'; by: number } | { seed: number } | { initScale: number };

/** The standard set: lr ×0.5 and ×2, experiment seeds 7 and 11, and (from a uniform start) initScale 0.3. */
export function standardVariants(uniformStart: boolean): Variant[] {
  const v: Variant[] = [{ scale: 'lr', by: 0.5 }, { scale: 'lr', by: 2 }, { seed: 7 }, { seed: 11 }];
  return uniformStart ? [...v, { initScale: 0.3 }] : v;
}

/** "lr ×0.5", "seed 7", "initScale 0.3" */
export function describeVariant(v: Variant): string {
  if ('scale' in v) return `lr ×${v.by}`;
  if ('seed' in v) return `seed ${v.seed}`;
  return `initScale ${v.initScale}`;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/**
 * The lesson's config with the variant applied (a new object; the lesson's stays as it is).
 * lr: the optimizer's and every algorithm's own lr (each algorithm's effective lr scales).
 * initScale: the policy's random start (the policy kind is kept; a missing policy is a table).
 */
export function applyVariant(config: Json, v: Variant): Json {
  const c = structuredClone(config);
  if ('scale' in v) {
    if (!(v.by > 0) || !Number.isFinite(v.by)) throw new ConfigError('holdsUnder.by', `must be a positive number, got ${v.by}`);
    const optimizer = obj(c.optimizer);
    if (typeof optimizer.lr !== 'number') throw new ConfigError('holdsUnder', 'lr ×k needs optimizer.lr set in the lesson');
    c.optimizer = { ...optimizer, lr: optimizer.lr * v.by };
    if (Array.isArray(c.algorithms))
      c.algorithms = c.algorithms.map((a) => (typeof obj(a).lr === 'number' ? { ...obj(a), lr: (obj(a).lr as number) * v.by } : a));
    return c;
  }
  if ('seed' in v) {
    if (!Number.isInteger(v.seed) || v.seed < 0) throw new ConfigError('holdsUnder.seed', `must be a non-negative integer, got ${v.seed}`);
    return { ...c, seed: v.seed };
  }
  if (!(v.initScale > 0) || !Number.isFinite(v.initScale)) throw new ConfigError('holdsUnder.initScale', `must be a positive number, got ${v.initScale}`);
  const policy = obj(c.policy);
  return { ...c, policy: { kind: 'tabular', ...policy, initScale: v.initScale } };
}

/** True when the config starts every seed from the uniform policy (a table with initScale 0, the default). */
export function startsUniform(config: Json): boolean {
  const policy = obj(config.policy);
  return (policy.kind ?? 'tabular') === 'tabular' && (policy.initScale ?? 0) === 0;
}
