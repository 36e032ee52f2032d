import * as z from 'zod';
import { ENV_PRESET_NAMES, ENV_PRESETS, type EnvPreset } from '../env/presets';
import { ALGORITHM_IDS } from '../algo/records';
import { bool, finiteNumber, isRecord, listOf, num, numOrNull, oneOf, show } from './fields';
import { CHANGE_PATH } from './hot-paths';
import {
  ACTIVATIONS,
  BACKENDS,
  ESTIMATORS,
  EXECUTORS,
  MODES,
  NOISE_KINDS,
  NORMALIZATIONS,
  OPTIMIZERS,
  POLICY_KINDS,
  RATIO_LEVELS,
  RULES,
  TURN_ORDERS,
  TURN_RATIOS,
  type Activation,
} from '../options';

// The one config schema (docs/cli.md "The config", version 1). Controls, permalinks, the CLI and
// validation all read it; resolve.ts turns a parsed config into the engine's Experiment.

export const LIMITS = {
  turns: { min: 1, max: 8, int: true },
  vocab: { min: 2, max: 64, int: true },
  tokensPerTurn: { min: 1, max: 8, int: true },
  contexts: { min: 1, max: 256, int: true },
  gamma: { min: 0, max: 1 },
  sigma: { min: 0, max: 100 },
  iterations: { min: 1, max: 100_000, int: true },
  seeds: { min: 1, max: 1024, int: true },
  seed: { min: 0, max: 2 ** 31 - 1, int: true },
  groupSize: { min: 2, max: 4096, int: true },
  lr: { min: 0, max: 1000, openMin: true },
  initScale: { min: 0, max: 10 },
  hiddenLayers: 4,
  hiddenWidth: { min: 1, max: 1024, int: true },
  algorithms: 16,
  /** An algorithm's `label`. */
  labelChars: 40,
  clip: { min: 0, max: 10, openMin: true },
  epochs: { min: 1, max: 64, int: true },
  minibatches: { min: 1, max: 4096, int: true },
  mClip: { min: 0, max: 1, openMin: true, openMax: true },
  gaeLambda: { min: 0, max: 1 },
  criticLr: { min: 0, max: 100, openMin: true },
  mcSamples: { min: 16, max: 1_000_000, int: true },
  /** Learning-rate and clip changes an experiment may schedule (`changes`). */
  changes: 64,
  /** contexts · V^(T·L): exact J enumerates every token sequence. */
  maxSequences: 65_536,
  /** An MLP policy in sampled mode may go further, with a Monte-Carlo J (the reward table stays in memory). */
  maxSequencesMc: 1_048_576,
  /** runs · (iterations + 1): values stored per metric. */
  maxStoredPoints: 4_000_000,
  /** token-updates an experiment may take (≈ a few minutes on one core). */
  maxWork: 2e10,
  /**
   * Estimated peak tensor memory of the tensor executor (resolve.ts tensorMemory): parameters and
   * optimizer state, activations over the rows of every forward/backward, rollout buffers, and the
   * Monte-Carlo sampling buffers. The wasm backend's heap ends at 4 GiB ("memory access out of
   * bounds"); 2 GiB of estimate keeps a margin for the estimate's error and the host's copies.
   */
  maxTensorBytes: 2 * 2 ** 30,
  /**
   * Multiply-adds (and their equivalents) an experiment may take on the tensor executor
   * (resolve.ts tensorWork: the network's forward/backward passes, per-token work, Monte-Carlo
   * sampling): measured at 1.5–7·10⁻¹⁰ s each on Node's wasm backend, one core (at most 1.4·10⁻⁹),
   * so one to six minutes there.
   */
  maxNetworkWork: 5e11,
  /** runs·nodes·vocab of one tensor shard's log-probability tables (exec/tensor/shard.ts MAX_TABLE_ENTRIES). */
  maxTableEntries: 2 ** 24,
} as const;

