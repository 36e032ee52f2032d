import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonPieces, writeJson } from '../../src/cli/write-json';
import type { ExperimentResult } from '../../src/core/run/result';
import { runCpu, runTensor, useBackend } from '../support/tensor';
import { cli, useCliScratch } from '../helpers/cli';

// The result JSON is written as a stream, never as one string (a large
// result's text is longer than V8's longest string: "Invalid string length" after the work was
// done), and the bytes are exactly JSON.stringify's wherever JSON.stringify works.

/** V8's longest string on 64-bit platforms: (1 << 29) − 24 UTF-16 units. */
const V8_MAX_STRING = (1 << 29) - 24;

/** A sink that keeps the text (or only counts it), acknowledging each write later (so writers meet backpressure). */
function sink(opts: { keep?: boolean; highWaterMark?: number } = {}) {
  const parts: string[] = [];
  const stats = { chars: 0, writes: 0, maxWrite: 0, drains: 0 };
  const s = new Writable({
    decodeStrings: false,
    highWaterMark: opts.highWaterMark ?? 16 * 1024,
    write(chunk: string | Buffer, _enc, cb) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      stats.chars += text.length;
      stats.writes++;
      stats.maxWrite = Math.max(stats.maxWrite, text.length);
      if (opts.keep !== false) parts.push(text);
      setImmediate(cb);
    },
  });
  s.on('drain', () => stats.drains++);
  return { stream: s, text: () => parts.join(''), stats };
}

async function streamed(value: unknown, chunkChars?: number): Promise<string> {
  const out = sink();
  await writeJson(value, out.stream, { chunkChars });
  return out.text();
}

/** JSON-ish values with everything JSON.stringify treats specially. */
const awkward: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.double(), // NaN, ±Infinity, −0 included: written as null / 0
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined), // skipped in objects, null in lists
    fc.string({ unit: 'binary', maxLength: 30 }), // lone surrogates, controls
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.constantFrom(() => 1, Symbol('s')), // skipped / null
    fc.date({ noInvalidDate: true }), // toJSON
    fc.double().map((d) => new Number(d)), // boxed primitives are unwrapped
    fc.string().map((s) => new String(s)),
    fc.boolean().map((b) => new Boolean(b)),
    fc.jsonValue().map((v) => ({ toJSON: (k: string) => ({ k, v }) })), // toJSON gets the key
  ),
  list: fc.oneof(
    fc.array(tie('value'), { maxLength: 6 }),
    fc.sparseArray(tie('leaf'), { maxLength: 6 }), // holes are null
    fc.array(fc.oneof(fc.double(), fc.constant(null)), { minLength: 4000, maxLength: 9000 }), // longer than one slice
  ),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('0', '10', '2', '__proto__', 'toJSON_', '')), tie('value'), { maxKeys: 6 }),
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('list'), tie('object')),
})).value;

/** Long strings cut in slices: a surrogate pair straddling a slice boundary must stay whole. */
const longString = fc
  .tuple(fc.integer({ min: 65_530, max: 65_540 }), fc.constantFrom('😀', '\ud800', '\udfff', '\u001b', '"', '\\', 'é', '\u2028'))
  .map(([n, c]) => 'a'.repeat(n) + c + 'b'.repeat(5) + c);

describe('the streamed JSON is JSON.stringify, byte for byte', () => {
  it('property: jsonPieces(v).join("") === JSON.stringify(v) for awkward values (1,000 values)', () => {
    fc.assert(
      fc.property(awkward, (v) => {
        expect(Array.from(jsonPieces(v)).join('')).toBe(JSON.stringify(v) ?? '');
      }),
      { numRuns: 1000, seed: 0x16_01 },
    );
  });

  it('property: long strings and arrays cut into slices give the same text (40 values)', () => {
    fc.assert(
      fc.property(longString, fc.integer({ min: 0, max: 3 }), (s, wrap) => {
        const v = wrap === 0 ? s : wrap === 1 ? [s, 1, s] : wrap === 2 ? { [s]: s } : new String(s);
        expect(Array.from(jsonPieces(v)).join('')).toBe(JSON.stringify(v));
      }),
      { numRuns: 40, seed: 0x16_02 },
    );
  });

  it('property: writeJson through a slow stream with backpressure writes JSON.stringify(v) + "\\n" (200 values, chunk sizes 1–4096)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.integer({ min: 1, max: 4096 }), async (v, chunk) => {
        expect(await streamed(v, chunk)).toBe(JSON.stringify(v) + '\n');
      }),
      { numRuns: 200, seed: 0x16_03 },
    );
  });

  it('cycles and BigInts throw as JSON.stringify does', () => {
    const a: unknown[] = [1];
    a.push(a);
    expect(() => JSON.stringify(a)).toThrow(TypeError);
    expect(() => Array.from(jsonPieces(a))).toThrow(TypeError);
    expect(() => Array.from(jsonPieces({ x: 1n }))).toThrow(TypeError);
    // a shared (not circular) object is fine
    const shared = { k: [1, 2] };
    expect(Array.from(jsonPieces([shared, shared])).join('')).toBe(JSON.stringify([shared, shared]));
  });

  it('a stream that fails rejects (and nothing hangs)', async () => {
    const bad = new Writable({
      write(_c, _e, cb) {
        cb(new Error('disk full'));
      },
    });
    bad.on('error', () => {}); // the writer reports it
    await expect(writeJson({ a: Array.from({ length: 50_000 }, (_, i) => i) }, bad, { chunkChars: 1000 })).rejects.toThrow('disk full');
  });
});

