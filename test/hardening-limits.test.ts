import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ConfigError } from '../src/core/config/fields';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { mlpInputSize, resolveConfig, tensorMemory, tensorShape, tensorWork, type Experiment } from '../src/core/config/resolve';
import { LIMITS } from '../src/core/config/schema';
import { chooseExecutor } from '../src/core/run/choose';
import { ENV_PRESETS, ENV_PRESET_NAMES } from '../src/core/env/presets';
import { buildTree } from '../src/core/env/tree';
import { ALGORITHM_IDS } from '../src/core/algo/records';
import { inputSize } from '../src/exec/tensor/features';
import { MAX_TABLE_ENTRIES } from '../src/exec/tensor/shard';

// The size of the network and the Monte-Carlo buffers are part of the up-front
// estimate (resolve.ts tensorShape / tensorMemory / tensorWork, LIMITS.maxTensorBytes and
// maxNetworkWork): an experiment that would run out of memory or run for hours on the tensor
// executor is refused before it starts, with the field to change and the limit.

type Config = Record<string, unknown>;
const MiB = 2 ** 20;

/** The ConfigError resolveConfig throws, or null when the config resolves (any other throw fails the test). */
function refusal(config: unknown): ConfigError | null {
  try {
    resolveConfig(config);
    return null;
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
}

const isSizeRefusal = (e: ConfigError) => /tensor memory|multiply-adds|table entries/.test(e.message);

/**
 * Calibration (the numbers TENSOR_BYTES and tensorWork were fitted to): Node 20, the wasm backend,
 * one thread, 2 shared cores; each config run for 2–5 iterations by a script that resolves the
 * config, selects the backend and calls runOnTensor (as the CLI does), then reads the wasm heap's
 * size (tf.backend().wasm.HEAPU8.buffer.byteLength: it only grows, so it is the peak; 16 MiB at
 * the least) and the mean time per iteration after the first:
 *   node calib.mjs CONFIG   (calib.ts bundled with esbuild; the command is in the commit message)
 * [label, wasm heap MiB, seconds per iteration, config without version and iterations]
 */
const MEASURED: [string, number, number, Config][] = [
  ["p256x4-s4-sgd-reinf", 16, 0.0906, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[256,256,256,256]},"mode":"exact","seeds":4,"algorithms":[{"id":"reinforce"}]}],
  ["p256x4-s16-sgd-reinf", 69.2, 0.312, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[256,256,256,256]},"mode":"exact","seeds":16,"algorithms":[{"id":"reinforce"}]}],
  ["p256x4-s16-adam-reinf", 248.2, 0.276, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[256,256,256,256]},"mode":"exact","seeds":16,"optimizer":{"kind":"adam","lr":0.01},"algorithms":[{"id":"reinforce"}]}],
  ["p256x4-s16-adam-seeupo", 248.2, 5.42, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[256,256,256,256]},"mode":"exact","seeds":16,"optimizer":{"kind":"adam","lr":0.01},"algorithms":[{"id":"seeupo"}]}],
  ["p512x4-s16-adam-seeupo", 956.7, 24.3, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[512,512,512,512]},"mode":"exact","seeds":16,"optimizer":{"kind":"adam","lr":0.01},"algorithms":[{"id":"seeupo"}]}],
  ["needle-h64x2-s4-reinf", 105.6, 1.27, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp","hidden":[64,64]},"mode":"exact","seeds":4,"algorithms":[{"id":"reinforce"}]}],
  ["needle-h256-s4-reinf", 153.3, 1.21, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp","hidden":[256]},"mode":"exact","seeds":4,"algorithms":[{"id":"reinforce"}]}],
  ["needle-h256x2-s4-reinf", 321.6, 7.11, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp","hidden":[256,256]},"mode":"exact","seeds":4,"algorithms":[{"id":"reinforce"}]}],
  ["needle-h256x2-s8-reinf", 631, 14.16, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp","hidden":[256,256]},"mode":"exact","seeds":8,"algorithms":[{"id":"reinforce"}]}],
  ["mc-lock68-n4096-s1", 16, 0.276, {"env":{"preset":"lock","turns":6,"vocab":8},"policy":{"kind":"mlp","hidden":[32]},"mode":"sampled","seeds":1,"mcSamples":4096,"algorithms":[{"id":"reinforce"}]}],
  ["mc-lock68-n65536-s1", 202.1, 5.12, {"env":{"preset":"lock","turns":6,"vocab":8},"policy":{"kind":"mlp","hidden":[32]},"mode":"sampled","seeds":1,"mcSamples":65536,"algorithms":[{"id":"reinforce"}]}],
  ["mc-lock68-n65536-s4", 808.2, 21.1, {"env":{"preset":"lock","turns":6,"vocab":8},"policy":{"kind":"mlp","hidden":[32]},"mode":"sampled","seeds":4,"mcSamples":65536,"algorithms":[{"id":"reinforce"}]}],
  ["mc-lock68-n65536-s1-h128", 802.2, 22.3, {"env":{"preset":"lock","turns":6,"vocab":8},"policy":{"kind":"mlp","hidden":[128]},"mode":"sampled","seeds":1,"mcSamples":65536,"algorithms":[{"id":"reinforce"}]}],
  ["mc-lock68-n65536-s1-h32x2", 234.1, 4.97, {"env":{"preset":"lock","turns":6,"vocab":8},"policy":{"kind":"mlp","hidden":[32,32]},"mode":"sampled","seeds":1,"mcSamples":65536,"algorithms":[{"id":"reinforce"}]}],
  ["p256x4-s8x2shards-adam", 143.6, 0.981, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[256,256,256,256]},"mode":"exact","seeds":8,"optimizer":{"kind":"adam","lr":0.01},"algorithms":[{"id":"reinforce"},{"id":"grpo"}]}],
  ["p256x4-s32-sgd-reinf", 127.5, 0.423, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[256,256,256,256]},"mode":"exact","seeds":32,"algorithms":[{"id":"reinforce"}]}],
  ["needle-h4-s4-reinf", 71.4, 1.14, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp","hidden":[4]},"mode":"exact","seeds":4,"algorithms":[{"id":"reinforce"}]}],
  ["needle-h4-s8-reinf", 139.1, 2.13, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp","hidden":[4]},"mode":"exact","seeds":8,"algorithms":[{"id":"reinforce"}]}],
  ["needle-h32-s4-grpo-exact", 279.4, 2.25, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp"},"mode":"exact","seeds":4,"algorithms":[{"id":"grpo"}]}],
  ["default-mlp-s4-it5", 16, 0.129, {"env":{"preset":"lock"},"policy":{"kind":"mlp"},"seeds":4}],
  ["lock-h256x2-s4-it3", 40, 1.48, {"env":{"preset":"lock"},"policy":{"kind":"mlp","hidden":[256,256]},"seeds":4}],
  ["needle-tab-s4-grpo-exact", 212.9, 1.21, {"env":{"preset":"needle","turns":4,"vocab":16},"executor":"tensor","mode":"exact","seeds":4,"algorithms":[{"id":"grpo"}]}],
  ["needle-tab-s4-reinf-exact", 67, 1.32, {"env":{"preset":"needle","turns":4,"vocab":16},"executor":"tensor","mode":"exact","seeds":4,"algorithms":[{"id":"reinforce"}]}],
  ["needle-tab-s4-seeupo-exact", 743.1, 4.01, {"env":{"preset":"needle","turns":4,"vocab":16},"executor":"tensor","mode":"exact","seeds":4,"algorithms":[{"id":"seeupo"}]}],
  ["needle-h4-s4-seeupo-exact", 623.6, 4.19, {"env":{"preset":"needle","turns":4,"vocab":16},"policy":{"kind":"mlp","hidden":[4]},"mode":"exact","seeds":4,"algorithms":[{"id":"seeupo"}]}],
  // near the limit (estimate 1,895 MiB): one iteration ran in 135 s with a 1,849.5 MiB heap (2.1 GB RSS); its two evaluations dominate, half the time is one iteration's
  ["mc-lock68-n600000-s1-near-limit", 1849.5, 67.5, {"env":{"preset":"lock","turns":6,"vocab":8},"policy":{"kind":"mlp","hidden":[32]},"mode":"sampled","seeds":1,"mcSamples":600000,"algorithms":[{"id":"reinforce"}]}],
];

const withIterations = (c: Config, iterations: number) => ({ version: 1, ...c, iterations });

describe('calibration: the estimates against what ran', () => {
  for (const [label, heapMiB, seconds, config] of MEASURED)
    it(`${label}: memory within [0.7, 2]× the measured heap, work per iteration at 5e-11–1.5e-9 s per unit`, () => {
      const exp = resolveConfig(withIterations(config, 1));
      expect(chooseExecutor(exp).executor).toBe('tensor');
      const est = tensorMemory(exp).total / MiB;
      // the heap starts at 16 MiB; the estimate must not fall far below what was used, nor be wildly above
      expect(est, `estimate ${est.toFixed(0)} MiB vs measured ${heapMiB} MiB`).toBeGreaterThanOrEqual(0.7 * (heapMiB - 16));
      expect(est, `estimate ${est.toFixed(0)} MiB vs measured ${heapMiB} MiB`).toBeLessThanOrEqual(2 * heapMiB);
      const perIteration = tensorWork(resolveConfig(withIterations(config, 2))).total - tensorWork(exp).total;
      const secondsPerUnit = seconds / perIteration;
      // so LIMITS.maxNetworkWork (5e11) is between about 25 s and 12 minutes of this machine's time
      expect(secondsPerUnit, `${seconds} s for ${perIteration.toExponential(2)} units`).toBeGreaterThan(5e-11);
      expect(secondsPerUnit, `${seconds} s for ${perIteration.toExponential(2)} units`).toBeLessThan(1.5e-9);
    });

  it('the estimate mirrors the tensor executor: input width and table limit', () => {
    for (const env of [{ contexts: 1, turns: 3, vocab: 3, tokensPerTurn: 1 }, { contexts: 2, turns: 4, vocab: 16, tokensPerTurn: 1 }, { contexts: 5, turns: 2, vocab: 2, tokensPerTurn: 2 }])
      expect(mlpInputSize(env)).toBe(inputSize(buildTree(env), env.contexts));
    expect(LIMITS.maxTableEntries).toBe(MAX_TABLE_ENTRIES);
  });
});

describe('regressions: the two experiments that died after minutes are refused up front', () => {
  it('an MLP of hidden [1024, 1024, 1024, 1024] (73 s, then "memory access out of bounds" at 4.9 GB): policy.hidden, with the limit', () => {
    const e = refusal({ ...DEFAULT_CONFIG, policy: { kind: 'mlp', hidden: [1024, 1024, 1024, 1024] } })!;
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.path).toBe('policy.hidden');
    expect(e.message).toMatch(/^policy\.hidden: an MLP of hidden \[1024, 1024, 1024, 1024\] has 3,166,211 parameters per run; .* about \d+\.\d GiB of tensor memory; the limit is 2\.0 GiB/);
    expect(e.message).not.toContain('\n');
  });

  it('mcSamples 1,000,000 on a 1,048,576-sequence environment (aborted at 3.4 GB): mcSamples, with the limit and what fits', () => {
    const rewards = new Array<number>(16 ** 5).fill(0);
    rewards[12345] = 1;
    const config = { version: 1, env: { turns: 5, vocab: 16, tokensPerTurn: 1, rewards: [rewards] }, policy: { kind: 'mlp' }, mode: 'sampled', seeds: 1, algorithms: [{ id: 'grpo' }], mcSamples: 1_000_000 };
    const e = refusal(config)!;
    expect(e.path).toBe('mcSamples');
    expect(e.message).toMatch(/^mcSamples: mcSamples·tokens·runs = 1,000,000·5·1 Monte-Carlo samples .* need about \d+\.\d GiB of tensor memory; the limit is 2\.0 GiB .*: lower mcSamples \(at most [\d,]+ here\)/);
    const fits = Number(/at most ([\d,]+) here/.exec(e.message)![1]!.replace(/,/g, ''));
    // the number it names does fit (memory), and one step further does not
    const exp = (n: number) => ({ ...config, mcSamples: n, iterations: 1 });
    expect(refusal(exp(fits))?.message ?? '').not.toMatch(/tensor memory/);
    expect(refusal(exp(Math.ceil(fits * 1.01)))?.message).toMatch(/tensor memory/);
  });

  it('the default experiment, its MLP variant on every preset and every MLP config of the other tests are accepted', () => {
    const accepted: unknown[] = [DEFAULT_CONFIG, { ...DEFAULT_CONFIG, policy: { kind: 'mlp' } }, { ...DEFAULT_CONFIG, policy: { kind: 'mlp' }, optimizer: { kind: 'adam', lr: 0.01 } }];
    for (const preset of ENV_PRESET_NAMES) for (const mode of ['exact', 'sampled']) accepted.push({ ...DEFAULT_CONFIG, env: { preset }, mode, policy: { kind: 'mlp' } });
    for (const preset of ENV_PRESET_NAMES) accepted.push({ ...DEFAULT_CONFIG, env: { preset }, executor: 'tensor' });
    accepted.push(
      { version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp', hidden: [8] }, mode: 'exact', iterations: 3, seeds: 1, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] },
      { version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp', hidden: [16] }, mode: 'sampled', iterations: 8, seeds: 2, mcSamples: 4096, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'reinforce' }] },
      { version: 1, env: { preset: 'lock', vocab: 8, turns: 6 }, policy: { kind: 'mlp', hidden: [8] }, mode: 'sampled', iterations: 2, seeds: 1, mcSamples: 256, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] },
      { version: 1, env: { preset: 'two-prompts' }, policy: { kind: 'mlp', hidden: [8], activation: 'tanh' }, mode: 'sampled', iterations: 3, seeds: 1, mcSamples: 64, algorithms: [{ id: 'grpo' }] },
      { version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp' }, mode: 'exact', seeds: 2, iterations: 20 },
      { version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp' }, iterations: 20 },
    );
    for (const c of accepted) expect(refusal(c)?.message ?? null, JSON.stringify(c).slice(0, 200)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const width = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 1024 }), fc.constantFrom(1024, 512, 256));
const hidden = fc.array(width, { maxLength: LIMITS.hiddenLayers });
const smallEnv = fc.constantFrom(...ENV_PRESET_NAMES).chain((name) => {
  const a = ENV_PRESETS[name]!.allowed;
  return fc.record({ preset: fc.constant(name), turns: fc.integer(a.turns), vocab: fc.integer({ min: a.vocab.min, max: Math.min(a.vocab.max, 8) }) }).filter((e) => e.vocab ** e.turns <= 65_536);
});
/** Monte-Carlo environments (an MLP in sampled mode past 65,536 sequences). */
const mcEnv = fc.constantFrom({ preset: 'lock', turns: 6, vocab: 7 }, { preset: 'lock', turns: 6, vocab: 8 });
const tensorConfig = (env: fc.Arbitrary<Config>, mlpOnly = false) =>
  fc.record({
    version: fc.constant(1),
    env,
    policy: mlpOnly ? hidden.map((h) => ({ kind: 'mlp', hidden: h })) : fc.oneof(hidden.map((h) => ({ kind: 'mlp', hidden: h })), fc.constant({ kind: 'tabular' })),
    executor: fc.constant('tensor'),
    mode: mlpOnly ? fc.constant('sampled') : fc.constantFrom('exact', 'sampled'),
    iterations: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 100_000 })),
    seeds: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 1024 })),
    groupSize: fc.oneof(fc.integer({ min: 2, max: 16 }), fc.integer({ min: 2, max: 4096 })),
    optimizer: fc.record({ kind: fc.constantFrom('sgd', 'adam'), lr: fc.constant(0.1) }),
    algorithms: fc.shuffledSubarray(ALGORITHM_IDS.filter((id) => id !== 'ppo-gae'), { minLength: 1, maxLength: 4 }).map((ids) => ids.map((id) => ({ id }))),
    mcSamples: fc.oneof(fc.integer({ min: 16, max: 4096 }), fc.integer({ min: 16, max: 1_000_000 })),
  });