export const noiseSchema = z.union([
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({ kind: z.literal('gaussian'), sigma: num(LIMITS.sigma) }),
  z.strictObject({ kind: z.literal('bernoulli') }),
]);

/**
 * A schema made on first use and kept: the schemas a parse picks by a value (a noise kind, an
 * env preset, a policy kind) are made once, not at every parse (building zod schemas is most of
 * what validating a small config costs, docs/architecture.md "Start-up").
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const noiseSchemas = {
  gaussian: once(() => z.strictObject({ kind: z.literal('gaussian'), sigma: num(LIMITS.sigma) })),
  none: once(() => z.strictObject({ kind: z.literal('none') })),
  bernoulli: once(() => z.strictObject({ kind: z.literal('bernoulli') })),
  other: once(() => z.strictObject({ kind: oneOf(NOISE_KINDS) })),
};

/** Noise is parsed by kind so a bad field gets its own message, not a union summary. */
export const noiseField = z.unknown().transform((v, ctx) => {
  const one = (item: unknown, path: (string | number)[]) => {
    const kind = (item as { kind?: unknown } | null)?.kind;
    const schema =
      kind === 'gaussian' ? noiseSchemas.gaussian() : kind === 'none' ? noiseSchemas.none() : kind === 'bernoulli' ? noiseSchemas.bernoulli() : noiseSchemas.other();
    const r = schema.safeParse(item);
    if (!r.success) for (const iss of r.error.issues) ctx.addIssue({ ...iss, path: [...path, ...iss.path] } as never);
    return r.success ? (r.data as z.infer<typeof noiseSchema>) : undefined;
  };
  if (Array.isArray(v)) return v.map((item, i) => one(item, [i]));
  return one(v, []);
});

/**
 * Per-turn rewards (docs/math.md "Environments: multi-turn bandits"): per context, T−1 tables; table t holds the reward paid at
 * the end of turn t + 1, one number per (t + 1)-turn prefix. resolve.ts checks the shapes.
 */
const turnRewardsField = listOf(
  listOf(listOf(finiteNumber(), 'a list of numbers (one per prefix ending at that turn)'), 'a list of turn tables (one per turn before the last)'),
  'a list with one list of turn tables per context',
);

/** A custom env's sizes (a preset's: presetSize). */
export const sizeFields = {
  turns: num(LIMITS.turns),
  vocab: num(LIMITS.vocab),
  tokensPerTurn: num(LIMITS.tokensPerTurn),
};

export const customEnvSchema = z.strictObject({
  ...sizeFields,
  contexts: num(LIMITS.contexts).optional(),
  contextsPerBatch: num(LIMITS.contexts).optional(),
  rewards: listOf(listOf(finiteNumber(), 'a list of numbers (one per token sequence)'), 'a list of reward tables, one per context (at least one)').min(
    1,
    'must have one reward table per context (at least one)',
  ),
  turnRewards: turnRewardsField.optional(),
  noise: noiseField.optional(),
  gamma: num(LIMITS.gamma).optional(),
});

/** A size of a preset's env: within the preset's own range (def.allowed), or LIMITS when the preset is unknown. */
const presetSize = (def: EnvPreset | null, k: keyof typeof sizeFields) =>
  def ? num({ ...def.allowed[k], int: true }, `for preset "${def.name}"`) : sizeFields[k];

const makePresetEnvObject = (def: EnvPreset | null) =>
  z.strictObject({
    preset: oneOf(ENV_PRESET_NAMES),
    turns: presetSize(def, 'turns').optional(),
    vocab: presetSize(def, 'vocab').optional(),
    tokensPerTurn: presetSize(def, 'tokensPerTurn').optional(),
    contextsPerBatch: num(LIMITS.contexts).optional(),
    turnRewards: turnRewardsField.optional(),
    noise: noiseField.optional(),
    gamma: num(LIMITS.gamma).optional(),
  });

