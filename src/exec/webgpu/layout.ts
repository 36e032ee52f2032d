import { algorithmLr, type AlgorithmRecord } from '../../core/algo/records';
import type { Experiment } from '../../core/config/resolve';
import { ESTIMATORS, NOISE_KINDS, NORMALIZATIONS, OPTIMIZERS, RATIO_LEVELS, RULES, TURN_ORDERS, TURN_RATIOS } from '../../core/options';
import { mlpWords, type MlpKernelShape } from './kernel-mlp';

// The one description of what the WebGPU kernel and its host share: every buffer's sections (the
// tables, the integer tables, one run's scratch, θ, Adam block and iteration record) and the
// algorithm record with its enum codes, declared once as data. The kernel's WGSL constants
// (wgslConstants) and the host's packing offsets (placeSections) are both generated from it, so
// the two cannot disagree; test/webgpu-layout.test.ts checks the emitted constants and that every
// generated kernel compiles.

export interface KernelShape {
  /** Sampled groups (B contexts × G rollouts), or the exact enumeration. */
  sampled: boolean;
  /** Contexts per batch and group size (sampled mode). */
  B: number;
  G: number;
  contexts: number;
  V: number;
  N: number;
  L: number;
  T: number;
  /** Decision nodes per context, and their offsets by position (N + 1 entries). */
  nodesPerContext: number;
  offset: readonly number[];
  /** Sequences per context. */
  S: number;
  /** γ between turns (GAE's step discount, the rewards-to-go). */
  gamma: number;
  /** Rewards at the end of every turn (env.turnRewards), not only the terminal one. */
  perTurn: boolean;
  /** The shared MLP (kernel-mlp.ts), or null: a tabular policy. */
  mlp: MlpKernelShape | null;
  /** Invocations (runs) per workgroup: workgroupSize(runs); 64 when not given. */
  workgroup?: number;
  /** One table for every context (policy.shareContexts): logits per (position, prefix) only; values, rewards and the critic stay per context. */
  shared?: boolean;
  /** Record J_γ too (usesDiscountedObjective: γ < 1 and per-turn rewards). */
  discounted?: boolean;
}

/** A run of consecutive words in a buffer: its WGSL name (the offset's constant) and its size for a shape. */
export interface Section {
  name: string;
  words: (s: KernelShape) => number;
  what: string;
}

/** Decision nodes of every context (each context its own copy of the tree): what values, reach and the critic are indexed by. */
export const nodeCount = (s: KernelShape) => s.contexts * s.nodesPerContext;
/** Contexts with a table of their own: every one, or one table for all (shared). */
export const tableContexts = (s: KernelShape) => (s.shared ? 1 : s.contexts);
/** Nodes with logits of their own: the policy's rows. */
export const paramNodes = (s: KernelShape) => tableContexts(s) * s.nodesPerContext;
/** Logits of the tabular table (or, with an MLP, the node logits it keeps current). */
export const logitWords = (s: KernelShape) => paramNodes(s) * s.V;
/** Rollouts of one iteration's batch: B·G sampled, or every sequence of every context. */
export const rollouts = (s: Pick<KernelShape, 'sampled' | 'B' | 'G' | 'contexts' | 'S'>) => (s.sampled ? s.B * s.G : s.contexts * s.S);
/** Rollouts listed in the integer tables: exact mode's enumeration, none when sampled. */
const enumerated = (s: KernelShape) => (s.sampled ? 0 : rollouts(s));
const exactTurns = (s: KernelShape) => (s.perTurn && !s.sampled ? rollouts(s) * s.T : 0);

/** Per context, the offset of turn t's reward table (t < T − 1: V^((t+1)·L) entries, by prefix), and their total. */
export function turnTableOffsets(s: Pick<KernelShape, 'V' | 'L' | 'T'>): { offsets: number[]; total: number } {
  const offsets: number[] = [];
  let total = 0;
  for (let t = 0; t < s.T - 1; t++) {
    offsets.push(total);
    total += s.V ** ((t + 1) * s.L);
  }
  return { offsets, total };
}

