import { describe, expect, it } from 'vitest';
import { makeTokenKernel } from '../src/exec/cpu/token-kernel';
import { Rng } from '../src/core/rng';

// Exact mode's token loop (src/exec/cpu/token-kernel.ts) runs as WebAssembly where it compiles and
// as JavaScript elsewhere: both must give the same bits (the results of a run must not depend on
// which one ran), on ordinary numbers and on the ones a diverging run meets (NaN, ±∞, ±0, ratios
// far outside the clip range, advantages of either sign, a subnormal).

const params = 40;
const nodes = 12;
const tokens = 300;
const F = 16;
const AT = F + 8 * (3 * params + nodes);
const TOK = AT + 8 * tokens;

function fill(buffer: ArrayBuffer, seed: number): number {
  const rng = new Rng(seed);
  const f = new Float64Array(buffer, F, 3 * params + nodes);
  const at = new Int32Array(buffer, AT, 2 * tokens);
  const tok = new Float64Array(buffer, TOK, 3 * tokens);
  const odd = [NaN, Infinity, -Infinity, 0, -0, 1e-310, 1, 1.2, 0.8];
  const pick = (p: number) => (rng.uniform() < p ? odd[rng.int(odd.length)] : Math.exp(4 * rng.normal()));
  for (let g = 0; g < params; g++) f[3 * g] = pick(0.1);
  for (let k = 0; k < tokens; k++) {
    at[2 * k] = F + 8 * 3 * rng.int(params);
    at[2 * k + 1] = F + 8 * (3 * params + rng.int(nodes));
    const w = rng.uniform() < 0.05 ? odd[rng.int(odd.length)] : rng.uniform();
    const A = rng.uniform() < 0.05 ? odd[rng.int(odd.length)] : rng.normal();
    tok[3 * k] = w;
    tok[3 * k + 1] = A;
    tok[3 * k + 2] = w * A;
  }
  return tokens - rng.int(5);
}

describe('exact-mode token kernel', () => {
  it('WebAssembly and JavaScript give the same clip sums, gradients and gsums, bit for bit', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const eps of [0.2, 0.05, 1.5]) {
        const wasm = makeTokenKernel(TOK + 24 * tokens);
        expect(wasm.kind).toBe('wasm');
        const js = makeTokenKernel(TOK + 24 * tokens, false);
        const live = fill(wasm.buffer, seed);
        expect(fill(js.buffer, seed)).toBe(live);
        wasm.run(live, AT, TOK, eps, 1 - eps, 1 + eps, 0.25, 0.5);
        js.run(live, AT, TOK, eps, 1 - eps, 1 + eps, 0.25, 0.5);
        // the same numbers, +0 and −0 told apart; a NaN's sign and payload may differ (x86's default
        // NaN in WebAssembly, a canonical one in JavaScript) and never reach a run's results: any
        // non-finite number marks the run diverged and its series take the NaN literal (series.ts)
        const doubles = (b: ArrayBuffer) => [...Array.from(new Float64Array(b, 0, AT / 8)), ...Array.from(new Float64Array(b, TOK, 3 * tokens))];
        expect(doubles(wasm.buffer)).toEqual(doubles(js.buffer));
        expect(new Int32Array(wasm.buffer, AT, 2 * tokens)).toEqual(new Int32Array(js.buffer, AT, 2 * tokens));
        // the loop did something: some gradient moved, and the sums are not what they started at
        const f = new Float64Array(js.buffer, F, 3 * params + nodes);
        expect(Array.from({ length: params }, (_, g) => f[3 * g + 1]).some((x) => x !== 0)).toBe(true);
        expect(js.out[1]).not.toBe(0.5);
      }
    }
  });

  it('the WebAssembly module compiles here (else every exact PPU step would take the slower JavaScript loop)', () => {
    expect(makeTokenKernel(1024).kind).toBe('wasm');
    expect(makeTokenKernel(1024, false).kind).toBe('js');
  });
});