/** Each preset's env schema (and the unknown preset's, null), made on first use. */
const presetEnvObjects = new Map<EnvPreset | null, ReturnType<typeof makePresetEnvObject>>();
function presetEnvObject(def: EnvPreset | null): ReturnType<typeof makePresetEnvObject> {
  let schema = presetEnvObjects.get(def);
  if (!schema) presetEnvObjects.set(def, (schema = makePresetEnvObject(def)));
  return schema;
}

/** A preset's env, parsed by preset so its sizes are checked against the preset's own ranges. */
export const presetEnvSchema = z.unknown().transform((v, ctx) => {
  const name = isRecord(v) ? v.preset : undefined;
  const def = typeof name === 'string' && Object.hasOwn(ENV_PRESETS, name) ? ENV_PRESETS[name]! : null;
  const r = presetEnvObject(def).safeParse(v);
  if (!r.success) {
    for (const iss of r.error.issues) ctx.addIssue(iss as never);
    return z.NEVER;
  }
  return r.data;
});

const policySchemas = {
  mlp: once(() =>
    z.strictObject({
      kind: z.literal('mlp'),
      hidden: listOf(num(LIMITS.hiddenWidth), 'a list of widths, e.g. [32] or [64, 64]')
        .max(LIMITS.hiddenLayers, { error: (iss) => `at most ${LIMITS.hiddenLayers} hidden layers, got ${(iss.input as unknown[]).length}` })
        .optional(),
      activation: oneOf(ACTIVATIONS).optional(),
      initScale: num(LIMITS.initScale).optional(),
    }),
  ),
  tabular: once(() => z.strictObject({ kind: z.literal('tabular'), initScale: num(LIMITS.initScale).optional(), shareContexts: bool().optional() })),
  other: once(() => z.strictObject({ kind: oneOf(POLICY_KINDS) })),
};

export const policySchema = z.unknown().transform((v, ctx) => {
  const kind = (v as { kind?: unknown } | null)?.kind;
  if (kind === 'mlp' && typeof v === 'object' && v !== null && 'shareContexts' in v) {
    ctx.addIssue({
      code: 'custom',
      path: ['shareContexts'],
      message: 'is for tabular policies only: the MLP is one network for every context already (it sees the context as an input); remove it, or use kind "tabular"',
    });
    return z.NEVER;
  }
  const schema = kind === 'mlp' ? policySchemas.mlp() : kind === 'tabular' ? policySchemas.tabular() : policySchemas.other();
  const r = schema.safeParse(v);
  if (!r.success) {
    for (const iss of r.error.issues) ctx.addIssue(iss as never);
    return z.NEVER;
  }
  return r.data as
    | { kind: 'tabular'; initScale?: number; shareContexts?: boolean }
    | { kind: 'mlp'; hidden?: number[]; activation?: Activation; initScale?: number };
});

export const algorithmEntrySchema = z.strictObject({
  id: z.unknown().transform((v, ctx): string => {
    if (typeof v !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be 1–40 letters, digits or _.+- (starting with a letter or digit)' });
      return z.NEVER;
    }
    return v;
  }),
  preset: oneOf(ALGORITHM_IDS).optional(),
  advantage: oneOf(ESTIMATORS).optional(),
  normalization: oneOf(NORMALIZATIONS).optional(),
  rule: oneOf(RULES).optional(),
  ratio: oneOf(RATIO_LEVELS).optional(),
  order: oneOf(TURN_ORDERS).optional(),
  turnRatio: oneOf(TURN_RATIOS).optional(),
  mCorrection: bool().optional(),
  mClip: numOrNull(LIMITS.mClip).optional(),
  clip: num(LIMITS.clip).optional(),
  epochs: num(LIMITS.epochs).optional(),
  minibatches: num(LIMITS.minibatches).optional(),
  gaeLambda: num(LIMITS.gaeLambda).optional(),
  criticLr: numOrNull(LIMITS.criticLr).optional(),
  /** This algorithm's learning rate, in place of optimizer.lr (null: optimizer.lr). */
  lr: numOrNull(LIMITS.lr).optional(),
  /** A name for its line (legend, captions, verdicts) instead of the derived one. */
  label: z
    .unknown()
    .transform((v, ctx): string => {
      // C0 and C1 controls, and the bidirectional embeddings, overrides, isolates and marks: a
      // label with an unclosed U+202E would reverse the rest of every sentence it appears in
      if (typeof v !== 'string' || v.trim() === '' || v.length > LIMITS.labelChars || LABEL_FORBIDDEN.test(v)) {
        ctx.addIssue({ code: 'custom', message: `must be a name of 1–${LIMITS.labelChars} characters without control characters or bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), got ${show(v)}` });
        return z.NEVER;
      }
      return v.trim();
    })
    .optional(),
});

