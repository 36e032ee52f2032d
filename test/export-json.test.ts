import { describe, expect, it } from 'vitest';
import { allRuns } from '../src/core/run/partition';
import { resultsHash } from '../src/core/metrics/results-hash';
import { CpuShard } from '../src/exec/cpu/shard';
import { resultsJson } from '../src/ui/export/json';
import { pageResultsHash } from '../src/ui/share';
import type { BackendReport } from '../src/exec/tensor/backend';
import type { Live } from '../src/ui/live';
import { planExperiment, type Plan } from '../src/ui/plan';
import { customConfig } from './support/engine';

// The JSON export: the CLI's result JSON of the page's runs, with the config and the results hash.

const CONFIG = customConfig({ T: 1, V: 2, L: 1, rewards: [0, 1], iterations: 3, seeds: 2, algorithms: [{ id: 'reinforce' }] });
const META = { backend: null, wallSeconds: 1.5 };

function computed(config: unknown = CONFIG): { plan: Plan; live: Live } {
  const plan = planExperiment(config, 1);
  const shard = new CpuShard(plan.exp, allRuns(plan.exp));
  while (!shard.done) shard.step();
  return { plan, live: { runs: shard.series, iteration: plan.exp.iterations, changes: [], startConfig: structuredClone(plan.config) as Record<string, unknown> } };
}

const parse = (plan: Plan, live: Live, meta: { backend: BackendReport | null; wallSeconds: number } = META) => JSON.parse(resultsJson(plan, live, meta));

