import type { Problem } from '../host/problem';
import type { Scratch } from '../host/scratch';
import { refreshStaleLogZ } from '../host/tabular';
import { exactKernelBytes } from './exact-kernel-wasm';

// One shard's memory for exact mode's PPU step (exact-ppu.ts) and its three loops, in WebAssembly
// where it compiles (exact-kernel-wasm.ts), else the JavaScript twins below over an ArrayBuffer:
// the same floating-point operations in the same order, so the same numbers either way. In
// JavaScript V8 checks a typed array's map, base and length at each access of a loop (about 100
// instructions per token of the lesson experiment's step); WebAssembly reads memory directly.
// The shard's θ and the scratch's logZ, π_old and node stamps live in this memory (attachExactKernel),
// so the loops read them where the rest of the executor writes them.

export interface ExactKernel {
  readonly kind: 'wasm' | 'js';
  readonly buffer: ArrayBuffer;
  /** [0] clipNum, [1] clipDen after tokens(); [2] the probe after finish(). */
  readonly out: Float64Array;
  /** Per parameter g: [3g] ρ, [3g + 1] gradient, [3g + 2] log π_old; then per node n, [3P + n] gsum. */
  readonly f: Float64Array;
  /** Per live token t: [2t] the byte address of f[3g], [2t + 1] that of f[3P + n]. */
  readonly at: Int32Array;
  /** Per live token t: [3t] w, [3t + 1] Â, [3t + 2] w·Â. */
  readonly tok: Float64Array;
  /** The batch's nodes (Batch.nodes), copied. */
  readonly nodes: Int32Array;
  /** Every run's θ, run r at [r·P, (r + 1)·P). */
  readonly theta: Float64Array;
  readonly logZ: Float64Array;
  readonly probsOld: Float64Array;
  readonly logZAt: Int32Array;
  readonly ratiosAt: Int32Array;
  readonly movedAt: Int32Array;
  /** The iteration (Scratch.iterationStamp) whose tables f (log π_old), at, tok and nodes hold (exact-ppu.ts), and its live tokens. */
  builtAt: number;
  live: number;
  tokens(live: number, eps: number, lo: number, hi: number, clipNum: number, clipDen: number): void;
  ratios(nNodes: number, V: number, theta: Float64Array, now: number): void;
  finish(nNodes: number, V: number, theta: Float64Array, fresh: boolean, now: number, lr: number): void;
  /** One step: refreshStaleLogZ (unless fresh), ratios, tokens (over `live` tokens), finish. */
  epoch(nNodes: number, V: number, theta: Float64Array, fresh: boolean, now: number, lr: number, eps: number, clipNum: number, clipDen: number): void;
}

/** Most bytes a kernel's memory may take; a larger problem runs the step in rules.ts (clippedStep). */
const MAX_BYTES = 1 << 30;