let counted = { accepted: 0, refusedBySize: 0, refusedOther: 0 };

/** Resolve; accepted experiments are within both limits, refusals for size name a field and the limit. */
function checkLimits(config: Config): Experiment | null {
  const e = refusal(config);
  if (e === null) {
    counted.accepted++;
    const exp = resolveConfig(config);
    if (chooseExecutor(exp).executor === 'tensor') {
      expect(tensorMemory(exp).total).toBeLessThanOrEqual(LIMITS.maxTensorBytes);
      expect(tensorWork(exp).total).toBeLessThanOrEqual(LIMITS.maxNetworkWork);
    }
    return exp;
  }
  expect(e.message).not.toContain('\n');
  if (isSizeRefusal(e)) {
    counted.refusedBySize++;
    expect(['policy.hidden', 'mcSamples', 'env', 'groupSize', 'seeds']).toContain(e.path);
    expect(e.message.startsWith(`${e.path}: `)).toBe(true);
    expect(e.message).toMatch(/the limit is [\d.,e+]+( GiB)?/);
  } else counted.refusedOther++;
  return null;
}

/** The same config one size up in one of the dimensions the estimate grows with. */
const grow = (c: Config, how: number, factor: number): Config => {
  const p = c.policy as { kind: string; hidden?: number[] };
  switch (how) {
    case 0:
      return p.kind === 'mlp' && p.hidden!.length ? { ...c, policy: { ...p, hidden: p.hidden!.map((w, i) => (i === 0 ? Math.min(1024, w * factor) : w)) } } : c;
    case 1:
      return p.kind === 'mlp' && p.hidden!.length < LIMITS.hiddenLayers ? { ...c, policy: { ...p, hidden: [...p.hidden!, 8 * factor] } } : c;
    case 2:
      return { ...c, mcSamples: Math.min(1_000_000, (c.mcSamples as number) * factor) };
    case 3:
      return { ...c, seeds: Math.min(1024, (c.seeds as number) * factor) };
    default:
      return { ...c, iterations: Math.min(100_000, (c.iterations as number) * factor) };
  }
};

