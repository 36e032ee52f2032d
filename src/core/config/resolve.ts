import { webgpuUnsupported } from './webgpu-support';
import { z } from 'zod';
import { ENV_PRESETS } from '../env/presets';
import type { Env, Noise } from '../env/types';
import { buildTree, decodeSequence, sequenceCount } from '../env/tree';
import { hasTurnRewards, totalReturns } from '../env/returns';
import {
  ALGORITHM_DEFAULTS,
  ALGORITHM_PRESETS,
  fieldsRead,
  presetRecord,
  type AlgorithmRecord,
} from '../algo/records';
import { checkDepth, ConfigError, issueToError, num, show } from './fields';
import { chooseExecutor } from '../run/choose';
import { allRuns } from '../run/partition';
import { stepsPerIteration } from '../run/steps';
import { CHANGE_PATH, type ScheduledChange } from './hot-paths';
import { algorithmEntrySchema, configSchema, customEnvSchema, LIMITS, presetEnvSchema } from './schema';
import { rewardTableIssues, turnTableIssues } from './table-shapes';
import { DEFAULTS } from './defaults';
import type { Experiment, PolicySpec } from './experiment';

export type { Experiment, PolicySpec } from './experiment';

function parseWith<T extends z.ZodType>(schema: T, value: unknown, prefix: (string | number)[]): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw issueToError(r.error.issues[0]!, prefix);
  return r.data;
}

function fail(path: string, detail: string): never {
  throw new ConfigError(path, detail);
}

function throwFirst(issues: readonly ConfigError[]): void {
  if (issues.length > 0) throw issues[0];
}

function resolveNoise(noise: unknown, contexts: number, fallback: Noise[]): Noise[] {
  if (noise === undefined) return fallback;
  if (Array.isArray(noise)) {
    if (noise.length !== contexts) fail('env.noise', `must be one noise object, or a list of ${contexts} (one per context), got a list of ${noise.length}`);
    return noise as Noise[];
  }
  return Array.from({ length: contexts }, () => noise as Noise);
}

function resolveEnv(raw: unknown, monteCarlo: boolean): { env: Env; preset: string | null } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fail('env', `must be an object: {"preset": NAME, …} or a custom table with turns, vocab, tokensPerTurn, rewards; got ${show(raw)}`);
  let env: Env;
  let preset: string | null = null;
  if ('preset' in raw) {
    const p = parseWith(presetEnvSchema, raw, ['env']);
    const def = ENV_PRESETS[p.preset]!;
    preset = def.name;
    // within the preset's own ranges: presetEnvSchema checked them
    const sizes = {
      turns: p.turns ?? def.defaults.turns,
      vocab: p.vocab ?? def.defaults.vocab,
      tokensPerTurn: p.tokensPerTurn ?? def.defaults.tokensPerTurn,
    };
    checkSequenceLimit(def.contexts, sizes, monteCarlo);
    const tree = buildTree(sizes);
    const tokens = new Int32Array(tree.N);
    const rewards = Array.from({ length: def.contexts }, (_, x) => {
      const r = new Float64Array(tree.sequences);
      for (let s = 0; s < tree.sequences; s++) r[s] = def.reward(sizes, x, decodeSequence(tree, s, tokens));
      return r;
    });
    const turnRewards = resolveTurnRewards(p.turnRewards, def.contexts, sizes);
    env = {
      ...sizes,
      contexts: def.contexts,
      contextsPerBatch: p.contextsPerBatch ?? def.contexts,
      rewards,
      turnRewards,
      returns: totalReturns(sizes, rewards, turnRewards),
      noise: resolveNoise(p.noise, def.contexts, def.noise),
      gamma: p.gamma ?? DEFAULTS.gamma,
    };
  } else {
    const c = parseWith(customEnvSchema, raw, ['env']);
    const contexts = c.contexts ?? c.rewards.length;
    checkSequenceLimit(contexts, c, monteCarlo);
    throwFirst(rewardTableIssues(c.rewards, contexts, c));
    const rewards = c.rewards.map((r) => Float64Array.from(r));
    const turnRewards = resolveTurnRewards(c.turnRewards, contexts, c);
    env = {
      turns: c.turns,
      vocab: c.vocab,
      tokensPerTurn: c.tokensPerTurn,
      contexts,
      contextsPerBatch: c.contextsPerBatch ?? contexts,
      rewards,
      turnRewards,
      returns: totalReturns(c, rewards, turnRewards),
      noise: resolveNoise(c.noise, contexts, Array.from({ length: contexts }, () => ({ kind: 'none' }) as Noise)),
      gamma: c.gamma ?? DEFAULTS.gamma,
    };
  }
  if (env.contextsPerBatch > env.contexts) fail('env.contextsPerBatch', `must be from 1 to contexts (${env.contexts}), got ${env.contextsPerBatch}`);
  env.noise.forEach((n, x) => {
    if (n.kind !== 'bernoulli') return;
    const r = env.rewards[x]!;
    for (let s = 0; s < r.length; s++)
      if (r[s]! < 0 || r[s]! > 1) fail(`env.rewards[${x}][${s}]`, `bernoulli noise needs mean rewards from 0 to 1 (success probabilities), got ${r[s]}`);
  });
  return { env, preset };
}

