import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { computeOptimum } from '../src/core/env/exact';
import { prefixOf, totalReturns } from '../src/core/env/returns';
import { buildTree } from '../src/core/env/tree';
import { base, expectRejected, withAlgorithm } from './helpers/config';

// Config fields added to version 1 (docs/cli.md "The config"), backward compatible: env.turnRewards,
// algorithms[i].lr, seedIndices, lr up to 1000.

const twoTurn = (over: Record<string, unknown> = {}) => ({
  turns: 2,
  vocab: 2,
  tokensPerTurn: 1,
  rewards: [[0, 0, 0.8, 0]],
  turnRewards: [[[0.5, 0]]],
  ...over,
});

describe('env.turnRewards', () => {
  it('the hand-worked example: J and J* are computed on the undiscounted total', () => {
    const exp = resolveConfig(base({ env: twoTurn() }));
    // sequences 0-0, 0-1, 1-0, 1-1: the first token 0 pays 0.5, the sequence 1-0 pays 0.8 at the end
    expect(Array.from(exp.env.returns[0])).toEqual([0.5, 0.5, 0.8, 0]);
    expect(Array.from(exp.env.rewards[0])).toEqual([0, 0, 0.8, 0]);
    expect(exp.env.turnRewards).not.toBeNull();
    expect(computeOptimum(exp.env, buildTree(exp.env)).Jstar).toBe(0.8);
  });

  it('three turns over three tokens: each sequence adds the rewards of its prefixes', () => {
    const turn1 = [0.1, 0.2, 0.3];
    const turn2 = Array.from({ length: 9 }, (_, q) => q / 100);
    const rewards = Array.from({ length: 27 }, (_, s) => s / 1000);
    const exp = resolveConfig(base({ env: { turns: 3, vocab: 3, tokensPerTurn: 1, rewards: [rewards], turnRewards: [[turn1, turn2]] } }));
    for (let s = 0; s < 27; s++) {
      const a1 = Math.floor(s / 9), a12 = Math.floor(s / 3);
      expect(exp.env.returns[0][s]).toBeCloseTo(rewards[s] + turn1[a1] + turn2[a12], 15);
      expect(prefixOf(exp.env, s, 1)).toBe(a1);
      expect(prefixOf(exp.env, s, 2)).toBe(a12);
      expect(prefixOf(exp.env, s, 3)).toBe(s);
    }
  });

  it('two tokens per turn index turn tables by the turn-long prefix', () => {
    const sz = { turns: 2, vocab: 2, tokensPerTurn: 2 };
    const out = totalReturns(sz, [new Float64Array(16)], [[Float64Array.from([1, 2, 3, 4])]]);
    // sequence s = (t1 t2 | t3 t4): its first turn is s >> 2
    for (let s = 0; s < 16; s++) expect(out[0][s]).toBe([1, 2, 3, 4][s >> 2]);
  });

  it('tables of zeros are the same experiment as none (null, and returns are the terminal table itself)', () => {
    const exp = resolveConfig(base({ env: twoTurn({ turnRewards: [[[0, 0]]] }) }));
    expect(exp.env.turnRewards).toBeNull();
    expect(exp.env.returns).toBe(exp.env.rewards);
  });

  it('a preset takes turn rewards as an override', () => {
    const exp = resolveConfig(base({ env: { preset: 'lock', turnRewards: [[[0, 0, 0.05], new Array(9).fill(0.01)]] } }));
    expect(exp.env.returns[0][2 * 9]).toBeCloseTo(0.3 + 0.05 + 0.01, 15); // exit token then 0-0
  });

  it('a table of the wrong length names the path, the turn and the count', () => {
    expectRejected(
      base({ env: { preset: 'lock', turnRewards: [[[0, 0, 0], [1, 2, 3]]] } }),
      'env.turnRewards[0][1]',
      'turn 2 needs 9 numbers (V^2), got 3',
    );
    expectRejected(base({ env: twoTurn({ tokensPerTurn: 2, rewards: [new Array(16).fill(0)] }) }), 'env.turnRewards[0][0]', 'turn 1 needs 4 numbers (V^(1·L)), got 2');
  });

  it('the wrong number of tables or contexts is refused', () => {
    expectRejected(base({ env: twoTurn({ turnRewards: [[[0.5, 0], [0, 0, 0, 0]]] }) }), 'env.turnRewards[0]', 'must have 1 tables', 'got 2');
    expectRejected(base({ env: twoTurn({ turnRewards: [[[0.5, 0]], [[0, 0]]] }) }), 'env.turnRewards', 'one list of turn tables per context (1), got 2');
  });

  it('a non-finite or non-number reward is refused at its cell', () => {
    expectRejected(base({ env: twoTurn({ turnRewards: [[[0.5, 'x']]] }) }), 'env.turnRewards[0][0][1]', 'must be a finite number', '"x"');
    expectRejected(base({ env: twoTurn({ turnRewards: [[[null, 0]]] }) }), 'env.turnRewards[0][0][0]', 'must be a finite number');
    expectRejected(base({ env: twoTurn({ turnRewards: [[0.5, 0]] }) }), 'env.turnRewards[0][0]', 'must be a list');
  });

  it('per-turn rewards are refused where J would be a Monte-Carlo estimate', () => {
    const rewards = [new Array(8 ** 6).fill(0)];
    const turnRewards = [Array.from({ length: 5 }, (_, t) => new Array(8 ** (t + 1)).fill(0.1))];
    expectRejected(
      { version: 1, env: { turns: 6, vocab: 8, tokensPerTurn: 1, rewards, turnRewards }, policy: { kind: 'mlp' }, mode: 'sampled', iterations: 1, seeds: 1, algorithms: [{ id: 'reinforce' }] },
      'env.turnRewards',
      'need exact J',
    );
  });
});