describe('resultsJson', () => {
  it('is the CLI result plus the config and a 12-hex-digit results hash', () => {
    const { plan, live } = computed();
    const r = parse(plan, live);
    expect(r.version).toBe(1);
    expect(r.Jstar).toBe(1);
    expect(r.executor).toBe('cpu');
    expect(r.backend).toBeNull();
    expect(r.iterations).toBe(3);
    expect(r.mode).toBe('exact');
    expect(r.wallSeconds).toBe(1.5);
    expect(r.complete).toBe(true);
    expect(r.computedIterations).toBe(3);
    expect(r.config).toEqual(CONFIG);
    expect(r.configReproduces).toBe(true);
    expect(r.hotChanges).toEqual([]);
    expect(r.algorithms).toHaveLength(1);
    expect(r.algorithms[0].id).toBe('reinforce');
    expect(r.algorithms[0].runs.map((x: { seed: number }) => x.seed)).toEqual([0, 1]);
    const run = r.algorithms[0].runs[0];
    expect(run.J).toHaveLength(4);
    expect(run.J[0]).toBe(0.5);
    expect(run.J).toEqual(Array.from(live.runs[0].J));
    expect(run.kl).toHaveLength(3);
    expect(run.optimalTokenProb).toHaveLength(1);
    expect(run.diverged).toBeNull();
    expect(r.resultsHash.digest).toMatch(/^[0-9a-f]{12}$/);
    expect(r.resultsHash.by).toBe('cpu');
    expect(r.resultsHash.digest).toBe(resultsHash(['reinforce'], [live.runs.map((s) => s.J)], 'cpu').digest);
    // the digest a permalink of this page carries
    expect(r.resultsHash).toEqual(pageResultsHash(plan, live, null));
  });

  it('hashes J to six decimals: a change of 1e-5 changes the digest, one of 1e-9 does not', () => {
    const { plan, live } = computed();
    live.runs[1].J[2] = 0.75;
    const base = parse(plan, live).resultsHash.digest;
    live.runs[1].J[2] = 0.75 + 1e-9;
    expect(parse(plan, live).resultsHash.digest).toBe(base);
    live.runs[1].J[2] = 0.75 + 1e-5;
    expect(parse(plan, live).resultsHash.digest).not.toBe(base);
  });

  it('says when the run is not complete: values past the computed iteration are null', () => {
    const { plan, live } = computed();
    live.iteration = 1;
    const r = parse(plan, live);
    expect(r.complete).toBe(false);
    expect(r.computedIterations).toBe(1);
    const run = r.algorithms[0].runs[1];
    expect(run.J).toEqual([0.5, live.runs[1].J[1], null, null]);
    expect(run.optimalTokenProb[0].slice(2)).toEqual([null, null]);
    expect(run.kl).toEqual([live.runs[1].kl[0], null, null]);
    expect(run.wallMs.slice(1)).toEqual([null, null]);
    // the digest is over what was computed
    const J = (s: number) => [0.5, live.runs[s].J[1], null, null];
    expect(r.resultsHash.digest).toBe(resultsHash(['reinforce'], [[J(0), J(1)]], 'cpu').digest);
    expect(r.resultsHash.digest).not.toBe(parse(plan, { ...live, iteration: 3 }).resultsHash.digest);
    // the page's arrays are left as they were
    expect(Number.isFinite(live.runs[1].J[3])).toBe(true);
  });

  it('names the tensor executor and its backend in the result and the hash', () => {
    const { plan: cpuPlan, live } = computed();
    const plan: Plan = { ...cpuPlan, choice: { executor: 'tensor', reason: 'as asked' } };
    const backend: BackendReport = { backend: 'wasm', attempts: [], adapter: null, reason: 'asked for' };
    const r = parse(plan, live, { backend, wallSeconds: 0 });
    expect(r.executor).toBe('tensor');
    expect(r.backend).toBe('wasm');
    expect(r.threads).toBe(1);
    expect(r.executorReason).toBe('as asked; backend wasm: asked for');
    expect(r.resultsHash.by).toBe('tensor-wasm');
  });

  it('lists hot changes, puts them in the config that replays the run, and writes diverged runs as null', () => {
    const { plan, live } = computed();
    live.changes.push({ iteration: 2, path: 'optimizer.lr', from: 1, to: 0.5 });
    const r0 = live.runs[0];
    r0.diverged = 2;
    r0.J.fill(NaN, 2);
    const r = parse(plan, live);
    expect(r.hotChanges).toEqual([{ iteration: 2, path: 'optimizer.lr', from: 1, to: 0.5 }]);
    // the config the run started from, with the change made while it ran
    expect(r.config).toEqual({ ...CONFIG, changes: [{ at: 2, path: 'optimizer.lr', value: 0.5 }] });
    expect(r.configReproduces).toBe(true);
    expect(r.algorithms[0].runs[0].diverged).toBe(2);
    expect(r.algorithms[0].runs[0].J.slice(2)).toEqual([null, null]);
  });
});

describe('Import config reads the page’s own exported JSON', () => {
  it('round trip: export the result JSON, import it, get the same experiment', async () => {
    const { importConfig } = await import('../src/core/config/import-file');
    const config = { ...CONFIG, executor: 'cpu', changes: [{ at: 1, path: 'optimizer.lr', value: 0.5 }] };
    const { plan, live } = computed(config);
    const text = resultsJson(plan, live, META);
    expect(JSON.parse(text).backend).toBeNull(); // what made the import fail: a result's own fields are not config fields
    const r = importConfig(text);
    if (!r.ok) throw new Error(r.message);
    expect(r.config).toEqual(config);
    expect(r.exp).toEqual(planExperiment(config, 1).exp); // (plan.exp itself has the scheduled lr applied by the run)
  });

  it('a result without a config (the CLI prints none) is refused with what to import instead', async () => {
    const { importConfig } = await import('../src/core/config/import-file');
    const { plan, live } = computed();
    const { config: _, ...bare } = JSON.parse(resultsJson(plan, live, META));
    const r = importConfig(JSON.stringify(bare));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^config: this is a result file without the config/);
  });

  it('a bad field inside an exported result is named by its path in the file', async () => {
    const { importConfig } = await import('../src/core/config/import-file');
    const { plan, live } = computed();
    const result = JSON.parse(resultsJson(plan, live, META));
    result.config.iterations = -3;
    const r = importConfig(JSON.stringify(result));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^config\.iterations: /);
  });
});