/** Shapes of env.turnRewards: per context, T−1 tables of V^(t·L) numbers (t = 1..T−1). Null when absent or all zero. */
function resolveTurnRewards(
  raw: number[][][] | undefined,
  contexts: number,
  sz: { turns: number; vocab: number; tokensPerTurn: number },
): Float64Array[][] | null {
  if (raw === undefined) return null;
  throwFirst(turnTableIssues(raw, contexts, sz));
  return hasTurnRewards(raw) ? raw.map((tables) => tables.map((t) => Float64Array.from(t))) : null;
}

function checkSequenceLimit(contexts: number, s: { vocab: number; turns: number; tokensPerTurn: number }, monteCarlo: boolean): void {
  const n = contexts * Math.pow(s.vocab, s.turns * s.tokensPerTurn);
  const what = `contexts·vocab^(turns·tokensPerTurn) = ${contexts}·${s.vocab}^${s.turns * s.tokensPerTurn} = ${n.toExponential(3)} token sequences`;
  if (monteCarlo && n > LIMITS.maxSequencesMc)
    fail('env', `${what}; the limit is ${LIMITS.maxSequencesMc.toLocaleString('en-US')} (the reward table is held in memory)`);
  if (!monteCarlo && n > LIMITS.maxSequences)
    fail('env', `${what}; the limit is ${LIMITS.maxSequences.toLocaleString('en-US')} (exact J enumerates them all; an MLP policy in sampled mode may go to ${LIMITS.maxSequencesMc.toLocaleString('en-US')} with a Monte-Carlo J)`);
}

/** True when J must be a Monte-Carlo estimate: more sequences than exact enumeration allows. */
export function needsMonteCarlo(env: Pick<Env, 'contexts' | 'vocab' | 'turns' | 'tokensPerTurn'>): boolean {
  return env.contexts * sequenceCount(env) > LIMITS.maxSequences;
}

