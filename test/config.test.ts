import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { ConfigError } from '../src/core/config/fields';
import { LIMITS } from '../src/core/config/schema';
import { base, configError, expectRejected, withAlgorithm } from './helpers/config';

// docs/math.md "The named algorithms" table, written out by hand. Every other field takes the §3 defaults.
const COMMON = { clip: 0.2, epochs: 4, minibatches: 1, mClip: null, mCorrection: true, gaeLambda: 0.95 };
const PRESET_TABLE: Record<string, Record<string, unknown>> = {
  reinforce: { advantage: 'grae', normalization: 'none', rule: 'reinforce' },
  rloo: { advantage: 'rloo', normalization: 'none', rule: 'reinforce' },
  grpo: { advantage: 'grae', normalization: 'group', rule: 'ppu', ratio: 'token' },
  'ppo-grae': { advantage: 'grae', normalization: 'none', rule: 'ppu', ratio: 'token' },
  gspo: { advantage: 'grae', normalization: 'group', rule: 'ppu', ratio: 'sequence' },
  'ppo-gae': { advantage: 'gae', normalization: 'batch', rule: 'ppu', ratio: 'token' },
  seeupo: { advantage: 'grae', normalization: 'batch', rule: 'sequential', order: 'reverse', turnRatio: 'product' },
  'seeupo-forward': { advantage: 'grae', normalization: 'batch', rule: 'sequential', order: 'forward', turnRatio: 'product' },
  'seeupo-random': { advantage: 'grae', normalization: 'batch', rule: 'sequential', order: 'random', turnRatio: 'product' },
};
const ALL_IDS = ['reinforce', 'rloo', 'grpo', 'ppo-grae', 'gspo', 'ppo-gae', 'seeupo', 'seeupo-forward', 'seeupo-random'];

describe('defaults', () => {
  const exp = resolveConfig({ version: 1, env: { preset: 'lock' } });

  it('fills in the run settings', () => {
    expect(exp.mode).toBe('sampled');
    expect(exp.seeds).toBe(16);
    expect(exp.iterations).toBe(200);
    expect(exp.groupSize).toBe(8);
    expect(exp.seed).toBe(0);
    expect(exp.optimizer).toEqual({ kind: 'sgd', lr: 0.3 });
    expect(exp.executor).toBe('auto');
    expect(exp.backend).toBeNull();
    expect(exp.policy).toEqual({ kind: 'tabular', initScale: 0 });
    expect(exp.env.gamma).toBe(1);
    expect(exp.envPreset).toBe('lock');
    expect(exp.warnings).toEqual([]);
  });

  it('lists the nine named algorithms in order', () => {
    expect(exp.algorithms.map((a) => a.id)).toEqual(ALL_IDS);
  });

  for (const id of ALL_IDS) {
    it(`algorithm ${id} has the fields of the §4 table`, () => {
      const a = exp.algorithms.find((x) => x.id === id)!;
      expect(a).toMatchObject({ ...COMMON, ...PRESET_TABLE[id], id });
    });
  }

  it('an algorithm entry {id} alone resolves to the preset of that id', () => {
    const e = resolveConfig(withAlgorithm({ id: 'gspo' }));
    expect(e.algorithms).toHaveLength(1);
    expect(e.algorithms[0]).toMatchObject({ ...COMMON, ...PRESET_TABLE.gspo, id: 'gspo' });
  });

  it('MLP policy defaults: one hidden layer of 32, tanh', () => {
    const e = resolveConfig(base({ policy: { kind: 'mlp' } }));
    expect(e.policy).toMatchObject({ kind: 'mlp', hidden: [32], activation: 'tanh' });
  });
});

