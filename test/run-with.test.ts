import { describe, expect, it } from 'vitest';
import { chooseExecutor, runWith, type ExecutorChoice, type RunExecutor } from '../src/core/run/choose';
import { resolveConfig } from '../src/core/config/resolve';
import { base } from './helpers/config';

// runWith is the one place a choice of executor turns into a runner: the page, the sweep worker
// and the CLI each hand it one runner per executor.

const runners = {
  cpu: (c: ExecutorChoice) => `cpu:${c.reason}`,
  tensor: (c: ExecutorChoice) => `tensor:${c.reason}`,
  webgpu: (c: ExecutorChoice) => `webgpu:${c.reason}`,
};

describe('runWith', () => {
  it.each(['cpu', 'tensor', 'webgpu'] as RunExecutor[])('calls the %s runner, and only it, with the choice', (executor) => {
    const calls: string[] = [];
    const spy = Object.fromEntries(Object.entries(runners).map(([k, f]) => [k, (c: ExecutorChoice) => (calls.push(k), f(c))])) as typeof runners;
    expect(runWith({ executor, reason: 'why' }, spy)).toBe(`${executor}:why`);
    expect(calls).toEqual([executor]);
  });

  it('follows chooseExecutor: an MLP goes to the tensor runner, a tabular config to the CPU runner', () => {
    const mlp = resolveConfig(base({ policy: { kind: 'mlp', hidden: [4] } }));
    const table = resolveConfig(base());
    expect(runWith(chooseExecutor(mlp), runners)).toMatch(/^tensor:MLP policy/);
    expect(runWith(chooseExecutor(table), runners)).toMatch(/^cpu:tabular policy/);
    expect(runWith(chooseExecutor(resolveConfig(base({ executor: 'webgpu' }))), runners)).toMatch(/^webgpu:as asked/);
  });
});
