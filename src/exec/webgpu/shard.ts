import type { Experiment } from '../../core/config/resolve';
import { mlpInputSize } from '../../core/config/resolve';
import { usesDiscountedObjective } from '../../core/env/discounted';
import { applyScheduled } from '../../core/run/changes';
import type { RunSpec } from '../../core/run/partition';
import { makeRunSeries, recordEvaluation, recordUpdate, type RunSeries } from '../../core/run/series';
import { buildProblem, type Problem } from '../host/problem';
import { kernelSource, workgroupSize } from './kernel';
import { adamWords, ALGO_WORDS, kernelLayout, packAlgos, recordWords, scratchWords, thetaWords, type KernelShape } from './layout';
import { initialParameters, packItab, packRunInfo, packTables } from './pack';

// The WebGPU executor's host side: the experiment's tables and every run's logits, Adam moments
// and scratch in GPU buffers, one compute pipeline, and step(K): K iterations of every run in one
// dispatch, one read back of their records (metrics per iteration), recorded into the same
// RunSeries as the other executors. Initial logits (tabular) or weights (the shared MLP) come from
// the host's seeded streams (the CPU executor's, the tensor executor's), so iteration 0 is the same
// everywhere. What it runs: core/config/webgpu-support.ts.

/** Iterations per dispatch at most (the records buffer holds this many). */
export const MAX_K = 64;
/** The time one submission aims at when one iteration of every run takes longer (runSlice): well under a browser's GPU watchdog. */
export const DISPATCH_MS = 30;
/**
 * The time a dispatch of K iterations and its read back aim at (suggestedK): short enough for
 * Pause to feel immediate, long enough that the round trip to the GPU process each read back
 * costs is spread over many iterations. On SwiftShader under load that round trip took tens of
 * ms (the default sampled experiment: 4.1 s for 200 iterations at K = 1, 1.9 s at K = 16, with
 * the same CPU time), and at 30 ms per dispatch K stayed at 1.
 */
