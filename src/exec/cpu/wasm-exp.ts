import { F64, I32, op, type Code, type Func } from './wasm-asm';

// exp(x) in WebAssembly, operation for operation the function V8's Math.exp calls
// (src/base/ieee754.cc, `exp`: fdlibm's e_exp.c with V8's exp(1) = E special case), so the same
// bits: IEEE double arithmetic in the same order, no fused multiply-add (WebAssembly has none).
// fdlibm branches on the high word of x; each test here is the equivalent test on |x| against a
// double whose high word is the threshold and whose low word is 0. Where fdlibm leaves its main
// path (|x| ≥ 708: overflow, underflow, the scaling of a subnormal result; NaN) this calls the
// imported Math.exp itself (function 0). The test (test/exact-kernel.test.ts) compares it with
// Math.exp on millions of arguments.

const bits = (hi: number) => new Float64Array(new Uint32Array([0, hi]).buffer)[0];
const HALF_LN2_UP = bits(0x3fd62e43); // |x| > 0.5·ln 2 ⇔ high word > 0x3fd62e42
const ONE_HALF_LN2 = bits(0x3ff0a2b2); // |x| < 1.5·ln 2
const TINY = bits(0x3e300000); // 2^−28
const LN2_HI = 6.93147180369123816490e-1;
const LN2_LO = 1.90821492927058770002e-10;
const INV_LN2 = 1.4426950408889634;
const P = [1.66666666666666019037e-1, -2.77777777770155933842e-3, 6.61375632143793436117e-5, -1.65339022054652515390e-6, 4.13813679705723846039e-8];

const x = 0;
const ax = 1;
const k = 2;
const hi = 3;
const lo = 4;
const t = 5;
const c = 6;

/** t = x·x; c = x − t·(P1 + t·(P2 + t·(P3 + t·(P4 + t·P5)))). */
const poly = (): Code => [
  op.get(x), op.get(x), op.f64mul, op.set(t),
  op.get(x),
  op.get(t), op.f64(P[0]), op.get(t), op.f64(P[1]), op.get(t), op.f64(P[2]), op.get(t), op.f64(P[3]), op.get(t), op.f64(P[4]),
  op.f64mul, op.f64add, op.f64mul, op.f64add, op.f64mul, op.f64add, op.f64mul, op.f64add, op.f64mul,
  op.f64sub, op.set(c),
];

/** The function (made when a module is: nothing is kept from it). */
export const expFunc = (): Func => ({
  params: [F64],
  results: [F64],
  locals: [F64, I32, F64, F64, F64, F64],
  export: 'exp',
  body: [
    // off the main path: Math.exp itself
    op.get(x), op.f64abs, op.tee(ax), op.f64(708), op.f64lt, op.i32eqz,
    op.if, op.get(x), op.call(0), op.return, op.end,
    // |x| ≤ 0.5·ln 2: k = 0
    op.get(ax), op.f64(HALF_LN2_UP), op.f64lt,
    op.if,
    op.get(ax), op.f64(TINY), op.f64lt, op.if, op.f64(1), op.get(x), op.f64add, op.return, op.end,
    poly(),
    // 1 − ((x·c)/(c − 2) − x)
    op.f64(1), op.get(x), op.get(c), op.f64mul, op.get(c), op.f64(2), op.f64sub, op.f64div, op.get(x), op.f64sub, op.f64sub, op.return,
    op.end,
    op.get(ax), op.f64(ONE_HALF_LN2), op.f64lt,
    op.if,
    op.get(x), op.f64(1), op.f64eq, op.if, op.f64(Math.E), op.return, op.end,
    op.get(x), op.f64(0), op.f64lt,
    op.if,
    op.get(x), op.f64(LN2_HI), op.f64add, op.set(hi), op.f64(-LN2_LO), op.set(lo), op.i32(-1), op.set(k),
    op.else,
    op.get(x), op.f64(LN2_HI), op.f64sub, op.set(hi), op.f64(LN2_LO), op.set(lo), op.i32(1), op.set(k),
    op.end,
    op.else,
    // k = (int)(x/ln 2 ± 0.5), truncated; hi = x − k·ln2_hi (exact); lo = k·ln2_lo
    op.f64(INV_LN2), op.get(x), op.f64mul, op.f64(-0.5), op.f64(0.5), op.get(x), op.f64(0), op.f64lt, op.select, op.f64add,
    op.i32truncF64S, op.tee(k), op.f64convertI32S, op.set(t),
    op.get(x), op.get(t), op.f64(LN2_HI), op.f64mul, op.f64sub, op.set(hi),
    op.get(t), op.f64(LN2_LO), op.f64mul, op.set(lo),
    op.end,
    op.get(hi), op.get(lo), op.f64sub, op.set(x),
    poly(),
    // y = 1 − ((lo − (x·c)/(2 − c)) − hi); y·2^k (k ≥ −1021 here: 2^k is a normal double)
    op.f64(1), op.get(lo), op.get(x), op.get(c), op.f64mul, op.f64(2), op.get(c), op.f64sub, op.f64div, op.f64sub, op.get(hi), op.f64sub, op.f64sub,
    op.get(k), op.i32(1023), op.i32add, op.i64extendI32S, op.i64(52), op.i64shl, op.f64reinterpretI64,
    op.f64mul,
  ],
});