function resolveAlgorithm(raw: unknown, i: number, warnings: string[]): AlgorithmRecord {
  const path = `algorithms[${i}]`;
  const e = parseWith(algorithmEntrySchema, raw, ['algorithms', i]);
  const base = e.preset ?? (Object.hasOwn(ALGORITHM_PRESETS, e.id) ? e.id : undefined);
  if (!base && !e.rule) fail(`${path}.rule`, `must be one of "reinforce", "ppu", "sequential" (or give "preset", or an id that names a preset)`);
  const rec: AlgorithmRecord = base ? presetRecord(base, e.id) : { ...ALGORITHM_DEFAULTS, id: e.id, rule: e.rule! };
  if (e.preset !== undefined) rec.preset = e.preset;
  const given = Object.keys(e).filter((k) => k !== 'id' && k !== 'preset') as (keyof AlgorithmRecord)[];
  for (const k of given) (rec as unknown as Record<string, unknown>)[k] = e[k as keyof typeof e];
  const read = fieldsRead(rec);
  const ignored = given.filter((k) => k !== 'rule' && k !== 'label' && !read.has(k));
  if (ignored.length) warnings.push(`${path} (${rec.id}): ${ignored.join(', ')} ignored by the ${rec.rule} rule with ${rec.advantage} advantages`);
  if (rec.advantage === 'gae' && rec.rule === 'sequential')
    fail(`${path}.advantage`, 'gae gives per-token advantages; the sequential rule needs one advantage per rollout (grae or rloo)');
  if (rec.advantage === 'gae' && rec.rule === 'ppu' && rec.ratio === 'sequence')
    fail(`${path}.advantage`, 'gae gives per-token advantages; a sequence-level ratio needs one advantage per rollout (grae or rloo)');
  return rec;
}

/** Validate a config (any JSON value) and fill in every default; throws ConfigError naming the field. */
export function resolveConfig(raw: unknown): Experiment {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('', 'the config must be a JSON object');
  checkDepth(raw); // before zod (or anything else) walks it
  const c = parseWith(configSchema, raw, []);
  const { env, preset } = resolveEnv(c.env, c.policy?.kind === 'mlp' && (c.mode ?? DEFAULTS.mode) === 'sampled');
  const warnings: string[] = [];
  const rawAlgos = c.algorithms ?? (ALGORITHM_IDS_DEFAULT as unknown[]);
  const algorithms = rawAlgos.map((a, i) => resolveAlgorithm(a, i, warnings));
  const seen = new Map<string, number>();
  algorithms.forEach((a, i) => {
    if (seen.has(a.id)) fail(`algorithms[${i}].id`, `duplicate id "${a.id}" (also algorithms[${seen.get(a.id)}]); give each entry its own id`);
    seen.set(a.id, i);
  });
  const p = c.policy;
  const policy: PolicySpec =
    p?.kind === 'mlp'
      ? { kind: 'mlp', hidden: p.hidden ?? DEFAULTS.mlpHidden, activation: p.activation ?? DEFAULTS.mlpActivation, initScale: p.initScale ?? DEFAULTS.initScale.mlp }
      : { kind: 'tabular', initScale: p?.initScale ?? DEFAULTS.initScale.tabular, ...(p?.kind === 'tabular' && p.shareContexts ? { shareContexts: true } : {}) };
  const exp: Experiment = {
    env,
    envPreset: preset,
    policy,
    mode: c.mode ?? DEFAULTS.mode,
    iterations: c.iterations ?? DEFAULTS.iterations,
    seeds: c.seeds ?? DEFAULTS.seeds,
    seed: c.seed ?? DEFAULTS.seed,
    seedIndices: [],
    groupSize: c.groupSize ?? DEFAULTS.groupSize,
    optimizer: { ...(c.optimizer ?? DEFAULTS.optimizer) }, // a copy: a hot change writes to it
    algorithms,
    executor: c.executor ?? DEFAULTS.executor,
    backend: c.backend ?? null,
    mcSamples: c.mcSamples ?? DEFAULTS.mcSamples,
    changes: [],
    warnings,
  };
  if (policy.kind === 'tabular' && policy.shareContexts && env.contexts < 2)
    fail('policy.shareContexts', `needs at least 2 contexts (env.contexts is ${env.contexts}): with one context the shared table is the plain table; remove it or raise env.contexts`);
  exp.seedIndices = resolveSeedIndices(c.seedIndices, exp.seeds);
  exp.changes = resolveChanges(c.changes ?? [], exp);
  checkExecutor(exp);
  checkBatchShape(exp);
  checkSize(exp);
  return exp;
}

