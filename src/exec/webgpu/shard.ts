import { algorithmLr } from '../../core/algo/records';
import type { Experiment } from '../../core/config/resolve';
import { evaluatePolicy, softmaxTable } from '../../core/env/exact';
import { noiseVariance } from '../../core/env/types';
import { applyScheduled } from '../../core/run/changes';
import type { RunSpec } from '../../core/run/partition';
import { makeRunSeries, recordEvaluation, recordUpdate, type RunSeries } from '../../core/run/series';
import { buildProblem, type Problem } from '../host/problem';
import { initialTheta } from '../host/state';
import { initialMlp, mlpNodeLogits, nodeActiveInputs, type MlpShape } from '../host/mlp';
import { mlpInputSize } from '../../core/config/resolve';
import { streamKey } from '../../core/rng';
import { activeInputsAt, adamWords, ALGO, ALGO_WORDS, kernelSource, recordWords, rollouts, scratchWords, thetaWords, turnTableOffsets, workgroupSize, type KernelShape } from './kernel';

// The WebGPU executor's host side: the experiment's tables and every run's logits, Adam moments
// and scratch in GPU buffers, one compute pipeline, and step(K): K iterations of every run in one
// dispatch, one read back of their records (metrics per iteration), recorded into the same
// RunSeries as the other executors. Initial logits (tabular) or weights (the shared MLP) come from
// the host's seeded streams (the CPU executor's, the tensor executor's), so iteration 0 is the same
// everywhere. What it runs: core/config/webgpu-support.ts.

/** Iterations per dispatch at most (the records buffer holds this many). */
export const MAX_K = 64;
/** The time one dispatch aims at: well under a browser's GPU watchdog, and short enough for Pause to feel immediate. */
export const DISPATCH_MS = 30;

export class WebGpuShard {
  readonly pb: Problem;
  readonly series: RunSeries[];
  readonly Jstar: number;
  iteration = 0;
  /** Dispatches and read backs so far (the benchmark reports them per iteration). */
  dispatches = 0;
  readbacks = 0;
  private readonly shape: KernelShape;
  private readonly buffers: GPUBuffer[] = [];
  private pipeline: GPUComputePipeline | null = null;
  private bind: GPUBindGroup | null = null;
  private algos!: GPUBuffer;
  private params!: GPUBuffer;
  private rec!: GPUBuffer;
  private staging!: GPUBuffer;
  private thetaBuf!: GPUBuffer;
  private adamBuf!: GPUBuffer;
  /**
   * With \`snapshot\`, every read back also brings the runs' logits and Adam state at the end of the
   * dispatch (same mapAsync): what another executor needs to take over if the device is lost.
   */
  snapshotTheta: Float32Array | null = null;
  snapshotAdam: Float32Array | null = null;
  private readonly diverged: { diverged: number | null }[];
  private disposed = false;
  /** Wall time per iteration of the last dispatch (dispatch to read back), or null before one. */
  msPerIteration: number | null = null;

