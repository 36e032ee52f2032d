import { applyScheduled } from '../../core/run/changes';
import * as tf from '@tensorflow/tfjs-core';
import { makeGroupScratch, type GroupScratch } from '../../core/algo/advantages';
import type { Experiment } from '../../core/config/resolve';
import { computeOptimum, type Optimum } from '../../core/env/exact';
import { buildTree, type Tree } from '../../core/env/tree';
import type { RunSpec } from '../../core/run/partition';
import { Purpose, Rng, streamKey } from '../../core/rng';
import { makeRunSeries, markDiverged, putUpdate, recordEvaluation, recordUpdate, type RunSeries } from '../../core/run/series';
import type { AlgorithmRecord } from '../../core/algo/records';
import { disposeBatch, updateRuns, uploadBatch, type DeviceRuns } from './device-iteration';
import { disposeDeviceRuns, makeDeviceRuns, refreshHyper, mlpShape } from './device-runs';
import { activeInputs, featureEncoder, inputSize } from './features';
import { idleRun, makeHostBatch, type HostBatch } from './host';
import { checkedGroupAdvantages } from '../host/rollouts';
import { sampleTokens, sequenceIndex } from './mc-sampler';
import { planIteration } from './schedule';

interface McRun {
  algo: AlgorithmRecord;
  sampleRng: Rng;
  shuffleRng: Rng;
  orderRng: Rng;
  evalRng: Rng;
  diverged: number | null;
}

/**
 * MLP runs on environments with more token sequences than exact enumeration allows
 * (docs/math.md "Environments: multi-turn bandits"): rollouts are sampled through the network position by position, and J is
 * a Monte-Carlo estimate from `mcSamples` fresh rollouts per run (flagged in the result),
 * stratified over contexts: each context's J (Jcontext) is the mean return of its share.
 */
export class McShard {
  readonly series: RunSeries[];
  readonly Jstar: number;
  iteration = 0;
  private readonly tree: Tree;
  private readonly opt: Optimum;
  private readonly width: number;
  private readonly runs: McRun[];
  private readonly hb: HostBatch;
  private readonly dev: DeviceRuns;
  private readonly groups: GroupScratch;
  private readonly order: Int32Array;

