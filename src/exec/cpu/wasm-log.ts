import { F64, I32, op, type Code, type Func } from './wasm-asm';

// log(x) in WebAssembly, operation for operation the function V8's Math.log calls
// (src/base/ieee754.cc, `log`: fdlibm's e_log.c), so the same bits (see wasm-exp.ts). fdlibm
// reads x's high and low words; here they come from its bits (i64.reinterpret_f64). Off the main
// path (x ≤ 0, subnormal, ∞, NaN: high word < 0x00100000 or ≥ 0x7ff00000) this calls the imported
// Math.log itself (function 1). The test (test/exact-kernel.test.ts) compares it with Math.log.

const LN2_HI = 6.93147180369123816490e-1;
const LN2_LO = 1.90821492927058770002e-10;
const Lg = [6.666666666666735130e-1, 3.999999999940941908e-1, 2.857142874366239149e-1, 2.222219843214978396e-1, 1.818357216161805012e-1, 1.531383769920937332e-1, 1.479819860511658591e-1];

const x = 0;
const hx = 1;
const lx = 2;
const k = 3;
const i = 4;
const f = 5;
const s = 6;
const dk = 7;
const z = 8;
const w = 9;
const R = 10;
const hfsq = 11;

/** if k == 0 return a, else return b (a and b leave one f64 each). */
const kZero = (a: Code, b: Code): Code => [op.get(k), op.i32eqz, op.ifF64, a, op.else, b, op.end, op.return];

/** The function (made when a module is: nothing is kept from it). */
export const logFunc = (): Func => ({
  params: [F64],
  results: [F64],
  locals: [I32, I32, I32, I32, F64, F64, F64, F64, F64, F64, F64],
  export: 'log',
  body: [
    op.get(x), op.i64reinterpretF64, op.i64(32), op.i64shrU, op.i32wrapI64, op.set(hx),
    op.get(x), op.i64reinterpretF64, op.i32wrapI64, op.set(lx),
    op.get(hx), op.i32(0x00100000), op.i32ltS, op.get(hx), op.i32(0x7ff00000), op.i32geS, op.i32or,
    op.if, op.get(x), op.call(1), op.return, op.end,
    // k = exponent; x normalized into [√2/2, √2) with k adjusted
    op.get(hx), op.i32(20), op.i32shrS, op.i32(1023), op.i32sub, op.set(k),
    op.get(hx), op.i32(0x000fffff), op.i32and, op.set(hx),
    op.get(hx), op.i32(0x95f64), op.i32add, op.i32(0x100000), op.i32and, op.set(i),
    op.get(hx), op.get(i), op.i32(0x3ff00000), op.i32xor, op.i32or, op.i64extendI32U, op.i64(32), op.i64shl,
    op.get(lx), op.i64extendI32U, op.i64or, op.f64reinterpretI64, op.set(x),
    op.get(k), op.get(i), op.i32(20), op.i32shrS, op.i32add, op.set(k),
    op.get(x), op.f64(1), op.f64sub, op.set(f),
    op.get(k), op.f64convertI32S, op.set(dk),
    // −2^−20 ≤ f < 2^−20
    op.i32(0x000fffff), op.i32(2), op.get(hx), op.i32add, op.i32and, op.i32(3), op.i32ltS,
    op.if,
    op.get(f), op.f64(0), op.f64eq,
    op.if,
    kZero([op.f64(0)], [op.get(dk), op.f64(LN2_HI), op.f64mul, op.get(dk), op.f64(LN2_LO), op.f64mul, op.f64add]),
    op.end,
    op.get(f), op.get(f), op.f64mul, op.f64(0.5), op.f64(0.33333333333333333), op.get(f), op.f64mul, op.f64sub, op.f64mul, op.set(R),
    kZero(
      [op.get(f), op.get(R), op.f64sub],
      [op.get(dk), op.f64(LN2_HI), op.f64mul, op.get(R), op.get(dk), op.f64(LN2_LO), op.f64mul, op.f64sub, op.get(f), op.f64sub, op.f64sub],
    ),
    op.end,
    op.get(f), op.f64(2), op.get(f), op.f64add, op.f64div, op.set(s),
    op.get(s), op.get(s), op.f64mul, op.tee(z), op.get(z), op.f64mul, op.set(w),
    // R = t2 + t1, t2 = z·(Lg1 + w·(Lg3 + w·(Lg5 + w·Lg7))), t1 = w·(Lg2 + w·(Lg4 + w·Lg6))
    op.get(z), op.f64(Lg[0]), op.get(w), op.f64(Lg[2]), op.get(w), op.f64(Lg[4]), op.get(w), op.f64(Lg[6]), op.f64mul, op.f64add, op.f64mul, op.f64add, op.f64mul, op.f64add, op.f64mul,
    op.get(w), op.f64(Lg[1]), op.get(w), op.f64(Lg[3]), op.get(w), op.f64(Lg[5]), op.f64mul, op.f64add, op.f64mul, op.f64add, op.f64mul,
    op.f64add, op.set(R),
    // i = (hx − 0x6147a) | (0x6b851 − hx)
    op.get(hx), op.i32(0x6147a), op.i32sub, op.i32(0x6b851), op.get(hx), op.i32sub, op.i32or, op.i32(0), op.i32gtS,
    op.if,
    op.f64(0.5), op.get(f), op.f64mul, op.get(f), op.f64mul, op.set(hfsq),
    kZero(
      [op.get(f), op.get(hfsq), op.get(s), op.get(hfsq), op.get(R), op.f64add, op.f64mul, op.f64sub, op.f64sub],
      [op.get(dk), op.f64(LN2_HI), op.f64mul, op.get(hfsq), op.get(s), op.get(hfsq), op.get(R), op.f64add, op.f64mul, op.get(dk), op.f64(LN2_LO), op.f64mul, op.f64add, op.f64sub, op.get(f), op.f64sub, op.f64sub],
    ),
    op.end,
    op.get(k), op.i32eqz,
    op.ifF64,
    op.get(f), op.get(s), op.get(f), op.get(R), op.f64sub, op.f64mul, op.f64sub,
    op.else,
    op.get(dk), op.f64(LN2_HI), op.f64mul, op.get(s), op.get(f), op.get(R), op.f64sub, op.f64mul, op.get(dk), op.f64(LN2_LO), op.f64mul, op.f64sub, op.get(f), op.f64sub, op.f64sub,
    op.end,
  ],
});
