import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonPieces, WHOLE, writeJson } from '../src/cli/write-json';

// The CLI's result writer must give exactly JSON.stringify's bytes for the shapes a result has
// (objects of runs whose curves are long lists of numbers and nulls), with JSON.stringify's
// number conventions: −0 is written 0, NaN and ±∞ are null, and large and tiny magnitudes use
// the shortest round-trip text (1e+21, 1e-7, 5e-324).

function sink() {
  const parts: string[] = [];
  const stream = new Writable({
    decodeStrings: false,
    highWaterMark: 4096,
    write(chunk: string | Buffer, _enc, cb) {
      parts.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      setImmediate(cb);
    },
  });
  return { stream, text: () => parts.join('') };
}

async function written(value: unknown, chunkChars?: number, whole?: number): Promise<string> {
  const out = sink();
  await writeJson(value, out.stream, { chunkChars, whole });
  return out.text();
}

/** Numbers with every convention JSON.stringify applies, and ordinary ones. */
const SPECIAL = [-0, 0, NaN, Infinity, -Infinity, 5e-324, -5e-324, 1e21, 1e-7, 1e-6, 1e20, 999999999999999900000, 1.7976931348623157e308, 2 ** 53, -(2 ** 53) - 2, 0.1, 1 / 3];
const num = fc.oneof(fc.double(), fc.constantFrom(...SPECIAL), fc.integer(), fc.constant(null));
const curve = (min: number, max: number) => fc.array(num, { minLength: min, maxLength: max });

const run = fc.record({
  seed: fc.nat(1000),
  J: curve(1, 300),
  entropy: curve(0, 50),
  optimalTokenProb: fc.array(curve(0, 40), { maxLength: 3 }),
  kl: curve(0, 50),
  violations: fc.array(fc.nat(200), { maxLength: 5 }),
  diverged: fc.option(fc.nat(200)),
});
const result = fc.record({
  version: fc.constant(1),
  Jstar: num,
  backend: fc.option(fc.string({ maxLength: 12 })),
  warnings: fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { maxLength: 3 }),
  algorithms: fc.array(fc.record({ id: fc.string({ maxLength: 10 }), runs: fc.array(run, { maxLength: 6 }), summary: fc.record({ mean: num, lo: num, hi: num }) }), { maxLength: 4 }),
  wallSeconds: num,
});

describe('the result writer is JSON.stringify, byte for byte', () => {
  it('JSON.stringify number conventions: −0 → 0, NaN/±∞ → null, exponent forms for large and tiny magnitudes', async () => {
    const text = await written([-0, NaN, Infinity, -Infinity, 1e21, 1e20, 1e-7, 1e-6, 5e-324, -1.5e300, 0.1]);
    expect(text).toBe('[0,null,null,null,1e+21,100000000000000000000,1e-7,0.000001,5e-324,-1.5e+300,0.1]\n');
  });

  it('property: result-shaped values (runs of curves with −0, NaN, ∞, extremes, nulls) write as JSON.stringify(v) + "\\n" (300 values, chunk sizes 1–65536)', async () => {
    await fc.assert(
      fc.asyncProperty(result, fc.integer({ min: 1, max: 1 << 16 }), fc.constantFrom(undefined, 0, 64, 4096), async (v, chunk, whole) => {
        // whole: subtrees up to that many characters in one JSON.stringify call (0: every value piece by piece)
        expect(await written(v, chunk, whole)).toBe(JSON.stringify(v) + '\n');
      }),
      { numRuns: 300, seed: 0x30_01 },
    );
  });

  it('property: curves longer than one serialization slice (up to 20,000 numbers) keep their order and separators', () => {
    fc.assert(
      fc.property(curve(4000, 20_000), fc.array(fc.constantFrom(...SPECIAL), { maxLength: 20 }), (a, tail) => {
        const v = { J: [...a, ...tail], nested: [a.slice(0, 5), tail] };
        expect(Array.from(jsonPieces(v)).join('')).toBe(JSON.stringify(v));
        expect(Array.from(jsonPieces(v, 0)).join('')).toBe(JSON.stringify(v));
      }),
      { numRuns: 30, seed: 0x30_02 },
    );
  });

  it('a subtree goes whole only where its text is known short and ordinary: toJSON (with its key), boxed values, prototypes, cycles, long strings go piece by piece', () => {
    const keyed = { toJSON: (k: string) => `key ${k}` };
    class Point {
      constructor(readonly x: number) {}
    }
    const shared = [1, 2];
    const values: unknown[] = [
      { run: { at: keyed, J: [1, 2] } }, // toJSON deep inside: called with its own key, not ''
      [{ d: new Date(0) }, [new Number(3), new String('s'), new Boolean(false)]],
      { p: new Point(2), n: Object.assign(Object.create(null), { a: [1, undefined, () => 1, Symbol('x')] }) },
      { long: 'é'.repeat(70_000), shared: [shared, shared] },
      [[[[[[[[[[1]]]]]]]]]],
    ];
    for (const v of values) expect(Array.from(jsonPieces(v)).join('')).toBe(JSON.stringify(v));
    const cyclic: Record<string, unknown> = { a: [1] };
    cyclic.self = { back: cyclic, again: cyclic };
    expect(() => Array.from(jsonPieces(cyclic))).toThrow(TypeError);
    // pieces are bounded: a curve longer than WHOLE characters is cut
    const big = { J: Array.from({ length: 100_000 }, (_, i) => i / 7) };
    const parts = Array.from(jsonPieces(big));
    expect(parts.join('')).toBe(JSON.stringify(big));
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(WHOLE);
  });
});

describe('subtrees guessed short', () => {
  it('a wrong guess (a list that starts and ends with numbers but holds a long text) still writes JSON.stringify, in pieces of at most WHOLE characters', () => {
    const v = { runs: [{ J: [1, 'x'.repeat(3 * WHOLE), { deep: 'é'.repeat(WHOLE) }, 2] }] };
    const parts = Array.from(jsonPieces(v));
    expect(parts.join('')).toBe(JSON.stringify(v));
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(WHOLE);
  });

  it('a piece never ends between the two halves of a surrogate pair (each chunk is encoded to UTF-8 on its own)', () => {
    for (let pad = 0; pad < 4; pad++) {
      // guessed 80 characters (a list of three numbers), written 130-odd: sliced at 100
      const v = { a: [0, '.'.repeat(pad) + '😀'.repeat(60), 1] };
      const parts = Array.from(jsonPieces(v, 100));
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.join('')).toBe(JSON.stringify(v));
      for (const p of parts) expect(Buffer.from(p, 'utf8').toString('utf8')).toBe(p); // a lone half would become U+FFFD
    }
  });

  it('a subtree too long for one string goes piece by piece (RangeError: Invalid string length from JSON.stringify)', () => {
    let calls = 0;
    const flaky = {
      toJSON() {
        calls++;
        if (calls === 1) throw new RangeError('Invalid string length');
        return [1, 2];
      },
    };
    const v = { run: { J: [flaky] } };
    expect(Array.from(jsonPieces(v)).join('')).toBe('{"run":{"J":[[1,2]]}}');
    expect(calls).toBe(2);
    // any other error is JSON.stringify's own
    const bad = { run: { toJSON: () => { throw new RangeError('out of range'); } } };
    expect(() => Array.from(jsonPieces({ a: bad }))).toThrow('out of range');
  });
});