function resolveSeedIndices(given: number[] | undefined, seeds: number): number[] {
  if (given === undefined) return Array.from({ length: seeds }, (_, i) => i);
  const seen = new Set<number>();
  given.forEach((s, i) => {
    if (s >= seeds) fail(`seedIndices[${i}]`, `must be a seed index from 0 to ${seeds - 1} (seeds is ${seeds}), got ${s}`);
    if (seen.has(s)) fail(`seedIndices[${i}]`, `duplicate seed index ${s}`);
    seen.add(s);
  });
  return [...given].sort((a, b) => a - b);
}

function resolveChanges(changes: ScheduledChange[], exp: Experiment): ScheduledChange[] {
  changes.forEach((c, i) => {
    if (c.at >= exp.iterations) fail(`changes[${i}].at`, `must be an iteration from 0 to ${exp.iterations - 1} (the experiment has ${exp.iterations}), got ${c.at}`);
    const m = CHANGE_PATH.exec(c.path)!;
    if (m[2] !== undefined && Number(m[2]) >= exp.algorithms.length)
      fail(`changes[${i}].path`, `algorithms[${m[2]}] does not exist (there are ${exp.algorithms.length} algorithms)`);
    parseWith(num(m[2] === undefined ? LIMITS.lr : LIMITS.clip), c.value, ['changes', i, 'value']);
  });
  return changes.map((c) => ({ ...c })).sort((a, b) => a.at - b.at); // stable: same-iteration changes keep their order
}

const ALGORITHM_IDS_DEFAULT = Object.keys(ALGORITHM_PRESETS).map((id) => ({ id }));

function checkExecutor(exp: Experiment): void {
  if (needsMonteCarlo(exp.env) && exp.env.turnRewards)
    fail('env.turnRewards', `per-turn rewards need exact J (at most ${LIMITS.maxSequences.toLocaleString('en-US')} token sequences); this environment has more and would use a Monte-Carlo J`);
  if (needsMonteCarlo(exp.env))
    exp.algorithms.forEach((a, i) => {
      if (a.advantage === 'gae')
        fail(`algorithms[${i}].advantage`, `must be "grae" or "rloo" past ${LIMITS.maxSequences.toLocaleString('en-US')} token sequences (the GAE critic is a table over the nodes), got "gae"`);
    });
  if (exp.policy.kind === 'mlp' && exp.executor === 'cpu')
    fail('executor', 'must be "auto", "tensor" or "webgpu" for an MLP policy (the CPU executor runs tabular policies only), got "cpu"');
  if (exp.executor === 'cpu' && exp.backend !== null) exp.warnings.push(`backend: "${exp.backend}" is ignored by the CPU executor`);
  if (exp.executor === 'webgpu') {
    const why = webgpuUnsupported(exp);
    if (why) fail(why.path, why.message);
    if (exp.backend !== null) exp.warnings.push(`backend: "${exp.backend}" is ignored by the WebGPU executor`);
  }
}

function checkBatchShape(exp: Experiment): void {
  if (exp.mode !== 'sampled') return;
  const n = exp.env.contextsPerBatch * exp.groupSize;
  exp.algorithms.forEach((a, i) => {
    if (a.rule !== 'reinforce' && n % a.minibatches !== 0)
      fail(`algorithms[${i}].minibatches`, `must divide the batch (contextsPerBatch·groupSize = ${n}) into equal chunks, got ${a.minibatches}`);
  });
}

