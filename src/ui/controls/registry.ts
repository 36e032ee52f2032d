import { describeRange, type NumSpec } from '../../core/config/fields';
import { LIMITS } from '../../core/config/schema';
import { isHotPath } from '../../core/config/hot-paths';
import { DEFAULTS } from '../../core/config/defaults';
import { ENV_PRESETS, ENV_PRESET_NAMES } from '../../core/env/presets';
import * as O from '../../core/options';
import { ALGORITHM_IDS, FIELDS_USED_BY_RULE, type AlgorithmRecord, type Rule } from '../../core/algo/records';

// The typed parameter registry (as TensorFlow Playground's state.ts): one entry per control,
// with the range the schema checks (LIMITS, or a preset's allowed sizes), the option lists,
// a tooltip in the terms of docs/math.md, and whether a change applies live or restarts.
// Pure: no React. The values are checked by the schema itself (../draft-errors.ts shows its
// messages beside these controls); the ranges here are for the hints and tooltips.

/** The controls' option lists: the tuples of src/core/options.ts, the ones the schema checks. */
export const OPTIONS = {
  mode: O.MODES,
  optimizer: O.OPTIMIZERS,
  policy: O.POLICY_KINDS,
  activation: O.ACTIVATIONS,
  noise: O.NOISE_KINDS,
  advantage: O.ESTIMATORS,
  normalization: O.NORMALIZATIONS,
  rule: O.RULES,
  ratio: O.RATIO_LEVELS,
  order: O.TURN_ORDERS,
  turnRatio: O.TURN_RATIOS,
};

export type ControlKind = 'int' | 'number' | 'select' | 'bool' | 'intList';
type Draft = Record<string, unknown>;

export interface ControlDef {
  /** Config path: "seeds", "env.turns", "algorithms[2].clip". */
  path: string;
  label: string;
  kind: ControlKind;
  /** Allowed numbers (for intList: of each entry). */
  spec?: NumSpec;
  /** null is allowed (numOrNull) and means `nullText`. */
  nullable?: boolean;
  nullText?: string;
  /** An empty box removes the field, so the default (or the preset's value) applies. */
  optional?: boolean;
  /** What the control shows while the draft leaves the field out. */
  fallback?: unknown;
  options?: readonly string[];
  optionLabels?: Readonly<Record<string, string>>;
  /** One line: what it does (docs/math.md terms). */
  help: string;
  /** true: applied to the running experiment; false: a change restarts it. */
  hot: boolean;
  /** A slider beside the box (log: the slider moves log10 of the value). */
  slider?: { min: number; max: number; step: number; log?: boolean; name: string };
  /** Algorithm fields: the field's name and the rules that read it (FIELDS_USED_BY_RULE). */
  field?: AlgoField;
  rules?: readonly Rule[];
  /** Read only with gae advantages. */
  gaeOnly?: boolean;
}

type AlgoField = Exclude<keyof AlgorithmRecord, 'id'>;

const int = (s: { min: number; max: number }): NumSpec => ({ min: s.min, max: s.max, int: true });

/** Short range text for beside a box: "1–1024", ">0 … 100". */
export function rangeHint(def: ControlDef): string {
  const s = def.spec;
  if (!s) return '';
  const f = (n: number) => (Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n));
  const text = s.openMin || s.openMax ? `${s.openMin ? '>' : ''}${f(s.min)} … ${s.openMax ? '<' : ''}${f(s.max)}` : `${f(s.min)}–${f(s.max)}`;
  return def.kind === 'intList' ? `widths ${text}` : text;
}

/** The tooltip: help, then the allowed range or values (describeRange from fields.ts). */
export function tooltip(def: ControlDef): string {
  let allowed = '';
  if (def.kind === 'intList' && def.spec) allowed = `up to ${LIMITS.hiddenLayers} widths, each ${describeRange(def.spec)}`;
  else if (def.spec) allowed = describeRange(def.spec) + (def.nullable ? ` (empty: ${def.nullText ?? 'none'})` : '');
  else if (def.options) allowed = `one of ${def.options.join(', ')}`;
  else if (def.kind === 'bool') allowed = 'on or off';
  return `${def.help} Allowed: ${allowed}. ${def.hot ? 'Applies to the running experiment.' : 'A change restarts the experiment.'}`;
}

// whether a control is hot is not written here: isHotPath (core/config/hot-paths.ts) decides it from the path
const ctl = (d: Omit<ControlDef, 'hot'>): ControlDef => ({ ...d, hot: isHotPath(d.path) });