describe('real results stream to exactly JSON.stringify(result)', () => {
  beforeAll(() => useBackend('wasm'));

  const configs: [string, unknown, 'cpu' | 'tensor'][] = [
    ['exact, lock, three algorithms', { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 20, seeds: 2, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }, { id: 'reinforce' }] }, 'cpu'],
    ['sampled, two prompts (Jcontext), noise', { version: 1, env: { preset: 'two-prompts', noise: { kind: 'gaussian', sigma: 0.5 } }, iterations: 30, seeds: 3, algorithms: [{ id: 'grpo' }, { id: 'ppo-gae' }] }, 'cpu'],
    ['diverging lr (nulls in the curves)', { version: 1, env: { preset: 'needle' }, iterations: 15, seeds: 2, optimizer: { kind: 'sgd', lr: 1000 }, algorithms: [{ id: 'reinforce' }, { id: 'seeupo', clip: 10 }] }, 'cpu'],
    ['with warnings and changes', { version: 1, env: { preset: 'tokens' }, iterations: 12, seeds: 2, algorithms: [{ id: 'reinforce', epochs: 3 }, { id: 'gspo' }], changes: [{ at: 5, path: 'optimizer.lr', value: 0.05 }] }, 'cpu'],
    ['MLP on the tensor executor', { version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp', hidden: [8] }, mode: 'exact', iterations: 4, seeds: 1, algorithms: [{ id: 'grpo' }] }, 'tensor'],
  ];

  for (const [name, config, executor] of configs)
    it(name, async () => {
      const result: ExperimentResult = executor === 'cpu' ? await runCpu(config) : await runTensor(config);
      const expected = JSON.stringify(result) + '\n';
      for (const chunk of [1, 777, undefined]) expect(await streamed(result, chunk)).toBe(expected);
    });
});

describe('regression: results past V8\'s longest string', () => {
  it('16 algorithms × 1,024 seeds × 243 iterations (sampled): the result streams whole, in bounded writes', async () => {
    // the shape of the run that ended in "error: Invalid string length" after 34 s of work; the
    // runs share their arrays (cheap to hold), the text is still written out in full
    const iterations = 243;
    const curve = (n: number, at: number) => Array.from({ length: n }, (_, i) => 0.1234567890123 + (i + at) * 1e-9);
    const J = curve(iterations + 1, 0);
    const perUpdate = curve(iterations, 1);
    const runs = Array.from({ length: 1024 }, (_, seed) => ({
      seed,
      J,
      entropy: J,
      optimalTokenProb: [J, J, J],
      kl: perUpdate,
      clipFraction: perUpdate,
      zeroVarianceGroups: perUpdate,
      gradNorm: perUpdate,
      wallMs: perUpdate,
      violations: [],
      diverged: null,
    }));
    const result = { version: 1, mode: 'sampled', iterations, algorithms: Array.from({ length: 16 }, (_, a) => ({ id: `algo${a}`, runs, summary: { atOptimum: 0 } })) };
    const out = sink({ keep: false });
    await writeJson(result, out.stream);
    expect(out.stats.chars).toBeGreaterThan(V8_MAX_STRING); // JSON.stringify(result) would throw "Invalid string length"
    expect(out.stats.maxWrite).toBeLessThan(2 << 20); // never one giant string: writes of about a MiB
    expect(out.stats.writes).toBeGreaterThan(500);
  }, 180_000);
});

describe('the CLI writes the streamed result', () => {
  const tmp = useCliScratch();

  const CONFIG = { version: 1, env: { preset: 'two-prompts' }, iterations: 40, seeds: 3, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] };

  it('stdout and --out carry the canonical JSON text (JSON.stringify of what they parse to), one line', () => {
    const f = tmp.file('stream.json', CONFIG);
    const r = cli('run', f);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(JSON.stringify(JSON.parse(r.stdout)) + '\n');
    const outFile = `${tmp.dir}/out.json`;
    const w = cli('run', f, '--out', outFile);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toBe('');
    const text = readFileSync(outFile, 'utf8');
    expect(text).toBe(JSON.stringify(JSON.parse(text)) + '\n');
    const c = cli('claims', f);
    expect(c.code).toBe(0);
    expect(c.stdout).toBe(JSON.stringify(JSON.parse(c.stdout)) + '\n');
    expect(Object.keys(JSON.parse(c.stdout))).toEqual(['claimsRules', 'claims']);
  });

  it('--out into a missing folder is still refused before the run (exit 2)', () => {
    const r = cli('run', tmp.file('stream2.json', CONFIG), '--out', `${tmp.dir}/missing/r.json`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --out: cannot write in the folder .*missing.*: the folder does not exist\n$/);
  });
});