/** Rough count of token-updates, to refuse experiments that would run for hours. */
export function workEstimate(exp: Experiment): number {
  const tree = buildTree(exp.env);
  const rollouts = exp.mode === 'exact' ? exp.env.contexts * tree.sequences : exp.env.contextsPerBatch * exp.groupSize;
  const mc = needsMonteCarlo(exp.env);
  let perIteration = 0;
  for (const a of exp.algorithms) {
    const passes = a.rule === 'reinforce' ? 1 : a.rule === 'sequential' ? a.epochs * exp.env.turns : a.epochs;
    perIteration += rollouts * tree.N * (passes + 2) + (mc ? 0 : exp.env.contexts * tree.nodesPerContext * exp.env.vocab * 3);
  }
  if (mc) perIteration += exp.algorithms.length * exp.mcSamples * tree.N * 4;
  return perIteration * exp.seedIndices.length * exp.iterations;
}

/**
 * The tensor executor's shapes for an experiment, as src/exec/tensor builds them (shard.ts,
 * mc-shard.ts, features.ts): the MLP's layers, the rows every forward/backward runs over, and how
 * the runs split into shards (one per number of optimizer steps per iteration; a shard's runs
 * share its tensors, and the shards step one after another).
 */
export interface TensorShape {
  /** [inputs, ...hidden, V] for an MLP; null for a tabular policy. */
  layers: number[] | null;
  /** Parameters of one run (MLP weights and biases, or the nodes·V logits table). */
  params: number;
  /** Multiply-adds of one forward over one row (MLP: Σ layer·next layer; tabular 0). */
  weights: number;
  /** Units per row: the hidden layers' and the V logits (tabular: V). */
  units: number;
  /** Decision nodes over every context. */
  nodes: number;
  /** Rows of logits per run and forward (every node, or every position of every rollout). */
  rows: number;
  /** True when the rows are the rollouts' positions, each with its own input row uploaded. */
  perRolloutRows: boolean;
  /** Rollouts per run and iteration, and tokens per rollout. */
  rollouts: number;
  tokens: number;
  /** J is a Monte-Carlo estimate from mcSamples sampled rollouts per run and evaluation. */
  monteCarlo: boolean;
  runs: number;
  /** The shards: optimizer steps per iteration of their runs, and how many runs. */
  shards: { steps: number; runs: number }[];
}

/** The MLP's input width: one-hot context, turn, position in the turn, and the earlier tokens over V + 1 symbols (exec/tensor/features.ts inputSize). */
export function mlpInputSize(env: Pick<Env, 'contexts' | 'turns' | 'tokensPerTurn' | 'vocab'>): number {
  const N = env.turns * env.tokensPerTurn;
  return env.contexts + env.turns + env.tokensPerTurn + (N - 1) * (env.vocab + 1);
}

export function tensorShape(exp: Experiment): TensorShape {
  const env = exp.env;
  const tree = buildTree(env);
  const nodes = env.contexts * tree.nodesPerContext;
  const P = tree.N;
  const rollouts = exp.mode === 'exact' ? env.contexts * tree.sequences : env.contextsPerBatch * exp.groupSize;
  const mlp = exp.policy.kind === 'mlp';
  const monteCarlo = mlp && needsMonteCarlo(env);
  const layers = exp.policy.kind === 'mlp' ? [mlpInputSize(env), ...exp.policy.hidden, env.vocab] : null;
  let params = nodes * env.vocab;
  let weights = 0;
  if (layers) {
    params = 0;
    for (let l = 0; l + 1 < layers.length; l++) {
      weights += layers[l]! * layers[l + 1]!;
      params += (layers[l]! + 1) * layers[l + 1]!;
    }
  }
  // shard.ts: a sampled MLP's rows are the rollouts' positions when there are fewer of them than nodes; mc-shard.ts: always
  const perRolloutRows = monteCarlo || (mlp && exp.mode === 'sampled' && nodes > rollouts * P);
  const runs = allRuns(exp);
  const shards = new Map<number, number>();
  for (const r of runs) {
    const k = stepsPerIteration(exp, r.algoIndex);
    shards.set(k, (shards.get(k) ?? 0) + 1);
  }
  return {
    layers,
    params,
    weights,
    units: layers ? layers.slice(1).reduce((x, y) => x + y, 0) : env.vocab,
    nodes,
    rows: perRolloutRows ? rollouts * P : nodes,
    perRolloutRows,
    rollouts,
    tokens: P,
    monteCarlo,
    runs: runs.length,
    shards: [...shards].map(([steps, n]) => ({ steps, runs: n })),
  };
}