/** Run settings (PolicyControls): mode, iterations, seeds, seed, groupSize. */
export const RUN_CONTROLS: readonly ControlDef[] = [
  ctl({ path: 'mode', label: 'Mode', kind: 'select', options: OPTIONS.mode, fallback: DEFAULTS.mode,
    optionLabels: { exact: 'Exact (deterministic)', sampled: 'Sampled' },
    help: 'Sampled: G rollouts per context each iteration. Exact: every token sequence weighted by its probability, as if G were infinite (deterministic).' }),
  ctl({ path: 'iterations', label: 'Iterations', kind: 'int', spec: LIMITS.iterations, fallback: DEFAULTS.iterations,
    help: 'Updates per run; J is measured before the first and after each.' }),
  ctl({ path: 'seeds', label: 'Seeds', kind: 'int', spec: LIMITS.seeds, fallback: DEFAULTS.seeds,
    help: 'Independent runs per algorithm; curves show the mean across seeds with a 95% interval.' }),
  ctl({ path: 'seed', label: 'Seed', kind: 'int', spec: LIMITS.seed, fallback: DEFAULTS.seed,
    help: 'Experiment seed: initial parameters, sampling, shuffles and random orders derive from it, so a seed replays the same runs.' }),
  ctl({ path: 'groupSize', label: 'Group size G', kind: 'int', spec: LIMITS.groupSize, fallback: DEFAULTS.groupSize,
    help: 'G: rollouts sampled per context each iteration (one group); the group mean is GRAE\'s baseline. Sampled mode only.' }),
];

export const OPTIMIZER_CONTROLS: readonly ControlDef[] = [
  ctl({ path: 'optimizer.kind', label: 'Optimizer', kind: 'select', options: OPTIONS.optimizer, fallback: DEFAULTS.optimizer.kind,
    optionLabels: { sgd: 'SGD', adam: 'Adam' },
    help: 'sgd: θ ← θ + lr·∇L. adam: Adam with β = (0.9, 0.999), ε = 1e-8, one state per run kept across iterations and turns.' }),
  ctl({ path: 'optimizer.lr', label: 'Learning rate', kind: 'number', spec: LIMITS.lr, fallback: DEFAULTS.optimizer.lr,
    slider: { min: -3, max: 3, step: 0.01, log: true, name: 'learning rate' },
    help: 'lr of the policy update; every surrogate is scaled so one lr gives every algorithm the same first step. An algorithm with a learning rate of its own keeps it.' }),
];

/** Policy controls for the draft's policy kind. */
export function policyControls(draft: Draft): ControlDef[] {
  const policy = draft.policy as { kind?: unknown } | undefined;
  const mlp = policy?.kind === 'mlp';
  const defs = [
    ctl({ path: 'policy.kind', label: 'Policy', kind: 'select', options: OPTIONS.policy, fallback: 'tabular',
      optionLabels: { tabular: 'Tabular', mlp: 'MLP (shared)' },
      help: 'Tabular: one vector of V logits per decision node, all independent. MLP: one network shared by every context, turn and position.' }),
  ];
  if (mlp)
    defs.push(
      ctl({ path: 'policy.hidden', label: 'Hidden sizes', kind: 'intList', spec: LIMITS.hiddenWidth, optional: true, fallback: DEFAULTS.mlpHidden,
        help: `Widths of the MLP's hidden layers, e.g. "32" or "64,64" (at most ${LIMITS.hiddenLayers} layers).` }),
      ctl({ path: 'policy.activation', label: 'Activation', kind: 'select', options: OPTIONS.activation, optional: true,
        fallback: DEFAULTS.mlpActivation, help: "Activation of the MLP's hidden layers." }),
    );
  defs.push(
    ctl({ path: 'policy.initScale', label: 'Init scale', kind: 'number', spec: LIMITS.initScale, optional: true, fallback: mlp ? 1 : 0,
      help: mlp ? 'Scale of the seeded Glorot initialization of the MLP (default 1).' : 'Std of seeded normal initial logits; 0 (default) starts uniform.' }),
  );
  if (!mlp)
    defs.push(
      ctl({ path: 'policy.shareContexts', label: 'Share the table across prompts', kind: 'bool', optional: true, fallback: false,
        help: 'One table of logits for every context: the policy cannot see the prompt, J* is the best of the context-weighted mean reward table, and group normalization lets every prompt pull the shared logits equally (claim 5). Needs at least 2 contexts; the WebGPU executor does not run it.' }),
    );
  return defs;
}

/** The preset an env draft names, or null for a custom table (or an unknown name). */
export function envPresetOf(draft: Draft): string | null {
  const env = draft.env as { preset?: unknown } | undefined;
  const p = env?.preset;
  return typeof p === 'string' && Object.hasOwn(ENV_PRESETS, p) ? p : null;
}

/** True when the draft's env is a custom reward table (an object without "preset"). */
export function isCustomEnv(draft: Draft): boolean {
  const env = draft.env;
  return typeof env === 'object' && env !== null && !Array.isArray(env) && !('preset' in env);
}