describe('algorithm entries', () => {
  it('a preset entry with overrides keeps the preset fields and applies the override', () => {
    const e = resolveConfig(withAlgorithm({ id: 'grpo-batch', preset: 'grpo', normalization: 'batch' }));
    expect(e.algorithms[0]).toEqual({
      ...COMMON,
      id: 'grpo-batch',
      preset: 'grpo', // the record remembers what it started from (its label and colour follow it)
      advantage: 'grae',
      normalization: 'batch',
      rule: 'ppu',
      ratio: 'token',
      order: 'reverse',
      turnRatio: 'product',
      criticLr: null,
      lr: null,
    });
    expect(e.warnings).toEqual([]);
  });

  it('an entry with no preset and no rule is rejected at algorithms[0].rule', () => {
    expectRejected(withAlgorithm({ id: 'x' }), 'algorithms[0].rule', '"reinforce"', '"ppu"', '"sequential"');
  });

  it('an entry with a rule and no preset takes the defaults', () => {
    const e = resolveConfig(withAlgorithm({ id: 'x', rule: 'ppu', clip: 0.1 }));
    expect(e.algorithms[0]).toMatchObject({ id: 'x', rule: 'ppu', advantage: 'grae', normalization: 'none', ratio: 'token', clip: 0.1, epochs: 4, minibatches: 1 });
    expect(e.warnings).toEqual([]);
  });

  it('order on grpo is accepted with a warning naming the field, not an error', () => {
    const e = resolveConfig(withAlgorithm({ id: 'grpo', order: 'forward' }));
    expect(e.algorithms[0]!.rule).toBe('ppu');
    expect(e.warnings).toHaveLength(1);
    expect(e.warnings[0]).toContain('algorithms[0]');
    expect(e.warnings[0]).toContain('order');
  });

  it('epochs on reinforce is accepted with a warning naming the field', () => {
    const e = resolveConfig(withAlgorithm({ id: 'reinforce', epochs: 3 }));
    expect(e.algorithms[0]!.rule).toBe('reinforce');
    expect(e.warnings).toHaveLength(1);
    expect(e.warnings[0]).toContain('epochs');
  });

  it('several ignored fields on one entry are all named; the entry index is right', () => {
    const e = resolveConfig(base({ algorithms: [{ id: 'grpo' }, { id: 'reinforce', clip: 0.1, minibatches: 3, order: 'random' }] }));
    expect(e.warnings).toHaveLength(1);
    for (const f of ['algorithms[1]', 'clip', 'minibatches', 'order']) expect(e.warnings[0]).toContain(f);
  });

  it('mClip and criticLr accept null and in-range numbers', () => {
    expect(resolveConfig(withAlgorithm({ id: 'seeupo', mClip: 0.2 })).algorithms[0]!.mClip).toBe(0.2);
    expect(resolveConfig(withAlgorithm({ id: 'seeupo', mClip: null })).algorithms[0]!.mClip).toBeNull();
    expect(resolveConfig(withAlgorithm({ id: 'ppo-gae', criticLr: 0.05, gaeLambda: 0.9 })).algorithms[0]).toMatchObject({ criticLr: 0.05, gaeLambda: 0.9 });
  });

  it('ratio on a sequential algorithm warns; fields the rule uses do not', () => {
    expect(resolveConfig(withAlgorithm({ id: 'seeupo', ratio: 'sequence' })).warnings.join('\n')).toContain('ratio');
    expect(resolveConfig(withAlgorithm({ id: 'grpo', clip: 0.1, epochs: 2, ratio: 'sequence' })).warnings).toEqual([]);
    expect(resolveConfig(withAlgorithm({ id: 'seeupo', order: 'forward', mClip: 0.2, turnRatio: 'geomean' })).warnings).toEqual([]);
  });
});