  /** `every`: the stride at which metrics other than J are stored (series.ts). */
  constructor(
    readonly exp: Experiment,
    readonly specs: RunSpec[],
    every = 1,
  ) {
    const env = exp.env;
    this.tree = buildTree(env);
    this.opt = computeOptimum(env, this.tree);
    this.Jstar = this.opt.Jstar;
    this.width = inputSize(this.tree, env.contexts);
    const rollouts = env.contextsPerBatch * exp.groupSize;
    this.hb = makeHostBatch({ rollouts, tree: this.tree, nodes: 0 }, specs.length, featureEncoder(this.tree, env.contexts));
    this.dev = makeDeviceRuns(exp, specs, { shape: mlpShape(exp, this.width) });
    this.runs = specs.map((s) => {
      const key = (p: number) => streamKey(exp.seed, s.seedIndex, s.algoIndex, p);
      return { algo: exp.algorithms[s.algoIndex], sampleRng: new Rng(key(Purpose.sample)), shuffleRng: new Rng(key(Purpose.shuffle)), orderRng: new Rng(key(Purpose.order)), evalRng: new Rng(key(Purpose.evaluate)), diverged: null };
    });
    this.series = specs.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex, every));
    this.groups = makeGroupScratch(env.contextsPerBatch);
    this.order = new Int32Array(env.turns);
  }

  get done(): boolean {
    return this.iteration >= this.exp.iterations;
  }

  async init(): Promise<void> {
    await this.evaluate(0);
  }

  async step(): Promise<void> {
    if (this.done) return;
    if (applyScheduled(this.exp, this.iteration)) this.refreshHyper();
    const t0 = performance.now();
    const k = this.iteration;
    const { hb, exp, tree } = this;
    const { R, S, P } = hb;
    const env = exp.env;
    const G = exp.groupSize;
    const B = env.contextsPerBatch;
    // contexts, token uniforms and noise draws per rollout, in the CPU executor's order
    const ctx = new Int32Array(R * S);
    const group = new Int32Array(S);
    const u = new Float64Array(R * S * P);
    const noise = new Float64Array(R * S);
    const order = Int32Array.from({ length: env.contexts }, (_, x) => x);
    this.runs.forEach((run, r) => {
      const rng = run.sampleRng;
      for (let x = 0; x < env.contexts; x++) order[x] = x;
      if (B < env.contexts)
        for (let j = 0; j < B; j++) {
          const s = j + rng.int(env.contexts - j);
          [order[j], order[s]] = [order[s], order[j]];
        }
      for (let g0 = 0; g0 < B; g0++)
        for (let j = 0; j < G; j++) {
          const i = g0 * G + j;
          ctx[r * S + i] = order[g0];
          group[i] = g0;
          for (let p = 0; p < P; p++) u[(r * S + i) * P + p] = rng.uniform();
          const nz = env.noise[order[g0]];
          noise[r * S + i] = nz.kind === 'gaussian' ? nz.sigma * rng.normal() : nz.kind === 'bernoulli' ? rng.uniform() : 0;
        }
    });
    const tokens = await sampleTokens(this.dev.policy, this.dev.params, tree, env.contexts, this.width, R, S, ctx, u, null);
    const reward = new Float64Array(S);
    const adv = new Float64Array(S);
    const disc = Float64Array.from({ length: tree.T }, (_, t) => Math.pow(env.gamma, tree.T - 1 - t));
    const zeroVar = new Float64Array(R);
    this.runs.forEach((run, r) => {
      for (let i = 0; i < S; i++) {
        const x = ctx[r * S + i];
        const mean = env.rewards[x][sequenceIndex(tokens, (r * S + i) * P, P, tree.V)];
        const nz = env.noise[x];
        reward[i] = nz.kind === 'bernoulli' ? (noise[r * S + i] < mean ? 1 : 0) : mean + noise[r * S + i];
      }
      const a = run.algo;
      // the reward statistics the advantages are scaled by, and the advantages in float32, must be finite (iterate.ts)
      let probe = checkedGroupAdvantages(reward, group, S, a.advantage === 'rloo' ? 'rloo' : 'grae', a.normalization, adv, this.groups);
      let zv = 0;
      for (let g = 0; g < B; g++) if (this.groups.sumSq[g] === 0) zv++;
      zeroVar[r] = zv / B;
      for (let i = 0; i < S; i++) {
        const live = run.diverged === null;
        hb.weight[r * S + i] = live ? 1 / S : 0;
        hb.weight64[r * S + i] = hb.weight[r * S + i];
        hb.adv[r * S + i] = live ? adv[i] : 0;
        probe += hb.adv[r * S + i] * 0;
        for (let p = 0; p < P; p++) {
          const j = (r * S + i) * P + p;
          hb.advTok[j] = live ? disc[Math.floor(p / tree.L)] * adv[i] : 0;
          probe += hb.advTok[j] * 0;
          hb.index[j] = (r * hb.Q + i * P + p) * tree.V + tokens[j];
          hb.encoder!.encode(ctx[r * S + i], p, tokens, (r * S + i) * P, 0, hb.X!, j * this.width);
        }
      }
      if (run.diverged === null && !Number.isFinite(probe)) {
        markDiverged(this.series[r], run, k + 1);
        idleRun(hb, r); // left out of the update, like a run that diverged before
      }
      hb.plans[r] = run.diverged === null ? planIteration({ tree, rollouts: S, exact: false }, run, this.order) : [];
    });
    const b = uploadBatch(this.dev, hb, { kind: 'shared', X: null }, false);
    const stats = updateRuns(this.dev, hb, b, true); // gradNorm, clipNum, clipDen, health, kl
    const all = tf.concat(stats);
    const data = (await all.data()) as Float32Array;
    tf.dispose([all, ...stats]);
    disposeBatch(this.dev, b);
    this.series.forEach((s, r) => {
      const run = this.runs[r];
      if (run.diverged !== null) return;
      const den = data[2 * R + r];
      const update = { gradNorm: data[r], clipFraction: den > 0 ? data[R + r] / den : 0, kl: data[4 * R + r], zeroVarianceGroups: zeroVar[r] };
      // health: every parameter, Adam moment and M of the run (finitenessProbe)
      recordUpdate(s, run, k, update, Number.isFinite(data[3 * R + r]) && Number.isFinite(data[R + r]));
    });
    await this.evaluate(k + 1);
    const ms = (performance.now() - t0) / R;
    this.runs.forEach((run, r) => run.diverged === null && putUpdate(this.series[r], 'wallMs', k, ms));
    this.iteration = k + 1;
  }

  /** Monte-Carlo J and entropy from mcSamples fresh rollouts per run; exact optimal-path probabilities. */
  private async evaluate(k: number): Promise<void> {
    const { exp, tree, hb } = this;
    const { R, P } = hb;
    const C = exp.env.contexts;
    const n = exp.mcSamples;
    const ctx = new Int32Array(R * n);
    const u = new Float64Array(R * n * P);
    this.runs.forEach((run, r) => {
      for (let i = 0; i < n; i++) {
        ctx[r * n + i] = i % C; // stratified over contexts
        for (let p = 0; p < P; p++) u[(r * n + i) * P + p] = run.evalRng.uniform();
      }
    });
    const entropy = new Float64Array(R);
    const tokens = await sampleTokens(this.dev.policy, this.dev.params, tree, C, this.width, R, n, ctx, u, entropy);
    const optimal = await this.optimalPathProbs();
    this.runs.forEach((run, r) => {
      const sum = new Float64Array(C);
      const cnt = new Float64Array(C);
      for (let i = 0; i < n; i++) {
        const x = ctx[r * n + i];
        sum[x] += exp.env.rewards[x][sequenceIndex(tokens, (r * n + i) * P, P, tree.V)];
        cnt[x]++;
      }
      // per context: the mean return of its stratum (J is their mean)
      const Jcontext = new Float64Array(C);
      let J = 0;
      for (let x = 0; x < C; x++) {
        Jcontext[x] = cnt[x] > 0 ? sum[x] / cnt[x] : NaN;
        J += Jcontext[x] / C;
      }
      const s = this.series[r];
      if (run.diverged !== null) return;
      recordEvaluation(s, run, k, { J, entropy: entropy[r] / (n * P), optimalProb: optimal.subarray(r * tree.T, (r + 1) * tree.T), Jcontext });
    });
  }

  /** Per run and turn: probability of an optimal turn response along the optimal path, mean over contexts. */
  private async optimalPathProbs(): Promise<Float64Array> {
    const { tree, opt, hb } = this;
    const { R, P } = hb;
    const { V, offset, nodesPerContext } = tree;
    const C = this.exp.env.contexts;
    const K = P + 2;
    const idx = new Int32Array(R * C * P * K);
    const prefix = new Int32Array(P);
    for (let x = 0; x < C; x++)
      for (let p = 0; p < P; p++) {
        let q = opt.path[x][p] - offset[p];
        for (let j = p - 1; j >= 0; j--) {
          prefix[j] = q % V;
          q = Math.floor(q / V);
        }
        for (let r = 0; r < R; r++) activeInputs(tree, C, x, p, prefix, 0, idx, ((r * C + x) * P + p) * K, r * this.width);
      }
    const probs = tf.tidy(() => tf.softmax(this.dev.policy.forward(this.dev.params, { kind: 'active', idx: tf.tensor3d(idx, [R, C * P, K], 'int32') }).logits));
    const pr = (await probs.data()) as Float32Array;
    probs.dispose();
    const out = new Float64Array(R * tree.T);
    for (let r = 0; r < R; r++)
      for (let x = 0; x < C; x++)
        for (let t = 0; t < tree.T; t++) {
          let prod = 1;
          for (let p = t * tree.L; p < (t + 1) * tree.L; p++) {
            const node = opt.path[x][p];
            let mass = 0;
            for (let a = 0; a < V; a++) if (opt.optimal[(x * nodesPerContext + node) * V + a]) mass += pr[((r * C + x) * P + p) * V + a];
            prod *= mass;
          }
          out[r * tree.T + t] += prod / C;
        }
    return out;
  }

  /** Apply a learning rate or clips changed in `exp` while the experiment runs. */
  refreshHyper(): void {
    refreshHyper(this.dev, this.exp, this.specs);
  }

  dispose(): void {
    disposeDeviceRuns(this.dev);
  }
}
