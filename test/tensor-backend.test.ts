import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/core/config/fields';
import { resolveConfig } from '../src/core/config/resolve';
import { chooseExecutor } from '../src/core/run/choose';
import { selectBackend } from '../src/exec/tensor/backend';
import { nodeBackend } from '../src/exec/tensor/register-node';

describe('backend selection (Node registers wasm and cpu)', () => {
  it('falls back past unavailable backends and says why', async () => {
    const report = await selectBackend(['webgpu', 'webgl', 'wasm', 'cpu']);
    expect(report.backend).toBe('wasm');
    expect(report.attempts.map((a) => [a.backend, a.ok])).toEqual([
      ['webgpu', false],
      ['webgl', false],
      ['wasm', true],
    ]);
    expect(report.reason).toContain('webgpu: not registered in this build');
  });
  it('an explicit choice is honoured', async () => {
    expect((await nodeBackend('cpu')).backend).toBe('cpu');
    expect((await nodeBackend(null)).backend).toBe('wasm');
  });
  it('a browser-only backend in Node is a config error naming backend', () => {
    expect(() => nodeBackend('webgl')).toThrow(ConfigError);
    expect(() => nodeBackend('webgl')).toThrow(/^backend: must be wasm or cpu/);
  });
  it('no working backend at all is an error listing every attempt', async () => {
    await expect(selectBackend(['webgpu', 'webgl'])).rejects.toThrow(/no tfjs backend works here: webgpu: not registered.*webgl: not registered/);
  });
});

describe('executor choice', () => {
  const base = { version: 1, env: { preset: 'lock' } };
  it('MLP → tensor; tabular → cpu unless asked; a named backend implies tensor', () => {
    expect(chooseExecutor(resolveConfig({ ...base, policy: { kind: 'mlp' } }))).toMatchObject({ executor: 'tensor', reason: expect.stringContaining('MLP') });
    expect(chooseExecutor(resolveConfig(base)).executor).toBe('cpu');
    expect(chooseExecutor(resolveConfig({ ...base, executor: 'tensor' })).executor).toBe('tensor');
    expect(chooseExecutor(resolveConfig({ ...base, backend: 'webgl' }))).toMatchObject({ executor: 'tensor', reason: expect.stringContaining('webgl') });
  });
  it('MLP with executor cpu is rejected; a backend with executor cpu warns', () => {
    expect(() => resolveConfig({ ...base, policy: { kind: 'mlp' }, executor: 'cpu' })).toThrow(/^executor: must be "auto", "tensor" or "webgpu" for an MLP policy/);
    expect(resolveConfig({ ...base, executor: 'cpu', backend: 'wasm' }).warnings).toContain('backend: "wasm" is ignored by the CPU executor');
  });
});