describe('rejections name the field and the allowed range or values', () => {
  it('missing version', () => {
    expectRejected({ env: { preset: 'lock' } }, 'version', 'must be 1');
  });

  it('version 2 says it is from a newer version', () => {
    expectRejected(base({ version: 2 }), 'version', 'newer', 'version 1');
  });

  it('version "1" (a string) and 0 are rejected', () => {
    expectRejected(base({ version: '1' }), 'version', 'must be 1');
    expectRejected(base({ version: 0 }), 'version', 'must be 1');
  });

  it('missing env is rejected at env', () => {
    expect(configError({ version: 1 }).path).toBe('env');
    expectRejected({ version: 1, env: null }, 'env', 'must be an object', '"preset"', 'rewards');
  });

  it('a custom env without rewards', () => {
    expectRejected(base({ env: { turns: 1, vocab: 2, tokensPerTurn: 1 } }), 'env.rewards', 'must be a list');
  });

  it('a list that is not one says what the list holds', () => {
    const env = { turns: 1, vocab: 2, tokensPerTurn: 1 };
    expectRejected(base({ env: { ...env, rewards: 5 } }), 'env.rewards', 'must be a list of reward tables, one per context', 'got 5');
    expectRejected(base({ env: { ...env, rewards: [[0, 1], 'x'] } }), 'env.rewards[1]', 'must be a list of numbers (one per token sequence)', 'got "x"');
    expectRejected(base({ policy: { kind: 'mlp', hidden: 32 } }), 'policy.hidden', 'must be a list of widths', 'got 32');
    expectRejected(base({ policy: { kind: 'mlp', hidden: [8, 8, 8, 8, 8] } }), 'policy.hidden', 'at most 4 hidden layers, got 5');
    expectRejected(base({ seedIndices: 3 }), 'seedIndices', 'must be a list'); // no description of its own: zod's type, in our words
  });

  it('a table of the wrong length says which entry is missing or extra', () => {
    const env = { turns: 1, vocab: 2, tokensPerTurn: 1 };
    expectRejected(base({ env: { ...env, rewards: [[0]] } }), 'env.rewards[0]', 'must have 2 numbers', 'got 1: env.rewards[0][1] is missing');
    expectRejected(base({ env: { ...env, contexts: 1, rewards: [[0, 1], [1, 0]] } }), 'env.rewards', 'got 2: env.rewards[1] is extra');
  });

  it('unknown top-level field', () => {
    expectRejected(base({ colour: 'red' }), 'colour', 'unknown field');
  });

  it('unknown field inside an algorithm', () => {
    expectRejected(base({ algorithms: [{ id: 'grpo' }, { id: 'seeupo', colour: 'red' }] }), 'algorithms[1].colour', 'unknown field');
  });

  it('unknown env field, preset and custom', () => {
    expectRejected(base({ env: { preset: 'lock', colour: 1 } }), 'env.colour', 'unknown field');
    expectRejected(base({ env: { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1]], colour: 1 } }), 'env.colour', 'unknown field');
  });

  it('unknown field in a noise object and in the optimizer', () => {
    expectRejected(base({ env: { preset: 'lock', noise: { kind: 'gaussian', sigma: 0.1, mu: 0 } } }), 'env.noise.mu', 'unknown field');
    expectRejected(base({ optimizer: { kind: 'sgd', lr: 0.1, momentum: 0.9 } }), 'optimizer.momentum', 'unknown field');
  });

  it('wrong type: a string where a number is', () => {
    expectRejected(base({ iterations: '10' }), 'iterations', 'an integer from 1 to 100000', 'got "10"');
    expectRejected(withAlgorithm({ id: 'grpo', clip: '0.2' }), 'algorithms[0].clip', '> 0', '≤ 10', 'got "0.2"');
    expectRejected(base({ env: { preset: 'lock', gamma: '1' } }), 'env.gamma', 'from 0 to 1', 'got "1"');
  });

  it('wrong type: a boolean field given a string, a list given an object, env given a string', () => {
    expectRejected(withAlgorithm({ id: 'seeupo', mCorrection: 'yes' }), 'algorithms[0].mCorrection', 'true or false');
    expectRejected(base({ algorithms: { id: 'grpo' } }), 'algorithms', 'must be a list');
    expectRejected(base({ env: 'lock' }), 'env', 'must be an object');
  });

  it('non-integer where an integer is', () => {
    expectRejected(base({ seeds: 1.5 }), 'seeds', 'an integer from 1 to 1024', 'got 1.5');
    expectRejected(withAlgorithm({ id: 'grpo', epochs: 2.5 }), 'algorithms[0].epochs', 'an integer from 1 to 64');
  });

  it('clip out of range (0 and too big)', () => {
    expectRejected(withAlgorithm({ id: 'grpo', clip: 0 }), 'algorithms[0].clip', '> 0 and ≤ 10', 'got 0');
    expectRejected(withAlgorithm({ id: 'grpo', clip: 11 }), 'algorithms[0].clip', '> 0 and ≤ 10', 'got 11');
    expectRejected(withAlgorithm({ id: 'grpo', clip: -0.2 }), 'algorithms[0].clip', '> 0 and ≤ 10');
  });

  it('lr ≤ 0', () => {
    expectRejected(base({ optimizer: { kind: 'sgd', lr: 0 } }), 'optimizer.lr', '> 0 and ≤ 100', 'got 0');
    expectRejected(base({ optimizer: { kind: 'adam', lr: -0.1 } }), 'optimizer.lr', '> 0 and ≤ 100', 'got -0.1');
  });

  it('groupSize 1 (G < 2 is a config error)', () => {
    expectRejected(base({ groupSize: 1 }), 'groupSize', 'an integer from 2 to 4096', 'got 1');
    expect(resolveConfig(base({ groupSize: 2 })).groupSize).toBe(2);
  });

  it('seeds 0', () => {
    expectRejected(base({ seeds: 0 }), 'seeds', 'an integer from 1 to 1024', 'got 0');
  });

  it('iterations too big', () => {
    expectRejected(base({ iterations: 100_001 }), 'iterations', 'an integer from 1 to 100000', 'got 100001');
    expectRejected(base({ iterations: 0 }), 'iterations', 'an integer from 1 to 100000', 'got 0');
  });

  it('gamma > 1 (preset and custom env)', () => {
    expectRejected(base({ env: { preset: 'lock', gamma: 1.01 } }), 'env.gamma', 'a number from 0 to 1', 'got 1.01');
    expectRejected(base({ env: { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1]], gamma: 2 } }), 'env.gamma', 'from 0 to 1');
  });

  it('non-finite numbers', () => {
    // JSON cannot carry NaN, but the engine's own callers (UI, permalinks) can
    expectRejected(withAlgorithm({ id: 'grpo', clip: Number.NaN }), 'algorithms[0].clip', '> 0 and ≤ 10');
    expectRejected(base({ env: { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, Infinity]] } }), 'env.rewards[0][1]', 'finite number');
  });

  it('bad enum values name the allowed values', () => {
    expectRejected(withAlgorithm({ id: 'grpo', normalization: 'std' }), 'algorithms[0].normalization', '"none", "group", "batch"', 'got "std"');
    expectRejected(withAlgorithm({ id: 'seeupo', order: 'sideways' }), 'algorithms[0].order', '"reverse", "forward", "random"', 'got "sideways"');
    expectRejected(base({ mode: 'greedy' }), 'mode', '"exact", "sampled"', 'got "greedy"');
    expectRejected(withAlgorithm({ id: 'x', preset: 'ppo' }), 'algorithms[0].preset', '"grpo"', '"seeupo-random"', 'got "ppo"');
    expectRejected(base({ optimizer: { kind: 'rmsprop', lr: 0.1 } }), 'optimizer.kind', '"sgd", "adam"');
    expectRejected(base({ executor: 'gpu' }), 'executor', '"auto", "cpu", "tensor"');
    expectRejected(base({ env: { preset: 'lock', noise: { kind: 'poisson' } } }), 'env.noise.kind', '"none", "gaussian", "bernoulli"', 'got "poisson"');
  });

  it('wrong reward table length names the table', () => {
    const env = { turns: 2, vocab: 2, tokensPerTurn: 1 };
    expectRejected(base({ env: { ...env, rewards: [[0, 0, 1]] } }), 'env.rewards[0]', 'must have 4 numbers', 'got 3');
    expectRejected(base({ env: { ...env, rewards: [[0, 0, 0, 1], [0, 1]] } }), 'env.rewards[1]', 'must have 4 numbers', 'got 2');
    // a correct table resolves
    const ok = resolveConfig(base({ env: { ...env, rewards: [[0, 0.5, 0, 1]] } })).env;
    expect(Array.from(ok.rewards[0]!)).toEqual([0, 0.5, 0, 1]);
    expect(ok.contexts).toBe(1);
  });

  it('number of reward tables ≠ contexts', () => {
    const env = { turns: 1, vocab: 2, tokensPerTurn: 1 };
    expectRejected(base({ env: { ...env, contexts: 2, rewards: [[0, 1]] } }), 'env.rewards', 'one table per context (2)', 'got 1');
    expectRejected(base({ env: { ...env, contexts: 1, rewards: [[0, 1], [1, 0]] } }), 'env.rewards', 'one table per context (1)', 'got 2');
  });

  it('bernoulli noise with a mean reward outside [0, 1] names the entry', () => {
    const env = { turns: 2, vocab: 2, tokensPerTurn: 1, noise: { kind: 'bernoulli' } };
    expectRejected(base({ env: { ...env, rewards: [[0, 1.5, 0, 1]] } }), 'env.rewards[0][1]', 'from 0 to 1', '1.5');
    expectRejected(base({ env: { ...env, rewards: [[0, 1, 0, 1], [0, 0, -0.1, 0]] } }), 'env.rewards[1][2]', 'from 0 to 1', '-0.1');
    // the same tables are fine without noise, and bernoulli on [0, 1] rewards is fine
    expect(() => resolveConfig(base({ env: { ...env, noise: { kind: 'none' }, rewards: [[0, 1.5, 0, 1]] } }))).not.toThrow();
    expect(resolveConfig(base({ env: { preset: 'two-prompts', noise: { kind: 'bernoulli' } } })).env.noise).toEqual([{ kind: 'bernoulli' }, { kind: 'bernoulli' }]);
  });

  it('bernoulli on one context only checks that context', () => {
    const env = { turns: 1, vocab: 2, tokensPerTurn: 1, noise: [{ kind: 'none' }, { kind: 'bernoulli' }] };
    expect(() => resolveConfig(base({ env: { ...env, rewards: [[-1, 2], [0, 1]] } }))).not.toThrow();
    expectRejected(base({ env: { ...env, rewards: [[0, 1], [0, 2]] } }), 'env.rewards[1][1]', 'from 0 to 1');
  });

  it('noise list of the wrong length', () => {
    expectRejected(base({ env: { preset: 'two-prompts', noise: [{ kind: 'none' }] } }), 'env.noise', 'list of 2', 'got a list of 1');
    expectRejected(
      base({ env: { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1]], noise: [{ kind: 'none' }, { kind: 'none' }] } }),
      'env.noise',
      'list of 1',
      'got a list of 2',
    );
  });

  it('a bad entry in a noise list names its index', () => {
    expectRejected(
      base({ env: { preset: 'two-prompts', noise: [{ kind: 'none' }, { kind: 'gaussian', sigma: -1 }] } }),
      'env.noise[1].sigma',
      'from 0 to 100',
      'got -1',
    );
  });

  it('contextsPerBatch > contexts', () => {
    expectRejected(base({ env: { preset: 'lock', contextsPerBatch: 2 } }), 'env.contextsPerBatch', 'from 1 to contexts (1)', 'got 2');
    expectRejected(base({ env: { preset: 'two-prompts', contextsPerBatch: 3 } }), 'env.contextsPerBatch', 'contexts (2)', 'got 3');
    expect(resolveConfig(base({ env: { preset: 'two-prompts', contextsPerBatch: 1 } })).env.contextsPerBatch).toBe(1);
  });

  it('minibatches that do not divide contextsPerBatch·groupSize in sampled mode', () => {
    expectRejected(withAlgorithm({ id: 'grpo', minibatches: 3 }, { mode: 'sampled', groupSize: 8 }), 'algorithms[0].minibatches', 'contextsPerBatch·groupSize = 8', 'got 3');
    // two-prompts: B = 2, G = 6 → 12 rollouts; 8 does not divide 12
    expectRejected(
      base({ env: { preset: 'two-prompts' }, groupSize: 6, algorithms: [{ id: 'grpo', minibatches: 4 }, { id: 'seeupo', minibatches: 8 }] }),
      'algorithms[1].minibatches',
      '= 12',
      'got 8',
    );
    // divisors are fine; exact mode has one chunk; reinforce ignores minibatches
    expect(() => resolveConfig(withAlgorithm({ id: 'grpo', minibatches: 4 }, { mode: 'sampled', groupSize: 8 }))).not.toThrow();
    expect(() => resolveConfig(withAlgorithm({ id: 'grpo', minibatches: 3 }, { mode: 'exact' }))).not.toThrow();
    expect(() => resolveConfig(withAlgorithm({ id: 'reinforce', minibatches: 3 }, { mode: 'sampled' }))).not.toThrow();
  });

  it('duplicate algorithm ids', () => {
    expectRejected(base({ algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'grpo' }] }), 'algorithms[2].id', 'duplicate', '"grpo"', 'algorithms[0]');
    expectRejected(base({ algorithms: [{ id: 'a', preset: 'grpo' }, { id: 'a', preset: 'seeupo' }] }), 'algorithms[1].id', 'duplicate');
  });

  it('malformed algorithm id', () => {
    expectRejected(withAlgorithm({ id: '' }), 'algorithms[0].id', '1–40');
    expectRejected(withAlgorithm({ id: 'has space', preset: 'grpo' }), 'algorithms[0].id', '1–40');
    expectRejected(withAlgorithm({ preset: 'grpo' }), 'algorithms[0].id', '1–40');
  });

  it('gae with the sequential rule', () => {
    expectRejected(withAlgorithm({ id: 'x', preset: 'seeupo', advantage: 'gae' }), 'algorithms[0].advantage', 'grae or rloo');
    expectRejected(withAlgorithm({ id: 'y', rule: 'sequential', advantage: 'gae' }), 'algorithms[0].advantage', 'grae or rloo');
    expectRejected(withAlgorithm({ id: 'ppo-gae', rule: 'sequential' }), 'algorithms[0].advantage', 'sequential');
  });

  it('gae with a sequence-level ratio', () => {
    expectRejected(withAlgorithm({ id: 'x', preset: 'gspo', advantage: 'gae' }), 'algorithms[0].advantage', 'grae or rloo');
  });

  it('empty and too long algorithm lists', () => {
    expectRejected(base({ algorithms: [] }), 'algorithms', 'at least one');
    const seventeen = Array.from({ length: 17 }, (_, i) => ({ id: `a${i}`, preset: 'grpo' }));
    expectRejected(base({ algorithms: seventeen }), 'algorithms', `at most ${LIMITS.algorithms}`);
  });

  it('too many token sequences: vocab 16, turns 5 is refused stating the limit 65,536', () => {
    const e = expectRejected(base({ env: { turns: 5, vocab: 16, tokensPerTurn: 1, rewards: [[]] } }), 'env', '65,536', '16^5');
    expect(LIMITS.maxSequences).toBe(65_536);
    expect(e.message).toContain('1.049e+6');
  });

  it('the sequence limit counts contexts', () => {
    // 2 · 2^(5·3) = 65,536 is allowed; 4 · 2^15 is not
    const sizes = { turns: 5, vocab: 2, tokensPerTurn: 3 };
    const table = new Array(2 ** 15).fill(0);
    table[7] = 1;
    const env = resolveConfig(base({ mode: 'exact', env: { ...sizes, rewards: [table, table] } })).env;
    expect(env.contexts).toBe(2);
    expect(env.rewards[1]![7]).toBe(1);
    expectRejected(base({ env: { ...sizes, contexts: 4, rewards: [table, table, table, table] } }), 'env', '4·2^15', '65,536');
  });

  it('a preset grown past the sequence limit is refused (lock with vocab 8, turns 6)', () => {
    expectRejected(base({ env: { preset: 'lock', vocab: 8, turns: 6 } }), 'env', '8^6', '65,536');
  });

  it('too many stored points, stating the limit', () => {
    // 9 algorithms · 1024 seeds · 1001 points = 9,225,216
    expectRejected({ version: 1, env: { preset: 'lock' }, seeds: 1024, iterations: 1000 }, 'iterations', '9,225,216', '4,000,000');
    // boundary: 1 · 40 · 100,000 = 4,000,000 exactly is allowed, 4,000,040 is not
    expect(() => resolveConfig(withAlgorithm({ id: 'reinforce' }, { seeds: 40, iterations: 99_999 }))).not.toThrow();
    expectRejected(withAlgorithm({ id: 'reinforce' }, { seeds: 40, iterations: 100_000 }), 'iterations', '4,000,040', '4,000,000');
  });

  it('too much work, stating the limit', () => {
    const e = configError({
      version: 1,
      env: { preset: 'needle', vocab: 16, turns: 4 },
      mode: 'exact',
      seeds: 16,
      iterations: 1000,
      algorithms: [{ id: 'seeupo' }],
    });
    expect(e.message).toContain('token-updates');
    expect(e.message).toContain(`the limit is ${LIMITS.maxWork.toExponential(0)}`);
    expect(e.message).toContain('2e+10');
    // the same environment with a small run is fine: 16^4 = 65,536 sequences is at the limit, not over it
    expect(resolveConfig({ version: 1, env: { preset: 'needle', vocab: 16, turns: 4 }, mode: 'exact', seeds: 1, iterations: 1, algorithms: [{ id: 'seeupo' }] }).env.rewards[0]).toHaveLength(65_536);
  });

  it('a non-object config (array, null, number, string)', () => {
    for (const raw of [[], [{ version: 1 }], null, 1, 'config', undefined]) {
      const e = configError(raw);
      expect(e).toBeInstanceOf(ConfigError);
      expect(e.path).toBe('');
      expect(e.message).toContain('JSON object');
    }
  });

  it('the first error wins and the message is one line', () => {
    const e = configError(base({ seeds: 0, groupSize: 1 }));
    expect(['seeds', 'groupSize']).toContain(e.path);
    expect(e.message.split('\n')).toHaveLength(1);
  });
});

