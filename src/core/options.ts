// Every option list of the config, defined once. The zod schema (config/schema.ts), the
// engine's types, the page's controls (ui/controls/registry.ts), the CLI's inputs and help, and the
// backend badge all read these tuples; nothing else writes an option list out.
// Imports nothing: any part of the project may depend on it.

/** Exact expectations over every token sequence, or sampled groups of rollouts (docs/math.md "Exact mode"). */
export const MODES = ['exact', 'sampled'] as const;
export type Mode = (typeof MODES)[number];

export const OPTIMIZERS = ['sgd', 'adam'] as const;
export type OptimizerKind = (typeof OPTIMIZERS)[number];

export const POLICY_KINDS = ['tabular', 'mlp'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export const ACTIVATIONS = ['tanh', 'relu'] as const;
export type Activation = (typeof ACTIVATIONS)[number];

export const NOISE_KINDS = ['none', 'gaussian', 'bernoulli'] as const;
export type NoiseKind = (typeof NOISE_KINDS)[number];

/**
 * Which engine runs the experiment: auto picks cpu for tabular policies, tensor for MLPs; webgpu
 * (whole iterations in WGSL, browser only) when asked for, or in the page on a hardware adapter (run/choose.ts).
 */
export const EXECUTORS = ['auto', 'cpu', 'tensor', 'webgpu'] as const;
export type ExecutorChoice = (typeof EXECUTORS)[number];

/** tfjs backends, in the order the page tries them. */
export const BACKENDS = ['webgpu', 'webgl', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKENDS)[number];
/** The backends Node offers (no GPU there). */
export const NODE_BACKENDS = ['wasm', 'cpu'] as const satisfies readonly BackendName[];

// Algorithm fields (docs/math.md "One iteration", "Update rules").
export const ESTIMATORS = ['grae', 'rloo', 'gae'] as const;
export type Estimator = (typeof ESTIMATORS)[number];
/** The estimators the `advantages` CLI command takes (gae needs a critic). */
export const GROUP_ESTIMATORS = ['grae', 'rloo'] as const satisfies readonly Estimator[];

export const NORMALIZATIONS = ['none', 'group', 'batch'] as const;
export type Normalization = (typeof NORMALIZATIONS)[number];

export const RULES = ['reinforce', 'ppu', 'sequential'] as const;
export type Rule = (typeof RULES)[number];

export const RATIO_LEVELS = ['token', 'sequence'] as const;
export type RatioLevel = (typeof RATIO_LEVELS)[number];

/** The order SeeUPO updates the turns in; reverse is the paper's backward induction. */
export const TURN_ORDERS = ['reverse', 'forward', 'random'] as const;
export type TurnOrder = (typeof TURN_ORDERS)[number];

export const TURN_RATIOS = ['product', 'geomean'] as const;
export type TurnRatio = (typeof TURN_RATIOS)[number];
