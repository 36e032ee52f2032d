import type { Env } from '../env/types';
import { buildTree } from '../env/tree';
import { chooseExecutor } from '../run/choose';
import { allRuns } from '../run/partition';
import { stepsPerIteration } from '../run/steps';
import { ConfigError } from './fields';
import { needsMonteCarlo } from './monte-carlo';
import { LIMITS } from './schema';
import type { Experiment } from './experiment';

// The tensor executor's memory and work model: the shapes src/exec/tensor builds for an
// experiment, the peak memory and the multiply-adds they cost, and the refusal (naming the field
// to lower) of an experiment past LIMITS.maxTensorBytes, LIMITS.maxTableEntries or
// LIMITS.maxNetworkWork. resolveConfig calls checkTensorSize; the sweep limits add up tensorWork.

function fail(path: string, detail: string): never {
  throw new ConfigError(path, detail);
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

/** Refuse, naming the field to lower, an experiment the tensor executor would run out of memory or time on. */
export function checkTensorSize(exp: Experiment): void {
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