/** What a label may not hold: C0/C1 controls, and the bidirectional formatting characters. */
export const LABEL_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A learning-rate or clip change before iteration `at` (resolve.ts checks `at` and `value` against the rest). */
export const changeSchema = z.strictObject({
  at: num({ min: 0, max: LIMITS.iterations.max - 1, int: true }),
  path: z.unknown().transform((v, ctx): string => {
    if (typeof v !== 'string' || !CHANGE_PATH.test(v)) {
      ctx.addIssue({ code: 'custom', message: `must be "optimizer.lr" or "algorithms[i].clip", got ${show(v)}` });
      return z.NEVER;
    }
    return v;
  }),
  value: finiteNumber(),
});

export const configSchema = z.strictObject({
  version: z.unknown().transform((v, ctx): 1 => {
    if (v !== 1) {
      ctx.addIssue({
        code: 'custom',
        // only a whole number above 1 is a newer format; anything else (1.5, "1", a list) is simply wrong.
        // show(): a short escaped prefix, never the whole value (a 7 MB string, a 20,000-deep list)
        message:
          typeof v === 'number' && Number.isInteger(v) && v > 1
            ? `this config is version ${v}, from a newer version of the explorer; this one reads version 1`
            : `must be 1, got ${show(v)}`,
      });
      return z.NEVER;
    }
    return 1;
  }),
  env: z.unknown().optional(), // parsed by resolve.ts as a preset or a custom table
  policy: policySchema.optional(),
  mode: oneOf(MODES).optional(),
  iterations: num(LIMITS.iterations).optional(),
  seeds: num(LIMITS.seeds).optional(),
  seed: num(LIMITS.seed).optional(),
  /** Run only these seed indices (each with exactly its streams in the full run). */
  seedIndices: z.array(num({ min: 0, max: LIMITS.seeds.max - 1, int: true })).min(1, 'must list at least one seed index').max(LIMITS.seeds.max, `at most ${LIMITS.seeds.max} seed indices`).optional(),
  groupSize: num(LIMITS.groupSize).optional(),
  optimizer: z
    // kind defaults to the default optimizer's (a link or config giving only optimizer.lr means that lr with SGD)
    .strictObject({ kind: oneOf(OPTIMIZERS).optional(), lr: num(LIMITS.lr) })
    .optional(),
  algorithms: z.array(z.unknown()).min(1, 'must list at least one algorithm').max(LIMITS.algorithms, `at most ${LIMITS.algorithms} algorithms`).optional(),
  executor: oneOf(EXECUTORS).optional(),
  backend: oneOf(BACKENDS).optional(),
  mcSamples: num(LIMITS.mcSamples).optional(),
  changes: z.array(changeSchema).max(LIMITS.changes, `at most ${LIMITS.changes} changes`).optional(),
});

export type ConfigInput = z.input<typeof configSchema>;
export type ParsedConfig = z.output<typeof configSchema>;
export type AlgorithmEntry = z.output<typeof algorithmEntrySchema>;