/** `tables` (f32): the environment, read only. */
export const TABLES: readonly Section[] = [
  { name: 'RET0', words: (s) => s.contexts * s.S, what: 'the mean return R̄ of every sequence of every context' },
  { name: 'NVAR0', words: (s) => s.contexts * s.S, what: 'the variance of its reward noise' },
  { name: 'DISC0', words: (s) => s.T, what: 'γ^(T−1−t), the discount of turn t’s advantage' },
  { name: 'NOISE', words: (s) => 2 * s.contexts, what: 'per context (noise kind code, σ)' },
  { name: 'TERM0', words: (s) => s.contexts * s.S, what: 'the terminal mean reward of every sequence' },
  { name: 'TT0', words: (s) => s.contexts * turnTableOffsets(s).total, what: 'per context, the turn rewards t < T − 1 by prefix (TOFF)' },
  { name: 'TG0', words: exactTurns, what: 'exact mode with per-turn rewards: every sequence’s rewards-to-go G_t' },
  { name: 'TR0', words: exactTurns, what: 'exact mode with per-turn rewards: every sequence’s mean reward by turn' },
  { name: 'JG0', words: (s) => (s.discounted ? s.contexts * s.S : 0), what: 'with J_γ recorded: every sequence’s discounted return Σ_t γ^(t−1)·r_t' },
];

/** `itab` (u32): the tree, read only. */
export const ITAB: readonly Section[] = [
  { name: 'I_NODE', words: (s) => enumerated(s) * s.N, what: 'exact mode: the node of every rollout’s token k' },
  { name: 'I_TOK', words: (s) => enumerated(s) * s.N, what: 'exact mode: the token' },
  { name: 'I_OPT', words: logitWords, what: '1 where a token is optimal at its node (shared: on the context-weighted mean table)' },
  { name: 'I_PATH', words: (s) => tableContexts(s) * s.N, what: 'per table, the nodes of the optimal path' },
  { name: 'I_ACTIVE', words: (s) => (s.mlp ? nodeCount(s) * (s.N + 2) : 0), what: 'the MLP: every node’s N + 2 active inputs' },
];

/** One run's scratch (f32), at run · SW in `scr`. */
export const SCRATCH: readonly Section[] = [
  { name: 'S_OLD', words: logitWords, what: 'θ_old' },
  { name: 'S_GRAD', words: logitWords, what: 'the gradient with respect to the logits' },
  { name: 'S_LZ', words: paramNodes, what: 'log Z per node at θ' },
  { name: 'S_LZO', words: paramNodes, what: 'log Z per node at θ_old' },
  { name: 'S_GSUM', words: paramNodes, what: 'Σ of the gradient coefficients per node (then the KL per node)' },
  { name: 'S_REACH', words: nodeCount, what: 'the probability of reaching each node' },
  { name: 'S_W', words: rollouts, what: 'each rollout’s weight w_i' },
  { name: 'S_ADV', words: rollouts, what: 'its advantage Â_i' },
  { name: 'S_M', words: rollouts, what: 'its M (sequential update)' },
  { name: 'S_PERM', words: rollouts, what: 'the minibatch order' },
  { name: 'S_MEAN', words: (s) => s.contexts, what: 'per context, E[R|x]' },
  { name: 'S_VAR', words: (s) => s.contexts, what: 'per context, Var(R|x)' },
  { name: 'S_ADVT', words: (s) => rollouts(s) * s.N, what: 'the token advantages' },
  { name: 'S_LPO', words: (s) => rollouts(s) * s.N, what: 'log π_old of every rollout’s token k (fixed for the iteration once the batch is drawn)' },
  { name: 'S_TGT', words: (s) => rollouts(s) * s.N, what: 'the critic’s λ-return targets' },
  { name: 'S_VAL', words: nodeCount, what: 'node values: exact V_old, or the critic kept across iterations' },
  { name: 'S_CG', words: nodeCount, what: 'the critic’s gradient' },
  { name: 'S_GSS', words: (s) => s.B, what: 'each group’s Σ(R − R̄)²' },
  { name: 'S_TRW', words: (s) => rollouts(s) * s.T, what: 'sampled rewards by turn' },
  { name: 'S_TGO', words: (s) => rollouts(s) * s.T, what: 'sampled rewards-to-go G_t' },
  { name: 'S_TERM', words: rollouts, what: 'sampled terminal rewards' },
  { name: 'S_TM', words: (s) => Math.max(s.contexts, s.B) * s.T, what: 'per context (exact) or group (sampled) and turn, E_old[G_t] or Σ G_t' },
  { name: 'S_SIG', words: () => 1, what: 'the batch σ of the raw advantages' },
  { name: 'S_TOK', words: (s) => (s.sampled ? rollouts(s) * s.N : 0), what: 'sampled tokens' },
  { name: 'S_NODE', words: (s) => (s.sampled ? rollouts(s) * s.N : 0), what: 'their nodes' },
  { name: 'S_R', words: (s) => (s.sampled ? rollouts(s) : 0), what: 'sampled returns R_i' },
  { name: 'S_CTXS', words: (s) => (s.sampled ? s.contexts : 0), what: 'the batch’s contexts' },
  { name: 'S_WG', words: (s) => (s.mlp ? mlpWords(s.mlp) : 0), what: 'the MLP’s weight gradient' },
];