/** Contexts of the draft's env when known (a preset's, or a custom table's), else null. */
export function envContexts(draft: Draft): number | null {
  const preset = envPresetOf(draft);
  if (preset) return ENV_PRESETS[preset]!.contexts;
  if (!isCustomEnv(draft)) return null;
  const env = draft.env as { contexts?: unknown; rewards?: unknown };
  if (typeof env.contexts === 'number' && Number.isInteger(env.contexts) && env.contexts >= 1) return env.contexts;
  return Array.isArray(env.rewards) && env.rewards.length > 0 ? env.rewards.length : null;
}

const SIZE_HELP = {
  turns: 'T: turns per episode; a turn is one response (a virtual agent of the sequential view), all sharing one reward.',
  tokensPerTurn: 'L: tokens per turn, so a turn has V^L possible responses.',
  vocab: 'V: tokens in the vocabulary; an episode has V^(T·L) token sequences per context.',
} as const;

/** Environment controls for the draft's env: a preset's sizes take its allowed ranges. */
export function envControls(draft: Draft): ControlDef[] {
  const preset = envPresetOf(draft);
  const custom = isCustomEnv(draft);
  const def = preset ? ENV_PRESETS[preset]! : null;
  const contexts = envContexts(draft);
  const defs: ControlDef[] = [
    ctl({ path: 'env.preset', label: 'Environment', kind: 'select', options: ENV_PRESET_NAMES,
      optionLabels: Object.fromEntries(ENV_PRESET_NAMES.map((n) => [n, ENV_PRESETS[n]!.title])),
      help: 'A named multi-turn bandit (its reward rule generates the table), or a custom reward table.' }),
  ];
  for (const k of ['turns', 'tokensPerTurn', 'vocab'] as const)
    defs.push(ctl({ path: `env.${k}`, label: { turns: 'Turns T', tokensPerTurn: 'Tokens per turn L', vocab: 'Vocabulary V' }[k],
      kind: 'int', spec: def ? int(def.allowed[k]) : LIMITS[k], optional: !custom, fallback: def?.defaults[k],
      help: SIZE_HELP[k] + (def ? ` Preset "${def.name}" allows ${def.allowed[k].min}–${def.allowed[k].max}.` : '') }));
  if (custom)
    defs.push(ctl({ path: 'env.contexts', label: 'Contexts', kind: 'int', spec: LIMITS.contexts, optional: true, fallback: contexts ?? undefined,
      help: 'Contexts (prompts), drawn uniformly; each has its own reward table (default: one per table given).' }));
  defs.push(
    ctl({ path: 'env.contextsPerBatch', label: 'Contexts per batch B', kind: 'int', optional: true, fallback: contexts ?? undefined,
      spec: { min: 1, max: Math.min(LIMITS.contexts.max, contexts ?? LIMITS.contexts.max), int: true },
      help: 'B: contexts sampled each iteration (default: every context once).' }),
    ctl({ path: 'env.noise.kind', label: 'Reward noise', kind: 'select', options: OPTIONS.noise, optional: true,
      optionLabels: { none: 'None', gaussian: 'Gaussian', bernoulli: 'Bernoulli' },
      help: 'Noise on the terminal reward: gaussian R = R̄ + σ·N(0,1); bernoulli: R̄ in [0,1] is a success probability, R ∈ {0,1}.' }),
  );
  const noise = (draft.env as { noise?: unknown } | undefined)?.noise as { kind?: unknown } | undefined;
  if (noise?.kind === 'gaussian')
    defs.push(ctl({ path: 'env.noise.sigma', label: 'Noise σ', kind: 'number', spec: LIMITS.sigma, help: 'σ of the gaussian reward noise.' }));
  defs.push(
    ctl({ path: 'env.gamma', label: 'Discount γ', kind: 'number', spec: LIMITS.gamma, optional: true, fallback: DEFAULTS.gamma,
      help: 'γ: the tokens of turn t are fed γ^(T−t)·Â; J itself stays undiscounted.' }),
  );
  return defs;
}

/** Rules that read an algorithm field (FIELDS_USED_BY_RULE). */
export function rulesReading(field: AlgoField): Rule[] {
  return (Object.keys(FIELDS_USED_BY_RULE) as Rule[]).filter((r) => FIELDS_USED_BY_RULE[r].includes(field));
}

const alg = (field: AlgoField, d: Omit<ControlDef, 'path' | 'hot' | 'field' | 'rules' | 'optional'>): ControlDef =>
  ({ ...d, hot: isHotPath(`algorithms[0].${field}`), path: field, field, optional: true, rules: field === 'rule' ? undefined : rulesReading(field) });

