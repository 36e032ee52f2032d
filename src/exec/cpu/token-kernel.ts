// The token loop of exact mode's PPU step (exact-ppu.ts) as a WebAssembly function, with the same
// loop in JavaScript where WebAssembly is not available. In JavaScript, V8 checks each typed
// array's map, base and length at every access of the loop (about 100 instructions per token on
// the lesson experiment); WebAssembly reads linear memory directly. Both perform, per token, the
// floating-point operations of rules.ts's clippedStep in its order: f64.min / f64.max / f64.abs
// are Math.min / Math.max / Math.abs (NaN in, NaN out; −0 below +0), and there is no fused
// multiply-add in WebAssembly's f64 arithmetic, so both give the same bits.
//
// Memory (byte offsets): [0, 16) the loop's clipNum and clipDen out; from F, the step's
// per-parameter and per-node doubles (exact-ppu.ts: ρ, gradient, log π_old per parameter, then
// gsum per node); from AT, per live token two byte addresses (its ρ, whose gradient is the next
// double, and its node's gsum); from TOK, per live token three doubles (w, Â, w·Â).

/** The function's parameters: live, at, tok (i32); eps, lo, hi, clipNum, clipDen (f64). */
const BODY = [
  // locals: 8 end, 9 ratio address (i32); 10 ratio, 11 w, 12 Â, 13 u (f64); 14 gsum address (i32)
  0x03, 0x02, 0x7f, 0x04, 0x7c, 0x01, 0x7f,
  0x02, 0x40, // block
  0x20, 0x00, 0x45, 0x0d, 0x00, // live = 0: out
  0x20, 0x01, 0x20, 0x00, 0x41, 0x08, 0x6c, 0x6a, 0x21, 0x08, // end = at + 8·live
  0x03, 0x40, // loop
  0x20, 0x01, 0x28, 0x02, 0x00, 0x22, 0x09, 0x2b, 0x03, 0x00, 0x21, 0x0a, // ratio = f64[i32[at]]
  0x20, 0x02, 0x2b, 0x03, 0x00, 0x21, 0x0b, // w = tok[0]
  0x20, 0x02, 0x2b, 0x03, 0x08, 0x21, 0x0c, // Â = tok[1]
  0x20, 0x07, 0x20, 0x0b, 0xa0, 0x21, 0x07, // clipDen += w
  0x20, 0x0a, 0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0xa1, 0x99, 0x20, 0x03, 0x64, // |ratio − 1| > eps
  0x04, 0x40, 0x20, 0x06, 0x20, 0x0b, 0xa0, 0x21, 0x06, 0x0b, //   clipNum += w
  0x20, 0x0a, 0x20, 0x0c, 0xa2, // ratio·Â
  0x20, 0x0a, 0x20, 0x04, 0xa5, 0x20, 0x05, 0xa4, 0x20, 0x0c, 0xa2, // min(max(ratio, lo), hi)·Â
  0x65, 0x04, 0x40, // ≤: the unclipped branch is the minimum
  0x20, 0x02, 0x2b, 0x03, 0x10, 0x20, 0x0a, 0xa2, 0x21, 0x0d, // u = (w·Â)·ratio
  0x20, 0x09, 0x20, 0x09, 0x2b, 0x03, 0x08, 0x20, 0x0d, 0xa0, 0x39, 0x03, 0x08, // gradient += u
  0x20, 0x01, 0x28, 0x02, 0x04, 0x22, 0x0e, 0x20, 0x0e, 0x2b, 0x03, 0x00, 0x20, 0x0d, 0xa0, 0x39, 0x03, 0x00, // gsum += u
  0x0b,
  0x20, 0x01, 0x41, 0x08, 0x6a, 0x22, 0x01, // at += 8
  0x20, 0x02, 0x41, 0x18, 0x6a, 0x21, 0x02, // tok += 24
  0x20, 0x08, 0x49, 0x0d, 0x00, // at < end: again
  0x0b, // end loop
  0x0b, // end block
  0x41, 0x00, 0x20, 0x06, 0x39, 0x03, 0x00, // out clipNum
  0x41, 0x00, 0x20, 0x07, 0x39, 0x03, 0x08, // out clipDen
  0x0b,
];

const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}
const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

/** The module: imports memory "m" "mem", exports "tokens". */
function moduleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, 0x08, 0x7f, 0x7f, 0x7f, 0x7c, 0x7c, 0x7c, 0x7c, 0x7c, 0x00]),
    ...section(2, [0x01, ...name('m'), ...name('mem'), 0x02, 0x00, 0x01]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name('tokens'), 0x00, 0x00]),
    ...section(10, [0x01, ...uleb(BODY.length), ...BODY]),
  ]);
}

let compiled: WebAssembly.Module | null | undefined;
/** The compiled module, or null where WebAssembly is missing or refuses it (then the JavaScript loop runs). */
function wasmModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = typeof WebAssembly === 'object' ? new WebAssembly.Module(moduleBytes()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** One shard's token memory and loop. */
export interface TokenKernel {
  /** Which loop runs. */
  readonly kind: 'wasm' | 'js';
  readonly buffer: ArrayBuffer;
  /** Runs the loop over `live` tokens; returns clipNum and clipDen in out[0], out[1]. */
  run(live: number, at: number, tok: number, eps: number, lo: number, hi: number, clipNum: number, clipDen: number): void;
  readonly out: Float64Array;
}

/** A kernel over `bytes` bytes of memory (WebAssembly where it compiles and `wasm`, else JavaScript over an ArrayBuffer). */
export function makeTokenKernel(bytes: number, wasm = true): TokenKernel {
  const mod = wasm ? wasmModule() : null;
  if (mod) {
    try {
      const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
      const inst = new WebAssembly.Instance(mod, { m: { mem: memory } });
      const tokens = inst.exports.tokens as (...args: number[]) => void;
      return { kind: 'wasm', buffer: memory.buffer, out: new Float64Array(memory.buffer, 0, 2), run: tokens };
    } catch {
      // no memory that large: the JavaScript loop below
    }
  }
  const buffer = new ArrayBuffer(bytes);
  const out = new Float64Array(buffer, 0, 2);
  const f = new Float64Array(buffer);
  const i32 = new Int32Array(buffer);
  return {
    kind: 'js',
    buffer,
    out,
    run(live, at, tok, eps, lo, hi, clipNum, clipDen) {
      // byte addresses → indices: AT is 4-aligned, TOK and every f address 8-aligned
      for (let k = 0, a = at >> 2, t = tok >> 3; k < live; k++, a += 2, t += 3) {
        const r = i32[a] >> 3;
        const ratio = f[r];
        const w = f[t];
        const A = f[t + 1];
        const clipped = Math.min(Math.max(ratio, lo), hi);
        clipDen += w;
        if (Math.abs(ratio - 1) > eps) clipNum += w;
        if (ratio * A <= clipped * A) {
          const u = f[t + 2] * ratio;
          f[r + 1] += u;
          f[i32[a + 1] >> 3] += u;
        }
      }
      out[0] = clipNum;
      out[1] = clipDen;
    },
  };
}