/**
 * Bytes per unit of the tensor executor's peak memory, measured on Node's wasm backend (the wasm
 * heap's size after a few iterations, over a sweep of MLP widths and depths, seeds, rules, rows
 * and mcSamples: the numbers are in test/hardening-limits.test.ts) and rounded up.
 */
export const TENSOR_BYTES = {
  /** Kept for every run between iterations: the parameters (SGD) with Adam's two moments. */
  paramSgd: 4,
  paramAdam: 12,
  /** While a shard steps, per parameter of each of its runs: gradients, new parameters, the moments' temporaries. */
  stepSgd: 16,
  stepAdam: 64,
  /** Per row, per unit (hidden units and V logits), per run: activations, their gradients, softmax. */
  activation: 32,
  /** Per rollout token per run: the batch's index, advantages and weights … */
  rolloutToken: 48,
  /** … and per optimizer step of the iteration: the packed steps' per-token fields (weights, ratios' bounds). */
  rolloutTokenStep: 44,
  /** Per rollout token per run and MLP input, when the rows are rollout positions: host and device copies of the inputs. */
  inputRow: 12,
  /** Monte-Carlo sampling, per sample of each run of a shard: per active input (tokens + 2) per first-layer unit, the gathered rows … */
  mcGathered: 12,
  /** … per unit above the first layer … */
  mcUnit: 12,
  /** … and on the host, per token (uniforms, tokens, active inputs, probabilities). */
  mcHostToken: 24,
} as const;

export interface MemoryEstimate {
  total: number;
  /** Parameters and optimizer state (every run) and their step temporaries (the worst shard). */
  params: number;
  /** Activations over the rows (the worst shard). */
  activations: number;
  /** Rollout buffers and per-rollout input rows (the worst shard). */
  rollouts: number;
  /** Monte-Carlo sampling buffers (the largest shard, after its update). */
  monteCarlo: number;
}

/** Estimated peak memory of the tensor executor for this experiment, in bytes (see TENSOR_BYTES). */
export function tensorMemory(exp: Experiment, shape: TensorShape = tensorShape(exp)): MemoryEstimate {
  const B = TENSOR_BYTES;
  const adam = exp.optimizer.kind === 'adam';
  const kept = shape.runs * shape.params * (adam ? B.paramAdam : B.paramSgd);
  const tokens = shape.rollouts * shape.tokens;
  const inputs = shape.perRolloutRows && shape.layers ? shape.layers[0]! * B.inputRow : 0;
  // the shards step one after another: the peak is the worst shard's temporaries on top of what every run keeps
  let worst = { total: 0, params: 0, activations: 0, rollouts: 0 };
  for (const sh of shape.shards) {
    const params = sh.runs * shape.params * (adam ? B.stepAdam : B.stepSgd);
    const activations = sh.runs * shape.rows * shape.units * B.activation;
    const rollouts = sh.runs * tokens * (B.rolloutToken + sh.steps * B.rolloutTokenStep + inputs);
    const total = params + activations + rollouts;
    if (total > worst.total) worst = { total, params, activations, rollouts };
  }
  let monteCarlo = 0;
  if (shape.monteCarlo && shape.layers) {
    const [, first, ...rest] = shape.layers;
    const K = shape.tokens + 2;
    const perSample = K * first! * B.mcGathered + rest.reduce((a, b) => a + b, 0) * B.mcUnit + shape.tokens * B.mcHostToken;
    monteCarlo = Math.max(...shape.shards.map((sh) => sh.runs)) * exp.mcSamples * perSample;
  }
  // the Monte-Carlo evaluation runs after the update's temporaries are freed: the peak is the larger of the two
  return { total: kept + Math.max(worst.total, monteCarlo), params: kept + worst.params, activations: worst.activations, rollouts: worst.rollouts, monteCarlo };
}