/** Algorithm fields; `path` is the field name (algorithmControls gives full paths). */
export const ALGORITHM_FIELDS: readonly ControlDef[] = [
  alg('advantage', { label: 'Advantage', kind: 'select', options: OPTIONS.advantage,
    help: 'grae: R − group mean; rloo: R − mean of the other G−1 rollouts; gae: a learned critic with λ-returns (PPO\'s reference).' }),
  alg('normalization', { label: 'Normalization', kind: 'select', options: OPTIONS.normalization,
    help: 'none; group: divide by the group\'s reward std (GRPO); batch: standardize over all B·G rollouts (SeeUPO).' }),
  alg('rule', { label: 'Update rule', kind: 'select', options: OPTIONS.rule,
    help: 'reinforce: one policy-gradient step; ppu: PPO-clip on every turn at once; sequential: turns updated one at a time (HAML/SeeUPO).' }),
  alg('ratio', { label: 'Ratio level', kind: 'select', options: OPTIONS.ratio,
    help: 'Token ratios (PPO/GRPO) or one geometric-mean ratio per rollout (GSPO).' }),
  alg('order', { label: 'Turn order', kind: 'select', options: OPTIONS.order,
    help: 'reverse: T…1 (SeeUPO\'s backward induction); forward: 1…T; random: a fresh seeded permutation each iteration.' }),
  alg('turnRatio', { label: 'Turn ratio', kind: 'select', options: OPTIONS.turnRatio,
    help: 'A turn\'s ratio: the product of its token ratios (paper eq. 6) or their geometric mean (released code).' }),
  alg('mCorrection', { label: 'M correction', kind: 'bool',
    help: 'Weight each turn\'s surrogate by M, the ratio of the turns already updated (HAML); off keeps M = 1.' }),
  alg('mClip', { label: 'M clip', kind: 'number', spec: LIMITS.mClip, nullable: true, nullText: 'none',
    help: 'Clip M to [1−c, 1+c] after each turn (released code: 0.2); empty = none, as in the paper.' }),
  alg('clip', { label: 'Clip ε', kind: 'number', spec: LIMITS.clip,
    slider: { min: 0.01, max: 1, step: 0.01, name: 'clip ε' },
    help: 'ε of PPO-clip: ratios are clipped to [1−ε, 1+ε].' }),
  alg('lr', { label: 'Learning rate', kind: 'number', spec: LIMITS.lr, nullable: true, nullText: "the experiment's lr",
    help: 'This algorithm\'s own learning rate, in place of the experiment\'s (optimizer.lr); empty = the experiment\'s. Unlike the experiment\'s lr it cannot change mid-run: a change restarts the experiment.' }),
  alg('epochs', { label: 'Epochs', kind: 'int', spec: LIMITS.epochs,
    help: 'Passes over the batch each iteration (per turn under the sequential rule).' }),
  alg('minibatches', { label: 'Minibatches', kind: 'int', spec: LIMITS.minibatches,
    help: 'Equal seeded-shuffled chunks per epoch, one optimizer step each; must divide B·G in sampled mode.' }),
  alg('gaeLambda', { label: 'GAE λ', kind: 'number', spec: LIMITS.gaeLambda, gaeOnly: true,
    help: 'λ of GAE\'s λ-returns (gae advantages only).' }),
  alg('criticLr', { label: 'Critic lr', kind: 'number', spec: LIMITS.criticLr, nullable: true, nullText: 'the policy lr', gaeOnly: true,
    help: 'Learning rate of the critic\'s SGD step per epoch (gae only); empty = the policy\'s lr.' }),
];

/** Presets offered by "Add algorithm", in the app's order. */
export const ALGORITHM_PRESET_IDS: readonly string[] = ALGORITHM_IDS;

/** The algorithm fields of entry i, with full paths and the entry's current values as fallbacks. */
export function algorithmControls(i: number, effective?: AlgorithmRecord): ControlDef[] {
  return ALGORITHM_FIELDS.map((d) => ({
    ...d,
    path: `algorithms[${i}].${d.field}`,
    fallback: effective ? effective[d.field!] : undefined,
  }));
}

/** Whether an algorithm with these effective values reads the field; an unknown rule reads all. */
export function isFieldRelevant(def: ControlDef, rec: Pick<AlgorithmRecord, 'rule' | 'advantage'>): boolean {
  if (!def.field || !def.rules) return true;
  if (!Object.hasOwn(FIELDS_USED_BY_RULE, rec.rule)) return true;
  if (def.gaeOnly && rec.advantage !== 'gae') return false;
  return def.rules.includes(rec.rule);
}

/** Every control of the draft (algorithm fields with full paths), e.g. for validation. */
export function controlsFor(draft: Draft): ControlDef[] {
  const algos = Array.isArray(draft.algorithms) ? draft.algorithms : [];
  return [
    ...envControls(draft),
    ...policyControls(draft),
    ...RUN_CONTROLS,
    ...OPTIMIZER_CONTROLS,
    ...algos.flatMap((_, i) => algorithmControls(i)),
  ];
}
