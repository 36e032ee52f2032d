import { beforeAll, describe, it } from 'vitest';
import fc from 'fast-check';
import { ALGORITHM_IDS } from '../../src/core/algo/records';
import { ConfigError } from '../../src/core/config/fields';
import { resolveConfig } from '../../src/core/config/resolve';
import { expectAllMarked } from '../support/diverged';
import { runCpu, runTensor, useBackend } from '../support/tensor';

// Every blow-up is marked, fuzzed: experiments with extreme values (rewards up to
// ±1e300, learning rates up to 1000, criticLr up to 100, clip up to 10, initScale up to 10,
// tabular and MLP policies, exact and sampled) go to both executors. For every run of every result
// either diverged is null and every reported number is finite, or diverged = k and every J and
// evaluation metric from k on, and every update metric from k − 1 on, is null, and everything
// before is finite. About a quarter of the runs diverge, most at the first update, some later. Fixed
// seeds keep CI deterministic; a failure prints the seed, path and config.

type Config = Record<string, unknown>;

/** A reward table's scale: ordinary, or past float32 (1e39), past a float64 square (1e154), up to ±1e300. */
const scale = fc.oneof(
  { weight: 4, arbitrary: fc.constant(1) },
  { weight: 3, arbitrary: fc.constantFrom(1e300, 1e200, 1e160, 1e154, 1e40, 1e30, 1e19, 1e3) },
  { weight: 1, arbitrary: fc.double({ min: 1, max: 1e300, noNaN: true }) },
);
const unit = fc.double({ min: -1, max: 1, noNaN: true });
const lr = fc.oneof(fc.constantFrom(1000, 100, 10, 0.3, 0.1), fc.double({ min: 1e-3, max: 1000, noNaN: true }), fc.double({ min: 1e-3, max: 3, noNaN: true }));

/** A small custom environment: C ≤ 2 contexts, V^(T·L) ≤ 27 sequences, per-turn rewards sometimes. */
const env = fc
  .record({
    turns: fc.integer({ min: 1, max: 3 }),
    vocab: fc.integer({ min: 2, max: 3 }),
    contexts: fc.integer({ min: 1, max: 2 }),
    turnRewards: fc.boolean(),
    noise: fc.oneof(fc.constant({ kind: 'none' }), fc.record({ kind: fc.constant('gaussian'), sigma: fc.constantFrom(0.1, 100) })),
  })
  .chain(({ turns, vocab, contexts, turnRewards, noise }) => {
    const table = (n: number) => fc.tuple(scale, fc.array(unit, { minLength: n, maxLength: n })).map(([k, t]) => t.map((v) => k * v));
    return fc.record({
      turns: fc.constant(turns),
      vocab: fc.constant(vocab),
      tokensPerTurn: fc.constant(1),
      contexts: fc.constant(contexts),
      noise: fc.constant(noise),
      rewards: fc.array(table(vocab ** turns), { minLength: contexts, maxLength: contexts }),
      ...(turnRewards && turns > 1
        ? { turnRewards: fc.array(fc.tuple(...Array.from({ length: turns - 1 }, (_, t) => table(vocab ** (t + 1)))), { minLength: contexts, maxLength: contexts }) }
        : {}),
    });
  });

const algorithm = (i: number) =>
  fc.record(
    {
      id: fc.constant(`a${i}`),
      preset: fc.constantFrom(...ALGORITHM_IDS),
      lr,
      criticLr: fc.oneof(fc.constant(100), fc.double({ min: 1e-3, max: 100, noNaN: true })),
      clip: fc.oneof(fc.constant(10), fc.double({ min: 0.01, max: 10, noNaN: true })),
      epochs: fc.integer({ min: 1, max: 2 }),
      mClip: fc.constantFrom(null, 0.2),
    },
    { requiredKeys: ['id', 'preset'] },
  );

const config = (policy: fc.Arbitrary<Config>, executor: 'cpu' | 'tensor'): fc.Arbitrary<Config> =>
  fc.record({
    version: fc.constant(1),
    env,
    policy,
    mode: fc.constantFrom('exact', 'sampled'),
    optimizer: fc.record({ kind: fc.constantFrom('sgd', 'adam'), lr }),
    algorithms: fc.integer({ min: 1, max: 2 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => algorithm(i)))),
    seeds: fc.integer({ min: 1, max: 2 }),
    iterations: fc.integer({ min: 2, max: 10 }),
    groupSize: fc.integer({ min: 2, max: 4 }),
    executor: fc.constant(executor),
  });

const initScale = fc.oneof(fc.constantFrom(0, 10), fc.double({ min: 0, max: 10, noNaN: true }));
const tabular = fc.record({ kind: fc.constant('tabular'), initScale });
const mlp = fc.record({ kind: fc.constant('mlp'), hidden: fc.constantFrom([4], [3, 3], []), activation: fc.constantFrom('tanh', 'relu'), initScale });

/** The config resolves (a refused combination, e.g. GAE with a sequential rule, is skipped). */
function valid(c: Config): boolean {
  try {
    resolveConfig(c);
    return true;
  } catch (e) {
    if (e instanceof ConfigError) return false;
    throw e;
  }
}

const check = (arb: fc.Arbitrary<Config>, run: (c: Config) => Promise<Parameters<typeof expectAllMarked>[0]>, numRuns: number, seed: number) =>
  fc.assert(
    fc.asyncProperty(arb, async (c) => {
      fc.pre(valid(c));
      expectAllMarked(await run(c), JSON.stringify(c).slice(0, 2000));
    }),
    { numRuns, seed },
  );

describe('every blow-up is marked, on generated extreme experiments', () => {
  beforeAll(() => useBackend('wasm'));

  it('CPU executor, tabular policies', () => check(config(tabular, 'cpu'), runCpu, 500, 16), 120_000);

  it('tensor executor, tabular policies', () => check(config(tabular, 'tensor'), runTensor, 100, 17), 120_000);

  it('tensor executor, MLP policies', () => check(config(mlp, 'tensor'), runTensor, 100, 18), 120_000);
});