describe('regressions found in review', () => {
  // src/core/config/resolve.ts resolveAlgorithm: `ALGORITHM_PRESETS[e.id]` is a plain-object lookup,
  // so an id that is an Object.prototype key ("constructor", "toString", …) counts as a preset name.
  // {id:'constructor'} then resolves to a record with rule undefined, and {id:'toString', clip: 0.1}
  // throws a TypeError (FIELDS_USED_BY_RULE[undefined].includes) instead of a ConfigError.
  it('an id that is an Object.prototype key is not a preset: rejected at algorithms[0].rule', () => {
    expectRejected(withAlgorithm({ id: 'constructor' }), 'algorithms[0].rule', '"reinforce"');
  });

  it('an Object.prototype id with fields gives a ConfigError, not a TypeError', () => {
    expectRejected(withAlgorithm({ id: 'toString', clip: 0.1 }), 'algorithms[0].rule', '"reinforce"');
  });

  // src/core/config/fields.ts issueToError: a missing required key (`env`, typed z.unknown() in
  // configSchema) arrives as invalid_type with expected 'nonoptional', rendered as
  // "env: must be of type nonoptional": zod jargon that states neither what is allowed nor what was given.
  it('missing env says what env must be', () => {
    expectRejected({ version: 1 }, 'env', 'must be an object');
  });

  // src/core/config/schema.ts algorithmEntrySchema: mClip and criticLr are z.union([z.null(), num(…)]);
  // when both members fail, zod reports an invalid_union issue whose message is "Invalid input",
  // so the line names the field but not the allowed range (docs/cli.md "Exit codes" requires the range).
  it('mClip out of range states the allowed range', () => {
    expectRejected(withAlgorithm({ id: 'seeupo', mClip: 2 }), 'algorithms[0].mClip', '> 0', '1');
  });

  it('criticLr out of range states the allowed range', () => {
    expectRejected(withAlgorithm({ id: 'ppo-gae', criticLr: -1 }), 'algorithms[0].criticLr', '> 0', '100');
  });

  // src/core/config/schema.ts LIMITS.mClip = {min 0, max 1, openMin}: accepts c = 1, but
  // docs/math.md "Update rules" says mClip c satisfies 0 < c < 1.
  it('mClip 1 is rejected (update rules: 0 < c < 1)', () => {
    configError(withAlgorithm({ id: 'seeupo', mClip: 1 }));
  });

  // src/core/config/resolve.ts resolveEnv (custom branch): contexts defaults to rewards.length, and
  // customEnvSchema allows rewards: [], so a custom env with zero contexts resolves (LIMITS.contexts.min
  // is 1, and an explicit contexts: 0 is rejected).
  it('a custom env with no reward tables (0 contexts) is rejected', () => {
    configError(base({ env: { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [] } }));
  });
});
