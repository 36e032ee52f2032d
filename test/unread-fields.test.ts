import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';

// Settings a run never reads are said, as an algorithm's unread fields are: each case below
// was accepted in silence before.
const base = { version: 1, env: { preset: 'lock' }, iterations: 10, seeds: 1, algorithms: [{ id: 'grpo' }, { id: 'reinforce' }] };
const warningsOf = (c: Record<string, unknown>) => resolveConfig(c).warnings;

describe('warnings for settings the run does not read', () => {
  it('mcSamples where J is exact, and not where it is a Monte-Carlo estimate', () => {
    expect(warningsOf({ ...base, mcSamples: 512 })).toEqual(['mcSamples: ignored: J is exact here (27 token sequences; it is a Monte-Carlo estimate only past 65,536)']);
    const big = { version: 1, env: { preset: 'lock', turns: 6, vocab: 8 }, policy: { kind: 'mlp' }, mode: 'sampled', iterations: 2, seeds: 1, mcSamples: 64, algorithms: [{ id: 'grpo' }] };
    expect(warningsOf(big).filter((w) => w.startsWith('mcSamples'))).toEqual([]);
    expect(warningsOf(base)).toEqual([]);
  });

  it('contextsPerBatch below contexts in exact mode', () => {
    const env = { turns: 1, vocab: 2, tokensPerTurn: 1, contexts: 3, rewards: [[1, 0], [0, 1], [1, 1]] };
    expect(warningsOf({ ...base, env: { ...env, contextsPerBatch: 2 }, mode: 'exact' })).toEqual([
      'env.contextsPerBatch: ignored in exact mode (every context is weighed by its probability); it sets the contexts drawn per iteration in sampled mode',
    ]);
    expect(warningsOf({ ...base, env: { ...env, contextsPerBatch: 2 }, mode: 'sampled' })).toEqual([]);
    expect(warningsOf({ ...base, env: { ...env, contextsPerBatch: 3 }, mode: 'exact' })).toEqual([]);
  });

  it('a clip change on an algorithm without a clip, and optimizer.lr changes when every algorithm has its own lr (named by their place in the config)', () => {
    const changes = [
      { at: 5, path: 'algorithms[0].clip', value: 0.1 },
      { at: 2, path: 'algorithms[1].clip', value: 0.1 },
    ];
    expect(warningsOf({ ...base, changes })).toEqual(['changes[1] (algorithms[1].clip at 2): ignored by the reinforce rule, which has no clip']);
    const lr = [{ at: 3, path: 'optimizer.lr', value: 0.1 }];
    expect(warningsOf({ ...base, changes: lr })).toEqual([]);
    expect(warningsOf({ ...base, changes: lr, algorithms: [{ id: 'grpo', lr: 1 }, { id: 'reinforce', lr: 2 }] })).toEqual([
      'changes[0] (optimizer.lr at 3): ignored: every algorithm has its own lr',
    ]);
    expect(warningsOf({ ...base, changes: lr, algorithms: [{ id: 'grpo', lr: 1 }, { id: 'reinforce' }] })).toEqual([]);
  });
});