export const READBACK_MS = 100;

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
  /** Used in turn: a dispatch may be read back while the next one is in flight (step's `ahead`; the second is made then). */
  private staging: GPUBuffer[] = [];
  private stagingBytes = 0;
  /** A dispatch submitted ahead and not read back yet (step's `ahead`), or null. */
  private pending: InFlight | null = null;
  /** When the last read back came in (ms): a dispatch submitted ahead is timed from there, not from its submission. */
  private lastReadBack = -Infinity;
  private thetaBuf!: GPUBuffer;
  private adamBuf!: GPUBuffer;
  private bindings: GPUBuffer[] = [];
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
      shared: this.pb.shared,
      discounted: usesDiscountedObjective(exp.env),
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
    const { pb, shape, specs } = this;
    const tables = packTables(pb, shape);
    const itab = packItab(pb, shape);
    const theta = initialParameters(pb, shape, specs, (r, v) => recordEvaluation(this.series[r]!, this.diverged[r]!, 0, v));
    if (this.snapshot) {
      this.snapshotTheta = theta.slice();
      this.snapshotAdam = this.adamOn ? new Float32Array(adamWords(shape) * specs.length) : null;
    }
    this.refuseOversized(theta, tables, itab);
    this.makeBuffers(tables, itab, theta);
    await this.makePipeline();
  }

  private get adamOn(): boolean {
    return this.exp.optimizer.kind === 'adam';
  }

  /** Every buffer within what one binding may hold, or a clear refusal before any is made. */
  private refuseOversized(theta: Float32Array, tables: Float32Array, itab: Uint32Array): void {
    const runs = this.specs.length;
    const limit = this.device.limits.maxStorageBufferBindingSize;
    const words = [scratchWords(this.shape), adamWords(this.shape), recordWords(this.shape) * MAX_K].map((w) => 4 * w * runs);
    const biggest = Math.max(theta.byteLength, tables.byteLength, itab.byteLength, ...words);
    if (biggest > limit)
      throw new Error(`the WebGPU executor needs a ${(biggest / 2 ** 20).toFixed(1)} MiB buffer for ${runs.toLocaleString('en-US')} runs; this adapter binds at most ${(limit / 2 ** 20).toFixed(0)} MiB: lower seeds or the environment size, or use executor "cpu"`);
  }

  /** A storage buffer (kept for dispose), filled with `data` or of `words` f32 words, 16-byte aligned. */
  private storage(data: ArrayBufferView | number, usage = 0): GPUBuffer {
    const size = Math.max(16, typeof data === 'number' ? 4 * data : data.byteLength);
    const b = this.device.createBuffer({ size: Math.ceil(size / 16) * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | usage });
    this.buffers.push(b);
    if (typeof data !== 'number') this.device.queue.writeBuffer(b, 0, data as BufferSource);
    return b;
  }

  /** The kernel's buffers, in binding order (kernel.ts), and the staging buffer of the read backs. */
  private makeBuffers(tables: Float32Array, itab: Uint32Array, theta: Float32Array): void {
    const { device, shape } = this;
    const runs = this.specs.length;
    const tablesBuf = this.storage(tables);
    const itabBuf = this.storage(itab);
    this.algos = this.storage(ALGO_WORDS * runs);
    this.writeAlgos();
    this.thetaBuf = this.storage(theta, GPUBufferUsage.COPY_SRC);
    this.adamBuf = this.storage(adamWords(shape) * runs, GPUBufferUsage.COPY_SRC);
    const scr = this.storage(scratchWords(shape) * runs);
    this.rec = this.storage(recordWords(shape) * MAX_K * runs, GPUBufferUsage.COPY_SRC);
    this.params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.buffers.push(this.params);
    const runInfo = this.storage(packRunInfo(this.exp.seed, this.specs));
    this.bindings = [tablesBuf, itabBuf, this.algos, this.thetaBuf, this.adamBuf, scr, this.rec, this.params, runInfo];
    const snapWords = this.snapshot ? thetaWords(shape) * runs + 2 + (this.adamOn ? adamWords(shape) * runs : 0) : 0;
    this.stagingBytes = this.rec.size + snapWords * 4;
    this.stagingBuffer(0);
  }

  /** Staging buffer i (0 or 1), made the first time it is used. */
  private stagingBuffer(i: number): GPUBuffer {
    if (!this.staging[i]) {
      const b = this.device.createBuffer({ size: this.stagingBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      this.buffers.push(b);
      this.staging[i] = b;
    }
    return this.staging[i]!;
  }

  /** The kernel compiled for this shape (its errors with their lines, if any) and bound to the buffers. */
  private async makePipeline(): Promise<void> {
    const { device } = this;
    const module = device.createShaderModule({ code: kernelSource(this.shape) });
    const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
    if (errors.length) throw new Error(`the WebGPU kernel did not compile: ${errors.slice(0, 3).map((m) => `line ${m.lineNum}: ${m.message}`).join('; ')}`);
    this.pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    this.bind = device.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: this.bindings.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /** Each run's algorithm record as the kernel reads it (after a hot change of the lr or a clip, again). */
  writeAlgos(): void {
    this.device.queue.writeBuffer(this.algos, 0, packAlgos(this.exp, this.specs.map((s) => s.algoIndex)));
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

  /** Iterations the next dispatch should hold to take about READBACK_MS, from the last dispatch's time (1 before any). */
  suggestedK(): number {
    if (this.msPerIteration === null) return 1;
    return Math.max(1, Math.min(MAX_K, Math.floor(READBACK_MS / Math.max(this.msPerIteration, 1e-3))));
  }

  /**
   * Up to `k` iterations of every run in one dispatch and one read back; fewer when a scheduled
   * change falls inside (it applies at its iteration, as on the CPU executor). Returns the iterations done.
   *
   * `upTo`: the iteration the runs may be computed to before anything can change their course (a
   * pause, a step, a hot change: the session's limit). When it lies past this dispatch, the next
   * dispatch (up to suggestedK() iterations, not past `upTo`) is submitted before this one's read
   * back is waited for, so the GPU computes it while the read back travels to this thread and is
   * recorded; the next step() reads it back instead of submitting one of its `k`. The caller calls
   * settle() before it stops the runs. A dispatch in flight when the shard is disposed is never read.
   */
  async step(k = 1, upTo = 0): Promise<number> {
    if (this.disposed || !this.pipeline) return 0;
    let cur = this.pending;
    this.pending = null;
    if (!cur) {
      if (this.done) return 0;
      cur = this.submit(this.iteration, k);
    }
    const after = cur.start + cur.K;
    const ahead = Math.min(upTo, this.exp.iterations) - after;
    if (ahead > 0) this.pending = this.submit(after, Math.min(ahead, this.suggestedK()), cur.staging);
    await this.collect(cur);
    return cur.K;
  }

  /** Read back and record the dispatch submitted ahead, if any: the runs then stand where the last dispatch left them. */
  async settle(): Promise<void> {
    const cur = this.pending;
    this.pending = null;
    if (cur && !this.disposed) await this.collect(cur);
  }

  /** Whether a dispatch submitted ahead is still to be read back (settle). */
  get inFlight(): boolean {
    return this.pending !== null;
  }

  /** Submit up to `k` iterations from `start` (cut at a scheduled change) and their read back, into a staging buffer other than `busy` (a dispatch's not read back yet). */
  private submit(start: number, k: number, busy: GPUBuffer | null = null): InFlight {
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
      pass.setPipeline(this.pipeline!);
      pass.setBindGroup(0, this.bind!);
      pass.dispatchWorkgroups(Math.ceil((end - first) / this.shape.workgroup!));
      pass.end();
      this.device.queue.submit([enc.finish()]);
      this.dispatches++;
    }
    const staging = this.stagingBuffer(busy === this.staging[0] ? 1 : 0);
    const enc = this.device.createCommandEncoder();
    const recBytes = REC * K * runs * 4;
    const base = this.rec.size; // the snapshot sits after the largest records block
    const thetaBytes = this.snapshot ? thetaWords(this.shape) * runs * 4 : 0;
    const adamBytes = this.snapshot && this.exp.optimizer.kind === 'adam' ? adamWords(this.shape) * runs * 4 : 0;
    enc.copyBufferToBuffer(this.rec, 0, staging, 0, recBytes);
    if (thetaBytes) enc.copyBufferToBuffer(this.thetaBuf, 0, staging, base, thetaBytes);
    const adamAt = base + Math.ceil(thetaBytes / 8) * 8; // mapped ranges start at multiples of 8
    if (adamBytes) enc.copyBufferToBuffer(this.adamBuf, 0, staging, adamAt, adamBytes);
    this.device.queue.submit([enc.finish()]);
    // the error scope and the read back wait together: one round trip to the GPU process, not two;
    // settled, never rejected, so that a dispatch in flight when the shard is disposed fails quietly
    const ready = Promise.all([this.device.popErrorScope(), staging.mapAsync(GPUMapMode.READ)]).then(
      ([invalid]) => ({ invalid, failed: null }),
      (failed: unknown) => ({ invalid: null, failed }),
    );
    return { start, K, t0, staging, recBytes, thetaBytes, adamBytes, adamAt, base, ready };
  }

  /** Wait for a dispatch's read back and record it: the runs' series, the snapshot, the iteration. */
  private async collect(d: InFlight): Promise<void> {
    const { invalid, failed } = await d.ready;
    if (failed) throw failed;
    const { staging } = d;
    if (invalid) {
      staging.unmap();
      throw new Error(`the WebGPU dispatch was refused: ${invalid.message}`);
    }
    this.readbacks++;
    const out = new Float32Array(staging.getMappedRange(0, d.recBytes).slice(0));
    if (d.thetaBytes) this.snapshotTheta = new Float32Array(staging.getMappedRange(d.base, d.thetaBytes).slice(0));
    if (d.adamBytes) this.snapshotAdam = new Float32Array(staging.getMappedRange(d.adamAt, d.adamBytes).slice(0));
    staging.unmap();
    const now = performance.now();
    // submitted ahead: the GPU began it when the one before was done, about when that one's read back came in
    this.msPerIteration = (now - Math.max(d.t0, this.lastReadBack)) / d.K;
    this.lastReadBack = now;
    this.recordDispatch(out, d.start, d.K);
    this.iteration = d.start + d.K;
  }

  /** The K records of every run read back, into the runs' series (a run stops at its first non-finite number). */
  private recordDispatch(out: Float32Array, start: number, K: number): void {
    const { at, total: REC } = kernelLayout(this.shape).record;
    const T = this.pb.tree.T;
    const C = this.exp.env.contexts;
    for (let r = 0; r < this.specs.length; r++) {
      const run = this.diverged[r]!;
      const s = this.series[r]!;
      for (let it = 0; it < K; it++) {
        if (run.diverged !== null) break;
        const o = (r * K + it) * REC;
        const kk = start + it;
        const u = { kl: out[o + at.R_KL!]!, clipFraction: out[o + at.R_CLIP!]!, zeroVarianceGroups: out[o + at.R_ZERO!]!, gradNorm: out[o + at.R_GNORM!]! };
        if (!recordUpdate(s, run, kk, u)) break;
        const v = {
          J: out[o + at.R_J!]!,
          entropy: out[o + at.R_H!]!,
          optimalProb: out.subarray(o + at.R_POPT!, o + at.R_POPT! + T),
          Jcontext: C > 1 ? out.subarray(o + at.R_JCTX!, o + at.R_JCTX! + C) : undefined,
          Jgamma: this.shape.discounted ? out[o + at.R_JG!]! : undefined,
        };
        recordEvaluation(s, run, kk + 1, v);
      }
    }
  }

  /**
   * Run r's table of logits and Adam state (m, v, step counts per turn) in the last snapshot, cut
   * where the layout puts them: what the CPU executor takes over after a lost device. Tabular only.
   */
  runSnapshot(r: number): { logits: Float32Array; adam: { m: Float32Array; v: Float32Array; steps: Float32Array } | null } {
    const lay = kernelLayout(this.shape);
    const th = r * lay.theta.total;
    const logits = this.snapshotTheta!.subarray(th + lay.theta.at.TH_LOGITS!, th + lay.theta.at.TH_W!);
    const a = this.snapshotAdam;
    if (!a) return { logits, adam: null };
    const o = r * lay.adam.total;
    const { AD_M, AD_V, AD_K } = lay.adam.at;
    return { logits, adam: { m: a.subarray(o + AD_M!, o + AD_V!), v: a.subarray(o + AD_V!, o + AD_K!), steps: a.subarray(o + AD_K!, o + lay.adam.total) } };
  }

  /** Destroy every GPU buffer (the device is the caller's). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of this.buffers) b.destroy();
    this.buffers.length = 0;
  }
}

/** A dispatch submitted and its read back on the way. */
interface InFlight {
  start: number;
  K: number;
  /** When it was submitted (ms). */
  t0: number;
  staging: GPUBuffer;
  recBytes: number;
  thetaBytes: number;
  adamBytes: number;
  adamAt: number;
  base: number;
  ready: Promise<{ invalid: GPUError | null; failed: unknown }>;
}