/**
 * Time of an experiment on the tensor executor, in multiply-add equivalents (LIMITS.maxNetworkWork):
 * per run and iteration, (steps + 2) passes, each
 * - `network`: forward and backward through the MLP, 3 multiply-adds per weight and row, over
 *   at least 64 rows (below that the per-parameter optimizer work dominates);
 * - `tokens`: 300 per rollout token and (steps + 5) (the per-token tensors, gathers and the
 *   host's part, exact evaluation included: measured about 300 times a dense multiply-add's time),
 *   plus 700,000 per pass and run (op dispatch and the host's per-run work: what small networks'
 *   time is made of);
 * and with a Monte-Carlo J (`monteCarlo`), mcSamples rollouts sampled per run and evaluation,
 * token by token, each a gather of (tokens + 2) first-layer rows and the layers above, at 40
 * equivalents per multiply-add (gathers and host-side sampling).
 */
export function tensorWork(exp: Experiment, shape: TensorShape = tensorShape(exp)): { total: number; network: number; tokens: number; monteCarlo: number } {
  let passes = 0;
  let tokenPasses = 0;
  for (const sh of shape.shards) {
    passes += sh.runs * (sh.steps + 2) * exp.iterations;
    tokenPasses += sh.runs * (sh.steps + 5) * exp.iterations;
  }
  const network = passes * 3 * Math.max(shape.rows, 64) * shape.weights;
  const tokens = tokenPasses * 300 * shape.rollouts * shape.tokens + passes * 7e5;
  let monteCarlo = 0;
  if (shape.monteCarlo && shape.layers) {
    const [input, first] = shape.layers;
    const K = shape.tokens + 2;
    const perSample = shape.tokens * (K * first! + (shape.weights - input! * first!));
    monteCarlo = 40 * shape.runs * (exp.iterations + 1) * exp.mcSamples * perSample;
  }
  return { total: network + tokens + monteCarlo, network, tokens, monteCarlo };
}

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(bytes < 2 ** 30 ? 2 : 1)} GiB`;
const count = (n: number) => n.toLocaleString('en-US');

function checkTensorSize(exp: Experiment): void {
  if (chooseExecutor(exp).executor !== 'tensor') return;
  const shape = tensorShape(exp);
  const mem = tensorMemory(exp, shape);
  const hidden = exp.policy.kind === 'mlp' ? `[${exp.policy.hidden.join(', ')}]` : '';
  const net = shape.layers ? `an MLP of hidden ${hidden}` : 'a tabular policy';
  const rowsField = exp.mode === 'exact' ? 'env' : 'groupSize';
  const rowsLever = exp.mode === 'exact' ? 'the environment size' : 'groupSize or env.contextsPerBatch';
  if (mem.total > LIMITS.maxTensorBytes) {
    const limit = `the limit is ${gib(LIMITS.maxTensorBytes)} (the tensor executor's memory)`;
    const most = Math.max(...shape.shards.map((sh) => sh.runs));
    const runs = `${count(shape.runs)} runs${most < shape.runs ? ` (up to ${count(most)} stepping at once)` : ''}`;
    if (mem.monteCarlo >= mem.activations + mem.rollouts && mem.monteCarlo >= mem.params) {
      const perSample = mem.monteCarlo / most / exp.mcSamples;
      const fits = Math.floor((LIMITS.maxTensorBytes - mem.params) / most / perSample);
      fail(
        'mcSamples',
        `mcSamples·tokens·runs = ${count(exp.mcSamples)}·${shape.tokens}·${count(most)} Monte-Carlo samples (each gathering ${shape.tokens + 2} rows of the first hidden layer's ${shape.layers![1]} units) need about ${gib(mem.total)} of tensor memory; ${limit}: lower mcSamples${fits >= LIMITS.mcSamples.min ? ` (at most ${count(fits)} here)` : ''}, seeds, algorithms or policy.hidden`,
      );
    }
    if (mem.params >= mem.activations + mem.rollouts)
      fail(
        shape.layers ? 'policy.hidden' : 'env',
        shape.layers
          ? `${net} has ${count(shape.params)} parameters per run; ${runs} with their ${exp.optimizer.kind === 'adam' ? 'Adam state' : 'gradients'} need about ${gib(mem.total)} of tensor memory; ${limit}: lower policy.hidden, seeds or algorithms`
          : `tables of ${count(shape.params)} logits per run over ${runs} need about ${gib(mem.total)} of tensor memory; ${limit}: lower seeds, algorithms or the environment size`,
      );
    fail(
      shape.layers && mem.activations >= mem.rollouts ? 'policy.hidden' : rowsField,
      `${net} over ${count(shape.rows)} rows (${shape.perRolloutRows ? 'rollouts·tokens' : 'every node'}) per forward and backward, ${count(shape.rollouts)} rollouts of ${shape.tokens} tokens per iteration, ${runs}: about ${gib(mem.total)} of tensor memory; ${limit}: lower ${shape.layers ? 'policy.hidden, ' : ''}${rowsLever}, seeds, algorithms or epochs`,
    );
  }
  if (!shape.monteCarlo) {
    // the shard's host mirrors: every run's log-probability table (exec/tensor/shard.ts)
    const most = Math.max(...shape.shards.map((sh) => sh.runs));
    const nodes = shape.nodes;
    if (most * nodes * exp.env.vocab > LIMITS.maxTableEntries)
      fail(
        exp.seedIndices.length > 1 ? 'seeds' : 'env',
        `runs·nodes·vocab = ${count(most)}·${count(nodes)}·${exp.env.vocab} = ${count(most * nodes * exp.env.vocab)} table entries in one tensor shard; the limit is ${count(LIMITS.maxTableEntries)}: lower seeds, algorithms or the environment size`,
      );
  }
  const work = tensorWork(exp, shape);
  if (work.total > LIMITS.maxNetworkWork) {
    const [field, what, lever] =
      work.monteCarlo >= work.network && work.monteCarlo >= work.tokens
        ? ['mcSamples', 'mostly Monte-Carlo sampling: runs·(iterations+1)·mcSamples·tokens', 'mcSamples']
        : work.network >= work.tokens
          ? ['policy.hidden', `mostly the network: runs·iterations·(steps+2)·rows·weights, hidden ${hidden}`, 'policy.hidden']
          : [rowsField, 'mostly per-token work: runs·iterations·(steps+2)·rollouts·tokens', rowsLever];
    fail(
      field,
      `on the tensor executor this experiment needs about ${work.total.toExponential(2)} multiply-adds (${what}); the limit is ${LIMITS.maxNetworkWork.toExponential(0)} (a few minutes of compute): lower ${lever}, seeds, iterations, algorithms or epochs`,
    );
  }
}

function checkSize(exp: Experiment): void {
  const runs = exp.algorithms.length * exp.seedIndices.length;
  const points = runs * (exp.iterations + 1);
  if (points > LIMITS.maxStoredPoints)
    fail('iterations', `algorithms·seeds·(iterations+1) = ${runs}·${exp.iterations + 1} = ${points.toLocaleString('en-US')} stored points per metric; the limit is ${LIMITS.maxStoredPoints.toLocaleString('en-US')}: lower seeds or iterations`);
  checkTensorSize(exp);
  const work = workEstimate(exp);
  if (work > LIMITS.maxWork)
    fail('', `this experiment needs about ${work.toExponential(2)} token-updates; the limit is ${LIMITS.maxWork.toExponential(0)} (a few minutes of compute): lower seeds, iterations, groupSize, epochs or the environment size`);
}
