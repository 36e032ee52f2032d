import { configErrorOrAccepted } from './support/config-error';
import { describe, expect, it } from 'vitest';
import { resolveConfig, workEstimate } from '../src/core/config/resolve';

// The work limit (docs/cli.md "Size limits": about 2·10¹⁰ token-updates, a few minutes) counts
// what every optimizer step walks, not only the rollouts: a sampled batch split into thousands of
// minibatches takes thousands of steps an iteration, each walking the table (SGD its visited
// nodes, Adam every parameter). One iteration of the config below took 53 s with SGD and over
// 300 s with Adam on the CPU executor, while the estimate counted 1.3e6 token-updates for it.

const MANY_STEPS = {
  version: 1,
  env: { preset: 'needle', turns: 4, vocab: 16 },
  mode: 'sampled',
  iterations: 1,
  seeds: 1,
  groupSize: 4096,
  optimizer: { kind: 'sgd', lr: 0.1 },
  algorithms: [{ id: 'grpo', epochs: 64, minibatches: 4096 }],
};

const refusal = (config: Record<string, unknown>): string => configErrorOrAccepted(() => resolveConfig(config));

describe('the work estimate counts optimizer steps', () => {
  it('a few iterations of 64 epochs × 4096 minibatches are refused up front, naming minibatches', () => {
    expect(refusal({ ...MANY_STEPS, iterations: 10 })).toMatch(/token-updates; the limit is 2e\+10 .*minibatches/);
    expect(refusal({ ...MANY_STEPS, optimizer: { kind: 'adam', lr: 0.1 } })).toMatch(/token-updates; the limit is 2e\+10/);
  });

  it('grows with the steps, and Adam walks more than SGD', () => {
    const at = (over: Record<string, unknown>) => workEstimate(resolveConfig({ ...MANY_STEPS, ...over }));
    const one = at({ algorithms: [{ id: 'grpo', epochs: 1, minibatches: 1 }] });
    const many = at({ algorithms: [{ id: 'grpo', epochs: 4, minibatches: 4096 }] });
    expect(many).toBeGreaterThan(100 * one);
    expect(at({ algorithms: [{ id: 'grpo', epochs: 4, minibatches: 4096 }], optimizer: { kind: 'adam', lr: 0.1 } })).toBeGreaterThan(many);
  });

  it('one step an iteration adds little: an ordinary experiment stays accepted', () => {
    expect(refusal({ ...MANY_STEPS, iterations: 200, seeds: 16, groupSize: 8, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'reinforce' }] })).toBe('accepted');
  });
});
