import { describe, expect, it } from 'vitest';
import { cli, useCliScratch } from '../helpers/cli';

// The CLI on the tensor executor (Node: tfjs wasm or cpu backends).

const tmp = useCliScratch();

const MLP = { version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp', hidden: [8] }, mode: 'exact', iterations: 3, seeds: 1, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] };
const TABULAR = { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 3, seeds: 1, algorithms: [{ id: 'seeupo' }] };

interface Result {
  executor: string;
  backend: string | null;
  executorReason: string;
  algorithms: { id: string; runs: { J: number[] }[] }[];
}

describe('seeupo-explorer run on the tensor executor', () => {
  it('an MLP policy runs on the tensor executor (wasm by default) and says why', () => {
    const r = cli('run', tmp.file('mlp.json', MLP));
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout) as Result;
    expect(res.executor).toBe('tensor');
    expect(res.backend).toBe('wasm');
    expect(res.executorReason).toContain('MLP policy');
    expect(res.algorithms.map((a) => a.runs[0].J.length)).toEqual([4, 4]);
    expect(res.algorithms[0].runs[0].J.every((v) => Number.isFinite(v))).toBe(true);
  });

  it('--backend cpu and --backend wasm give the same exact-mode curve to 1e-5', () => {
    const [a, b] = ['cpu', 'wasm'].map((backend) => JSON.parse(cli('run', tmp.file('mlp.json', MLP), '--backend', backend).stdout) as Result);
    expect(a.backend).toBe('cpu');
    expect(b.backend).toBe('wasm');
    a.algorithms.forEach((alg, i) => alg.runs[0].J.forEach((v, k) => expect(Math.abs(v - b.algorithms[i].runs[0].J[k])).toBeLessThan(1e-5)));
  });

  it('--executor tensor runs a tabular policy there and matches the CPU executor within 2e-3', () => {
    const file = tmp.file('tab.json', TABULAR);
    const cpu = JSON.parse(cli('run', file).stdout) as Result;
    const tensor = JSON.parse(cli('run', file, '--executor', 'tensor').stdout) as Result;
    expect(cpu.executor).toBe('cpu');
    expect(tensor.executor).toBe('tensor');
    expect(tensor.executorReason).toContain('as asked');
    cpu.algorithms[0].runs[0].J.forEach((v, k) => expect(Math.abs(v - tensor.algorithms[0].runs[0].J[k])).toBeLessThan(2e-3));
  });

  it('a browser-only backend exits 2 naming backend', () => {
    const r = cli('run', tmp.file('mlp.json', MLP), '--backend', 'webgpu');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('backend');
    expect(r.stderr).toContain('wasm or cpu');
  });

  it('a browser-only backend with --threads is still one line: no warning before the refusal', () => {
    const r = cli('run', tmp.file('mlp-webgl.json', { ...MLP, backend: 'webgl' }), '--threads', '2');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['error: backend: must be wasm or cpu in Node (webgl runs in the browser only), got "webgl"']);
  });

  it('an MLP policy with executor cpu exits 2 naming executor', () => {
    const r = cli('run', tmp.file('mlp.json', MLP), '--executor', 'cpu');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: executor: .*MLP/);
  });
});