/** One run's parameters (f32), at run · TH in `theta`: its node logits, then the MLP's weights (host/mlp.ts's order). */
export const THETA: readonly Section[] = [
  { name: 'TH_LOGITS', words: logitWords, what: 'the node logits' },
  { name: 'TH_W', words: (s) => (s.mlp ? mlpWords(s.mlp) : 0), what: 'the MLP’s weights' },
];

/** Words Adam moves: every logit of a table, every weight of an MLP (its node logits follow from them). */
const adamParams = (s: KernelShape) => (s.mlp ? mlpWords(s.mlp) : logitWords(s));
/** One run's Adam block (f32), at run · ADAMW in `adam`. */
export const ADAM: readonly Section[] = [
  { name: 'AD_M', words: adamParams, what: 'first moments' },
  { name: 'AD_V', words: adamParams, what: 'second moments' },
  { name: 'AD_K', words: (s) => (s.mlp ? 1 : s.T), what: 'step counts: one per turn (a table), one (the MLP: one network)' },
];

/** One iteration's record of one run (f32), read back by the host. */
export const RECORD: readonly Section[] = [
  { name: 'R_KL', words: () => 1, what: 'KL(π_old ‖ π_new) over the visits' },
  { name: 'R_CLIP', words: () => 1, what: 'clip fraction' },
  { name: 'R_ZERO', words: () => 1, what: 'zero-variance share' },
  { name: 'R_GNORM', words: () => 1, what: 'gradient norm' },
  { name: 'R_J', words: () => 1, what: 'exact J of the new policy' },
  { name: 'R_H', words: () => 1, what: 'entropy' },
  { name: 'R_POPT', words: (s) => s.T, what: 'P(optimal token) per turn' },
  { name: 'R_JCTX', words: (s) => (s.contexts > 1 ? s.contexts : 0), what: 'J per context' },
  { name: 'R_JG', words: (s) => (s.discounted ? 1 : 0), what: 'J_γ, the discounted return the learners maximize' },
];

export interface Placement {
  /** Section name → its first word. */
  at: Record<string, number>;
  /** Words of the whole buffer (or per-run block). */
  total: number;
}

/** The sections one after another. */
export function placeSections(sections: readonly Section[], s: KernelShape): Placement {
  const at: Record<string, number> = {};
  let total = 0;
  for (const sec of sections) {
    at[sec.name] = total;
    total += sec.words(s);
  }
  return { at, total };
}

/** The per-run blocks and the read-only tables, placed for one shape. */
export interface KernelLayout {
  tables: Placement;
  itab: Placement;
  scratch: Placement;
  theta: Placement;
  adam: Placement;
  record: Placement;
}

export function kernelLayout(s: KernelShape): KernelLayout {
  return {
    tables: placeSections(TABLES, s),
    itab: placeSections(ITAB, s),
    scratch: placeSections(SCRATCH, s),
    theta: placeSections(THETA, s),
    adam: placeSections(ADAM, s),
    record: placeSections(RECORD, s),
  };
}

/** The WGSL name of each block's per-run size. */
const SIZES = { scratch: 'SW', theta: 'TH', adam: 'ADAMW', record: 'REC' } as const;

/** Words of one run's scratch. */
export const scratchWords = (s: KernelShape) => placeSections(SCRATCH, s).total;
/** Words of one run in `theta`. */
export const thetaWords = (s: KernelShape) => placeSections(THETA, s).total;
/** Words of one run's Adam block. */
export const adamWords = (s: KernelShape) => placeSections(ADAM, s).total;
/** Words of one iteration's record. */
export const recordWords = (s: KernelShape) => placeSections(RECORD, s).total;

// ---- the algorithm record ----

type Encoded = string | number | boolean | null;

/** One word of a run's algorithm record: an option list's index, a flag (1/0), or a number (null: −1). */
export interface AlgoField {
  /** The WGSL constant of its word. */
  name: string;
  /** An option list of src/core/options.ts: the word is the value's index, and `${prefix}_${OPTION}` its WGSL constant. */
  options?: readonly string[];
  prefix?: string;
  value: (a: AlgorithmRecord, exp: Experiment) => Encoded;
}