describe('learning rates', () => {
  it('optimizer.lr and algorithms[i].lr go up to 1000, not beyond', () => {
    expect(resolveConfig(base({ optimizer: { kind: 'sgd', lr: 1000 } })).optimizer.lr).toBe(1000);
    expectRejected(base({ optimizer: { kind: 'sgd', lr: 1000.5 } }), 'optimizer.lr', '≤ 1000', '1000.5');
    expect(resolveConfig(withAlgorithm({ id: 'seeupo', lr: 1000 })).algorithms[0].lr).toBe(1000);
    expectRejected(withAlgorithm({ id: 'seeupo', lr: 0 }), 'algorithms[0].lr', '> 0', '≤ 1000');
    expectRejected(withAlgorithm({ id: 'seeupo', lr: 'fast' }), 'algorithms[0].lr', '"fast"');
  });

  it('an algorithm without lr has null (it uses optimizer.lr), and lr is read by every rule (no warning)', () => {
    const exp = resolveConfig(base({ algorithms: [{ id: 'seeupo' }, { id: 'grpo', lr: 2 }, { id: 'reinforce', lr: 3 }] }));
    expect(exp.algorithms.map((a) => a.lr)).toEqual([null, 2, 3]);
    expect(exp.warnings).toEqual([]);
  });
});

describe('seedIndices', () => {
  it('defaults to every seed, and is kept sorted', () => {
    expect(resolveConfig(base({ seeds: 4 })).seedIndices).toEqual([0, 1, 2, 3]);
    expect(resolveConfig(base({ seeds: 16, seedIndices: [9, 3] })).seedIndices).toEqual([3, 9]);
  });

  it('refuses an index past seeds, a duplicate, an empty list and a non-integer', () => {
    expectRejected(base({ seeds: 16, seedIndices: [3, 16] }), 'seedIndices[1]', 'from 0 to 15', 'got 16');
    expectRejected(base({ seeds: 16, seedIndices: [3, 3] }), 'seedIndices[1]', 'duplicate seed index 3');
    expectRejected(base({ seedIndices: [] }), 'seedIndices', 'at least one');
    expectRejected(base({ seedIndices: [1.5] }), 'seedIndices[0]', 'an integer');
  });

  it('the stored-points limit counts only the seeds that run', () => {
    // 16 algorithms · 1024 seeds · 301 points is over the limit; one seed of them is not
    const algorithms = Array.from({ length: 16 }, (_, i) => ({ id: `a${i}`, preset: 'reinforce' }));
    expectRejected(base({ algorithms, seeds: 1024, iterations: 300 }), 'iterations', 'stored points');
    expect(() => resolveConfig(base({ algorithms, seeds: 1024, iterations: 300, seedIndices: [1000] }))).not.toThrow();
  });
});