describe('properties: random tensor-executor experiments', () => {
  it('property: an accepted experiment is within the memory and work limits; a size refusal names the field and the limit (300 configs)', () => {
    counted = { accepted: 0, refusedBySize: 0, refusedOther: 0 };
    fc.assert(fc.property(tensorConfig(smallEnv), (c) => void checkLimits(c)), { numRuns: 300, seed: 0x16_21 });
    // both outcomes are exercised
    expect(counted.accepted).toBeGreaterThan(20);
    expect(counted.refusedBySize).toBeGreaterThan(20);
  });

  it('property: Monte-Carlo experiments (262,144 and 117,649 sequences) likewise (40 configs)', () => {
    counted = { accepted: 0, refusedBySize: 0, refusedOther: 0 };
    fc.assert(fc.property(tensorConfig(mcEnv, true), (c) => void checkLimits(c)), { numRuns: 40, seed: 0x16_22 });
    expect(counted.accepted + counted.refusedBySize).toBeGreaterThan(10);
  });

  it('property: growing the network, mcSamples, seeds or iterations never turns a refusal for size into an acceptance (300 pairs)', () => {
    fc.assert(
      fc.property(tensorConfig(smallEnv), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 2, max: 16 }), (c, how, factor) => {
        const small = refusal(c);
        const big = refusal(grow(c, how, factor));
        if (small && isSizeRefusal(small)) expect(big, JSON.stringify(grow(c, how, factor)).slice(0, 300)).not.toBeNull();
        if (small === null && big === null) {
          const [a, b] = [resolveConfig(c), resolveConfig(grow(c, how, factor))];
          expect(tensorMemory(b).total).toBeGreaterThanOrEqual(tensorMemory(a).total);
          expect(tensorWork(b).total).toBeGreaterThanOrEqual(tensorWork(a).total);
        }
      }),
      { numRuns: 300, seed: 0x16_23 },
    );
  });

  it('the shape follows the executor: one shard per steps per iteration, MLP rows as shard.ts chooses them', () => {
    const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp', hidden: [4, 5] }, seeds: 3, algorithms: [{ id: 'reinforce' }, { id: 'grpo' }, { id: 'ppo-grae' }, { id: 'seeupo' }] });
    const s = tensorShape(exp);
    expect(s.layers).toEqual([13, 4, 5, 3]);
    expect(s.params).toBe(14 * 4 + 5 * 5 + 6 * 3);
    expect(s.weights).toBe(13 * 4 + 4 * 5 + 5 * 3);
    expect(s.shards.sort((a, b) => a.steps - b.steps)).toEqual([{ steps: 1, runs: 3 }, { steps: 4, runs: 6 }, { steps: 12, runs: 3 }]);
    expect(s.rows).toBe(13); // 13 nodes < 8 rollouts · 3 tokens: the rows are the nodes
    expect(tensorShape(resolveConfig({ version: 1, env: { preset: 'needle', turns: 4, vocab: 16 }, policy: { kind: 'mlp' }, groupSize: 4, seeds: 1 })).rows).toBe(4 * 4);
  });
});
