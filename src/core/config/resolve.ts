import { webgpuUnsupported } from './webgpu-support';
import * as z from 'zod';
import { ENV_PRESETS } from '../env/presets';
import type { Env, Noise } from '../env/types';
import { buildTree, decodeSequence } from '../env/tree';
import { hasTurnRewards, totalReturns } from '../env/returns';
import {
  algorithmLabel,
  ALGORITHM_DEFAULTS,
  ALGORITHM_PRESETS,
  fieldsRead,
  presetRecord,
  type AlgorithmRecord,
} from '../algo/records';
import { checkDepth, ConfigError, issueToError, num, quote, show } from './fields';
import { needsMonteCarlo } from './monte-carlo';
import { unreadFieldWarnings } from './unread-fields';
import { checkTensorSize } from './tensor-cost';
import { stepsPerIteration } from '../run/steps';
import { CHANGE_PATH, type ScheduledChange } from './hot-paths';
import { algorithmEntrySchema, configSchema, customEnvSchema, LIMITS, presetEnvSchema } from './schema';
import { rewardTableIssues, turnTableIssues } from './table-shapes';
import { DEFAULTS } from './defaults';
import type { Experiment, PolicySpec } from './experiment';

export type { Experiment, PolicySpec } from './experiment';
export { needsMonteCarlo } from './monte-carlo';
export { mlpInputSize, tensorMemory, tensorShape, tensorWork, TENSOR_BYTES, type MemoryEstimate, type TensorShape } from './tensor-cost';

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
  checkLabels(algorithms);
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
    optimizer: { ...DEFAULTS.optimizer, ...c.optimizer }, // a copy (a hot change writes to it); kind, when omitted, the default's
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
  warnings.push(...unreadFieldWarnings(exp, c.mcSamples !== undefined, c.changes ?? []));
  checkExecutor(exp);
  checkBatchShape(exp);
  checkSize(exp);
  return exp;
}

/** Each line, legend entry and verdict names its algorithm by its label: two alike would make them ambiguous. */
function checkLabels(algorithms: AlgorithmRecord[]): void {
  const seen = new Map<string, number>();
  algorithms.forEach((a, i) => {
    const label = algorithmLabel(a);
    const j = seen.get(label);
    if (j !== undefined)
      fail(a.label ? `algorithms[${i}].label` : `algorithms[${i}].id`, `reads ${quote(label)} on the page and in the verdicts, as algorithms[${j}] does; give it a label of its own`);
    seen.set(label, i);
  });
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

/**
 * What one optimizer step of a tabular policy costs per table entry it walks, in token-updates:
 * SGD walks the batch's visited nodes, Adam every parameter of the turns in scope (its moments
 * decay on all of them, into subnormal numbers where the gradient stays 0). Measured on the CPU
 * executor (needle, T 4, V 16, G 4096, 16,384 steps an iteration): SGD 2.1e8 entries/s, Adam
 * 9.5e6, against 4.2e7 token-updates/s for the rest of the estimate.
 */
const STEP_ENTRY_COST = { sgd: 0.25, adam: 4 };

/** Rough count of token-updates, to refuse experiments that would run for hours. */
export function workEstimate(exp: Experiment): number {
  const tree = buildTree(exp.env);
  const rollouts = exp.mode === 'exact' ? exp.env.contexts * tree.sequences : exp.env.contextsPerBatch * exp.groupSize;
  const mc = needsMonteCarlo(exp.env);
  let perIteration = 0;
  exp.algorithms.forEach((a, i) => {
    const passes = a.rule === 'reinforce' ? 1 : a.rule === 'sequential' ? a.epochs * exp.env.turns : a.epochs;
    perIteration += rollouts * tree.N * (passes + 2) + (mc ? 0 : exp.env.contexts * tree.nodesPerContext * exp.env.vocab * 3);
    // every step walks table entries, however few rollouts its minibatch holds: a small batch in
    // thousands of minibatches is mostly this (a sequential step walks one turn's share of them)
    if (exp.policy.kind === 'tabular') {
      const tablePasses = stepsPerIteration(exp, i) / (a.rule === 'sequential' ? exp.env.turns : 1);
      const nodes = exp.optimizer.kind === 'adam' ? (exp.policy.shareContexts ? 1 : exp.env.contexts) * tree.nodesPerContext : Math.min(exp.env.contexts * tree.nodesPerContext, rollouts * tree.N);
      perIteration += tablePasses * nodes * exp.env.vocab * STEP_ENTRY_COST[exp.optimizer.kind];
    }
  });
  if (mc) perIteration += exp.algorithms.length * exp.mcSamples * tree.N * 4;
  return perIteration * exp.seedIndices.length * exp.iterations;
}

function checkSize(exp: Experiment): void {
  const runs = exp.algorithms.length * exp.seedIndices.length;
  const points = runs * (exp.iterations + 1);
  if (points > LIMITS.maxStoredPoints)
    fail('iterations', `algorithms·seeds·(iterations+1) = ${runs}·${exp.iterations + 1} = ${points.toLocaleString('en-US')} stored points per metric; the limit is ${LIMITS.maxStoredPoints.toLocaleString('en-US')}: lower seeds or iterations`);
  checkTensorSize(exp);
  const work = workEstimate(exp);
  if (work > LIMITS.maxWork)
    fail('', `this experiment needs about ${work.toExponential(2)} token-updates; the limit is ${LIMITS.maxWork.toExponential(0)} (a few minutes of compute): lower seeds, iterations, groupSize, epochs, minibatches or the environment size`);
}