  constructor(
    readonly exp: Experiment,
    readonly specs: RunSpec[],
    private readonly device: GPUDevice,
    every = 1,
    private readonly snapshot = false,
  ) {
    this.pb = buildProblem(exp);
    const { tree } = this.pb;
    this.shape = {
      sampled: exp.mode === 'sampled',
      B: exp.env.contextsPerBatch,
      G: exp.groupSize,
      contexts: exp.env.contexts,
      V: tree.V,
      N: tree.N,
      L: tree.L,
      T: tree.T,
      nodesPerContext: tree.nodesPerContext,
      offset: Array.from(tree.offset),
      S: tree.sequences,
      gamma: exp.env.gamma,
      perTurn: exp.env.turnRewards !== null,
      workgroup: workgroupSize(specs.length),
      mlp: exp.policy.kind === 'mlp' ? { layers: [mlpInputSize(exp.env), ...exp.policy.hidden, tree.V], activation: exp.policy.activation } : null,
    };
    this.Jstar = this.pb.opt.Jstar;
    this.series = specs.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex, every));
    this.diverged = specs.map(() => ({ diverged: null }));
  }

  get done(): boolean {
    return this.iteration >= this.exp.iterations;
  }

  /** Build the pipeline and upload the tables and the initial logits; records iteration 0 (on the host, in float64). */
  async init(): Promise<void> {
    const { pb, device, specs } = this;
    const { tree, env } = pb;
    const CS = env.contexts * tree.sequences;
    const ENUM = this.shape.sampled ? 0 : rollouts(this.shape);
    const P = pb.params;
    const runs = specs.length;
    const f32 = (words: number) => words * 4;
    const storage = (data: ArrayBufferView | number, usage = 0) => {
      const size = Math.max(16, typeof data === 'number' ? f32(data) : data.byteLength);
      const b = device.createBuffer({ size: Math.ceil(size / 16) * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | usage });
      this.buffers.push(b);
      if (typeof data !== 'number') device.queue.writeBuffer(b, 0, data as BufferSource);
      return b;
    };
    // tables: the mean return of every sequence, its noise variance, the turn discount, each context's
    // noise, the terminal mean reward, the per-turn reward tables, and (exact mode) every sequence's
    // rewards-to-go and mean rewards by turn
    const turnTables = turnTableOffsets(this.shape);
    const TERM0 = 2 * CS + tree.T + 2 * env.contexts;
    const TT0 = TERM0 + CS;
    const TG0 = TT0 + env.contexts * turnTables.total;
    const exactTurns = this.shape.perTurn && !this.shape.sampled ? ENUM * tree.T : 0;
    const tables = new Float32Array(TG0 + 2 * exactTurns);
    for (let x = 0; x < env.contexts; x++)
      for (let q = 0; q < tree.sequences; q++) {
        tables[x * tree.sequences + q] = env.returns[x]![q]!;
        tables[CS + x * tree.sequences + q] = noiseVariance(env.noise[x]!, env.rewards[x]![q]!);
      }
    tables.set(pb.turnDiscount, 2 * CS);
    for (let x = 0; x < env.contexts; x++) {
      for (let q = 0; q < tree.sequences; q++) tables[TERM0 + x * tree.sequences + q] = env.rewards[x]![q]!;
      env.turnRewards?.[x]!.forEach((table, t) => tables.set(table, TT0 + x * turnTables.total + turnTables.offsets[t]!));
    }
    if (exactTurns) {
      tables.set(pb.enumeration!.togo, TG0);
      tables.set(pb.enumeration!.turnReward, TG0 + exactTurns);
    }
    env.noise.forEach((n, x) => {
      tables[2 * CS + tree.T + 2 * x] = n.kind === 'none' ? 0 : n.kind === 'gaussian' ? 1 : 2;
      tables[2 * CS + tree.T + 2 * x + 1] = n.kind === 'gaussian' ? n.sigma : 0;
    });
    // itab: exact mode's enumeration (nodes, tokens), the optimal actions, the optimal path, (MLP) the nodes' active inputs
    const active = this.shape.mlp ? nodeActiveInputs(tree, env.contexts) : new Uint32Array(0);
    const itab = new Uint32Array(activeInputsAt(this.shape) + active.length);
    itab.set(active, activeInputsAt(this.shape));
    if (pb.enumeration) {
      itab.set(pb.enumeration.node, 0);
      itab.set(pb.enumeration.tok, ENUM * tree.N);
    }
    for (let j = 0; j < P; j++) itab[2 * ENUM * tree.N + j] = pb.opt.optimal[j] ? 1 : 0;
    for (let x = 0; x < env.contexts; x++) itab.set(pb.opt.path[x]!, 2 * ENUM * tree.N + P + x * tree.N);
    // each run's random numbers: keyed by the seed and seed index, and the algorithm's stream position
    const runInfo = new Uint32Array(2 * runs);
    specs.forEach((s, r) => {
      runInfo[2 * r] = streamKey(this.exp.seed, s.seedIndex);
      runInfo[2 * r + 1] = streamKey(s.streamIndex ?? s.algoIndex, 0x57e9);
    });
    // initial logits (or the MLP's weights) from the host's seeded streams, evaluated here in float64 (iteration 0)
    const TH = thetaWords(this.shape);
    const theta64 = new Float64Array(P);
    const theta = new Float32Array(TH * runs);
    const mlp: MlpShape | null = this.shape.mlp ? { layers: this.shape.mlp.layers, activation: this.shape.mlp.activation, bias: true } : null;
    const probs = new Float64Array(P);
    const logZ = new Float64Array(pb.nodes);
    const scratch = { reach: new Float64Array(pb.nodes), leafProb: null as Float64Array | null };
    const value = { J: 0, entropy: 0, optimalProb: new Float64Array(tree.T), Jcontext: undefined as Float64Array | undefined };
    specs.forEach((s, r) => {
      if (mlp) {
        const weights = initialMlp(mlp, this.exp.seed, s.seedIndex, this.exp.policy.initScale);
        let o = r * TH + P; // the weights after the node logits, in initialMlp's order
        for (const w of weights) {
          theta.set(w, o);
          o += w.length;
        }
        mlpNodeLogits(mlp, weights, active, pb.nodes, theta64);
      } else initialTheta(pb, s.seedIndex, theta64);
      theta.set(theta64, r * TH);
      softmaxTable(theta64, tree.V, probs, logZ);
      const v = evaluatePolicy(env, tree, pb.opt, probs, scratch as never, value as never);
      recordEvaluation(this.series[r]!, this.diverged[r]!, 0, v);
    });
    if (this.snapshot) {
      this.snapshotTheta = theta.slice();
      this.snapshotAdam = this.exp.optimizer.kind === 'adam' ? new Float32Array(adamWords(this.shape) * runs) : null;
    }
    // every buffer within what one binding may hold, or a clear refusal before any is made
    const limit = device.limits.maxStorageBufferBindingSize;
    const biggest = Math.max(theta.byteLength, f32(scratchWords(this.shape) * runs), f32(adamWords(this.shape) * runs), f32(recordWords(this.shape) * MAX_K * runs), itab.byteLength, tables.byteLength);
    if (biggest > limit)
      throw new Error(`the WebGPU executor needs a ${(biggest / 2 ** 20).toFixed(1)} MiB buffer for ${runs.toLocaleString('en-US')} runs; this adapter binds at most ${(limit / 2 ** 20).toFixed(0)} MiB: lower seeds or the environment size, or use executor "cpu"`);
    const tablesBuf = storage(tables);
    const runInfoBuf = storage(runInfo);
    const itabBuf = storage(itab);
    this.algos = storage(ALGO_WORDS * runs);
    this.writeAlgos();
    const thetaBuf = storage(theta, GPUBufferUsage.COPY_SRC);
    const adam = storage(adamWords(this.shape) * runs, GPUBufferUsage.COPY_SRC);
    const scr = storage(scratchWords(this.shape) * runs);
    this.rec = storage(recordWords(this.shape) * MAX_K * runs, GPUBufferUsage.COPY_SRC);
    this.params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.buffers.push(this.params);
    this.thetaBuf = thetaBuf;
    this.adamBuf = adam;
    const snapWords = this.snapshot ? TH * runs + 2 + (this.exp.optimizer.kind === 'adam' ? adamWords(this.shape) * runs : 0) : 0;
    this.staging = device.createBuffer({ size: this.rec.size + snapWords * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    this.buffers.push(this.staging);
    const module = device.createShaderModule({ code: kernelSource(this.shape) });
    const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
    if (errors.length) throw new Error(`the WebGPU kernel did not compile: ${errors.slice(0, 3).map((m) => `line ${m.lineNum}: ${m.message}`).join('; ')}`);
    this.pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    this.bind = device.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [tablesBuf, itabBuf, this.algos, thetaBuf, adam, scr, this.rec, this.params, runInfoBuf].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /** Each run's algorithm record as the kernel reads it (after a hot change of the lr or a clip, again). */
  writeAlgos(): void {
    const w = new Float32Array(ALGO_WORDS * this.specs.length);
    this.specs.forEach((s, r) => {
      const a = this.exp.algorithms[s.algoIndex]!;
      const o = r * ALGO_WORDS;
      w[o + ALGO.rule] = a.rule === 'reinforce' ? 0 : a.rule === 'ppu' ? 1 : 2;
      w[o + ALGO.ratioSeq] = a.ratio === 'sequence' ? 1 : 0;
      w[o + ALGO.order] = a.order === 'reverse' ? 0 : a.order === 'forward' ? 1 : 2;
      w[o + ALGO.minibatches] = a.minibatches;
      w[o + ALGO.rloo] = a.advantage === 'rloo' ? 1 : 0;
      w[o + ALGO.gae] = a.advantage === 'gae' ? 1 : 0;
      w[o + ALGO.lambda] = a.gaeLambda;
      w[o + ALGO.criticLr] = a.criticLr ?? -1;
      w[o + ALGO.norm] = a.normalization === 'none' ? 0 : a.normalization === 'group' ? 1 : 2;
      w[o + ALGO.mCorr] = a.mCorrection ? 1 : 0;
      w[o + ALGO.mClip] = a.mClip ?? -1;
      w[o + ALGO.geo] = a.turnRatio === 'geomean' ? 1 : 0;
      w[o + ALGO.epochs] = a.epochs;
      w[o + ALGO.lr] = algorithmLr(a, this.exp.optimizer.lr);
      w[o + ALGO.clip] = a.clip;
      w[o + ALGO.adam] = this.exp.optimizer.kind === 'adam' ? 1 : 0;
    });
    this.device.queue.writeBuffer(this.algos, 0, w);
  }

  /**
   * Runs per dispatch: all of them, unless one iteration of all of them takes longer than
   * DISPATCH_MS (16,384 runs on a software adapter): then slices of them, each its own submission,
   * so no single dispatch runs long (multiples of the workgroup size; one read back at the end).
   */
  runSlice(): number {
    const runs = this.specs.length;
    if (this.msPerIteration === null || this.msPerIteration <= DISPATCH_MS) return runs;
    const wg = this.shape.workgroup!;
    return Math.min(runs, Math.max(wg, Math.floor((runs * DISPATCH_MS) / this.msPerIteration / wg) * wg));
  }

  /** Iterations the next dispatch should hold to take about DISPATCH_MS, from the last dispatch's time (1 before any). */
  suggestedK(): number {
    if (this.msPerIteration === null) return 1;
    return Math.max(1, Math.min(MAX_K, Math.floor(DISPATCH_MS / Math.max(this.msPerIteration, 1e-3))));
  }

  /**
   * Up to `k` iterations of every run in one dispatch and one read back; fewer when a scheduled
   * change falls inside (it applies at its iteration, as on the CPU executor). Returns the iterations done.
   */
  async step(k = 1): Promise<number> {
    if (this.done || !this.pipeline || this.disposed) return 0;
    const start = this.iteration;
    if (applyScheduled(this.exp, start)) this.writeAlgos();
    let K = Math.min(k, MAX_K, this.exp.iterations - start);
    for (const c of this.exp.changes) if (c.at > start && c.at < start + K) K = c.at - start;
    const runs = this.specs.length;
    const REC = recordWords(this.shape);
    const t0 = performance.now();
    // a validation error would otherwise leave the records as they were and read back as numbers
    this.device.pushErrorScope('validation');
    const slice = K === 1 ? this.runSlice() : runs;
    for (let first = 0; first < runs; first += slice) {
      const end = Math.min(runs, first + slice);
      this.device.queue.writeBuffer(this.params, 0, new Uint32Array([end, K, start, first]));
      const enc = this.device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, this.bind!);
      pass.dispatchWorkgroups(Math.ceil((end - first) / this.shape.workgroup!));
      pass.end();
      this.device.queue.submit([enc.finish()]);
      this.dispatches++;
    }
    const enc = this.device.createCommandEncoder();
    const recBytes = REC * K * runs * 4;
    const base = this.rec.size; // the snapshot sits after the largest records block
    const thetaBytes = this.snapshot ? thetaWords(this.shape) * runs * 4 : 0;
    const adamBytes = this.snapshot && this.exp.optimizer.kind === 'adam' ? adamWords(this.shape) * runs * 4 : 0;
    enc.copyBufferToBuffer(this.rec, 0, this.staging, 0, recBytes);
    if (thetaBytes) enc.copyBufferToBuffer(this.thetaBuf, 0, this.staging, base, thetaBytes);
    const adamAt = base + Math.ceil(thetaBytes / 8) * 8; // mapped ranges start at multiples of 8
    if (adamBytes) enc.copyBufferToBuffer(this.adamBuf, 0, this.staging, adamAt, adamBytes);
    this.device.queue.submit([enc.finish()]);
    const invalid = await this.device.popErrorScope();
    if (invalid) throw new Error(`the WebGPU dispatch was refused: ${invalid.message}`);
    await this.staging.mapAsync(GPUMapMode.READ);
    this.readbacks++;
    const out = new Float32Array(this.staging.getMappedRange(0, recBytes).slice(0));
    if (thetaBytes) this.snapshotTheta = new Float32Array(this.staging.getMappedRange(base, thetaBytes).slice(0));
    if (adamBytes) this.snapshotAdam = new Float32Array(this.staging.getMappedRange(adamAt, adamBytes).slice(0));
    this.staging.unmap();
    this.msPerIteration = (performance.now() - t0) / K;
    const T = this.pb.tree.T;
    const C = this.exp.env.contexts;
    for (let r = 0; r < runs; r++) {
      const run = this.diverged[r]!;
      const s = this.series[r]!;
      for (let it = 0; it < K; it++) {
        if (run.diverged !== null) break;
        const o = (r * K + it) * REC;
        const kk = start + it;
        const u = { kl: out[o]!, clipFraction: out[o + 1]!, zeroVarianceGroups: out[o + 2]!, gradNorm: out[o + 3]! };
        if (!recordUpdate(s, run, kk, u)) break;
        const v = { J: out[o + 4]!, entropy: out[o + 5]!, optimalProb: out.subarray(o + 6, o + 6 + T), Jcontext: C > 1 ? out.subarray(o + 6 + T, o + 6 + T + C) : undefined };
        recordEvaluation(s, run, kk + 1, v);
      }
    }
    this.iteration = start + K;
    return K;
  }

  /** Destroy every GPU buffer (the device is the caller's). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of this.buffers) b.destroy();
    this.buffers.length = 0;
  }
}