let compiled: WebAssembly.Module | null | undefined;
function wasmModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = typeof WebAssembly === 'object' ? new WebAssembly.Module(exactKernelBytes()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Byte offsets of each region (8-aligned). */
function layout(pb: Problem, runs: number, tokens: number) {
  const P = pb.params;
  const N = pb.nodes;
  const sizes = { out: 24, f: 8 * (3 * P + N), at: 8 * tokens, tok: 24 * tokens, theta: 8 * P * runs, logZ: 8 * N, probsOld: 8 * P, nodes: 4 * N, logZAt: 4 * N, ratiosAt: 4 * N, movedAt: 4 * N };
  const at = {} as Record<keyof typeof sizes, number>;
  let end = 0;
  for (const k of Object.keys(sizes) as (keyof typeof sizes)[]) {
    at[k] = end;
    end += Math.ceil(sizes[k] / 8) * 8;
  }
  return { at, bytes: end };
}

/** A kernel for a shard of `runs` runs (WebAssembly unless `wasm` is false or it does not compile), or null when too large. */
export function makeExactKernel(pb: Problem, runs: number, tokens: number, wasm = true): ExactKernel | null {
  const { at: o, bytes } = layout(pb, runs, tokens);
  if (bytes > MAX_BYTES) return null;
  const mod = wasm ? wasmModule() : null;
  let buffer: ArrayBuffer | null = null;
  type Exports = Record<'tokens' | 'ratios' | 'finish' | 'epoch', (...a: number[]) => void>;
  let exports: Exports | null = null;
  if (mod)
    try {
      const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
      exports = new WebAssembly.Instance(mod, { m: { mem: memory, exp: Math.exp, log: Math.log } }).exports as unknown as Exports;
      buffer = memory.buffer;
    } catch {
      exports = null; // no memory that large: the JavaScript loops over an ArrayBuffer
    }
  buffer ??= new ArrayBuffer(bytes);
  const P = pb.params;
  const N = pb.nodes;
  const views = {
    out: new Float64Array(buffer, o.out, 3),
    f: new Float64Array(buffer, o.f, 3 * P + N),
    at: new Int32Array(buffer, o.at, 2 * tokens),
    tok: new Float64Array(buffer, o.tok, 3 * tokens),
    nodes: new Int32Array(buffer, o.nodes, N),
    theta: new Float64Array(buffer, o.theta, P * runs),
    logZ: new Float64Array(buffer, o.logZ, N),
    probsOld: new Float64Array(buffer, o.probsOld, P),
    logZAt: new Int32Array(buffer, o.logZAt, N),
    ratiosAt: new Int32Array(buffer, o.ratiosAt, N),
    movedAt: new Int32Array(buffer, o.movedAt, N),
  };
  if (exports) {
    const { tokens: t, ratios: r, finish: f, epoch: e } = exports;
    const gsum = o.f + 8 * 3 * P;
    const kernel: ExactKernel = {
      kind: 'wasm',
      buffer,
      builtAt: -1,
      live: 0,
      ...views,
      epoch: (nNodes, V, theta, fresh, now, lr, eps, clipNum, clipDen) =>
        e(o.nodes, nNodes, V, theta.byteOffset, o.f, gsum, o.logZ, o.probsOld, o.logZAt, o.ratiosAt, o.movedAt, fresh ? 1 : 0, now, lr, kernel.live, o.at, o.tok, eps, 1 - eps, 1 + eps, clipNum, clipDen),
      tokens: (live, eps, lo, hi, clipNum, clipDen) => t(live, o.at, o.tok, eps, lo, hi, clipNum, clipDen),
      ratios: (nNodes, V, theta, now) => r(o.nodes, nNodes, V, theta.byteOffset, o.f, o.logZ, o.ratiosAt, now),
      finish: (nNodes, V, theta, fresh, now, lr) => f(o.nodes, nNodes, V, theta.byteOffset, o.f, gsum, o.logZ, o.probsOld, o.logZAt, o.ratiosAt, o.movedAt, fresh ? 1 : 0, now, lr),
    };
    return kernel;
  }
  const loops = jsLoops(views, P, o.f);
  const kernel: ExactKernel = {
    kind: 'js',
    buffer,
    builtAt: -1,
    live: 0,
    ...views,
    ...loops,
    epoch(nNodes, V, theta, fresh, now, lr, eps, clipNum, clipDen) {
      if (!fresh) refreshStaleLogZ(theta, V, views.nodes, 0, nNodes, { logZ: views.logZ, logZAt: views.logZAt, iterationStamp: now });
      loops.ratios(nNodes, V, theta, now);
      loops.tokens(kernel.live, eps, 1 - eps, 1 + eps, clipNum, clipDen);
      loops.finish(nNodes, V, theta, fresh, now, lr);
    },
  };
  return kernel;
}

type Views = Pick<ExactKernel, 'out' | 'f' | 'at' | 'tok' | 'nodes' | 'logZ' | 'probsOld' | 'logZAt' | 'ratiosAt' | 'movedAt'>;

/** The JavaScript twins of exact-kernel-wasm.ts's functions (the code of clippedStep, refreshRatios and finishAndStepSgd). */
function jsLoops(v: Views, P: number, fByte: number): Pick<ExactKernel, 'tokens' | 'ratios' | 'finish'> {
  const { out, f, at, tok, nodes, logZ, probsOld, logZAt, ratiosAt, movedAt } = v;
  const P3 = 3 * P;
  return {
    tokens(live, eps, lo, hi, clipNum, clipDen) {
      for (let k = 0; k < live; k++) {
        const r = (at[2 * k] - fByte) >> 3;
        const ratio = f[r];
        const w = tok[3 * k];
        const A = tok[3 * k + 1];
        const clipped = Math.min(Math.max(ratio, lo), hi);
        clipDen += w;
        if (Math.abs(ratio - 1) > eps) clipNum += w;
        if (ratio * A <= clipped * A) {
          const u = tok[3 * k + 2] * ratio;
          f[r + 1] += u;
          f[(at[2 * k + 1] - fByte) >> 3] += u;
        }
      }
      out[0] = clipNum;
      out[1] = clipDen;
    },
    ratios(nNodes, V, theta, now) {
      for (let j = 0; j < nNodes; j++) {
        const n = nodes[j];
        if (ratiosAt[n] === now) continue;
        ratiosAt[n] = now;
        const lz = logZ[n];
        for (let g = n * V; g < n * V + V; g++) {
          const d = theta[g] - lz - f[3 * g + 2];
          f[3 * g] = d === 0 ? 1 : Math.exp(d); // exp(±0) is exactly 1
        }
      }
    },
    finish(nNodes, V, theta, fresh, now, lr) {
      let probe = 0;
      for (let j = 0; j < nNodes; j++) {
        const n = nodes[j];
        const o = n * V;
        const s = f[P3 + n];
        if (s !== 0) {
          if (fresh) for (let a = 0; a < V; a++) f[3 * (o + a) + 1] -= s * probsOld[o + a];
          else {
            const lz = logZ[n];
            for (let a = 0; a < V; a++) f[3 * (o + a) + 1] -= s * Math.exp(theta[o + a] - lz);
          }
          f[P3 + n] = 0;
        }
        let moved = false;
        for (let a = 0; a < V; a++) {
          const g = f[3 * (o + a) + 1];
          if (g !== 0) moved = true; // NaN too
          probe += (theta[o + a] += lr * g) * 0;
          f[3 * (o + a) + 1] = 0;
        }
        if (moved) {
          logZAt[n] = -1;
          ratiosAt[n] = -1;
          movedAt[n] = now;
        }
      }
      out[2] = probe;
    },
  };
}

const kernels = new WeakMap<Scratch, ExactKernel>();
// the latest lookup: a shard steps its runs one after another, so nearly every lookup is this one
let lastScratch: Scratch | null = null;
let lastKernel: ExactKernel | undefined;

/**
 * Exact mode: makes the shard's kernel, moves the scratch's logZ, probsOld and node stamps into
 * its memory (still zeros: called before any step) and returns the θ of every run there; null
 * (nothing changed) when the kernel would be too large.
 */
export function attachExactKernel(pb: Problem, sc: Scratch, runs: number, wasm = true): Float64Array | null {
  const k = makeExactKernel(pb, runs, sc.batch.n * sc.batch.N, wasm);
  if (!k) return null;
  sc.logZ = k.logZ;
  sc.probsOld = k.probsOld;
  sc.logZAt = k.logZAt;
  sc.ratiosAt = k.ratiosAt;
  sc.movedAt = k.movedAt;
  kernels.set(sc, k);
  lastScratch = null;
  return k.theta;
}

/** The kernel attached to this scratch, or undefined (then rules.ts's clippedStep steps). */
export function kernelOf(sc: Scratch): ExactKernel | undefined {
  if (sc !== lastScratch) {
    lastKernel = kernels.get(sc);
    lastScratch = sc;
  }
  return lastKernel;
}