export const ALGO_FIELDS: readonly AlgoField[] = [
  { name: 'A_RULE', options: RULES, prefix: 'RULE', value: (a) => a.rule },
  { name: 'A_RATIO', options: RATIO_LEVELS, prefix: 'RATIO', value: (a) => a.ratio },
  { name: 'A_ORDER', options: TURN_ORDERS, prefix: 'ORDER', value: (a) => a.order },
  { name: 'A_NORM', options: NORMALIZATIONS, prefix: 'NORM', value: (a) => a.normalization },
  { name: 'A_ADV', options: ESTIMATORS, prefix: 'ADV', value: (a) => a.advantage },
  { name: 'A_TURN_RATIO', options: TURN_RATIOS, prefix: 'TURN_RATIO', value: (a) => a.turnRatio },
  { name: 'A_OPTIMIZER', options: OPTIMIZERS, prefix: 'OPTIMIZER', value: (_, exp) => exp.optimizer.kind },
  { name: 'A_MCORR', value: (a) => a.mCorrection },
  { name: 'A_MCLIP', value: (a) => a.mClip },
  { name: 'A_EPOCHS', value: (a) => a.epochs },
  { name: 'A_MINIBATCHES', value: (a) => a.minibatches },
  { name: 'A_LR', value: (a, exp) => algorithmLr(a, exp.optimizer.lr) },
  { name: 'A_CLIP', value: (a) => a.clip },
  { name: 'A_LAMBDA', value: (a) => a.gaeLambda },
  { name: 'A_CRITIC_LR', value: (a) => a.criticLr },
];

/** f32 words of one run's algorithm record. */
export const ALGO_WORDS = ALGO_FIELDS.length;

/** The word of one field's value. */
export function encodeField(f: AlgoField, v: Encoded): number {
  if (f.options) {
    const code = f.options.indexOf(v as string);
    if (code < 0) throw new Error(`${f.name}: ${String(v).slice(0, 40)} is not one of ${f.options.join(', ')}`);
    return code;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return -1;
  if (typeof v !== 'number') throw new Error(`${f.name}: expected a number, got ${String(v).slice(0, 40)}`);
  return v;
}

/** Every run's algorithm record, run r at r · ALGO_WORDS. */
export function packAlgos(exp: Experiment, algoIndexOfRun: readonly number[]): Float32Array {
  const w = new Float32Array(ALGO_WORDS * algoIndexOfRun.length);
  algoIndexOfRun.forEach((ai, r) => {
    const a = exp.algorithms[ai]!;
    ALGO_FIELDS.forEach((f, i) => (w[r * ALGO_WORDS + i] = encodeField(f, f.value(a, exp))));
  });
  return w;
}

/** An option's WGSL constant: RULE_SEQUENTIAL, NORM_GROUP, … */
export const optionConstant = (prefix: string, option: string) => `${prefix}_${option.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;

/** Every layout constant the kernel reads, name → value: the shape's sizes, section offsets, per-run sizes, algorithm fields and option codes. */
export function layoutConstants(s: KernelShape): Map<string, number> {
  const out = new Map<string, number>();
  const put = (name: string, v: number) => {
    if (out.has(name)) throw new Error(`the kernel layout names ${name} twice`);
    out.set(name, v);
  };
  const G = nodeCount(s);
  const shape: [string, number][] = [['C', s.contexts], ['V', s.V], ['N', s.N], ['L', s.L], ['T', s.T], ['NP', s.nodesPerContext], ['G', G], ['CP', tableContexts(s)], ['PG', paramNodes(s)], ['P', logitWords(s)], ['S', s.S], ['RS', rollouts(s)], ['CS', s.contexts * s.S], ['TTS', turnTableOffsets(s).total], ['B', s.B], ['GS', s.G]];
  for (const [name, v] of shape) put(name, v);
  const lay = kernelLayout(s);
  for (const [block, p] of Object.entries(lay) as [string, Placement][]) {
    for (const [name, at] of Object.entries(p.at)) put(name, at);
    const size = SIZES[block as keyof typeof SIZES];
    if (size) put(size, p.total);
  }
  ALGO_FIELDS.forEach((f, i) => put(f.name, i));
  put('AW', ALGO_WORDS);
  for (const f of ALGO_FIELDS) f.options?.forEach((o, i) => put(optionConstant(f.prefix!, o), i));
  NOISE_KINDS.forEach((k, i) => put(optionConstant('NOISE', k), i));
  return out;
}

/** The layout as WGSL `const` declarations (all u32). */
export function wgslConstants(s: KernelShape): string {
  return [...layoutConstants(s)].map(([name, v]) => `const ${name} = ${v}u;`).join('\n');
}
