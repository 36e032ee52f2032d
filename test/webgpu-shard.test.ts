import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { kernelSource } from '../src/exec/webgpu/kernel';
import { ALGO_WORDS, recordWords, scratchWords, turnTableOffsets } from '../src/exec/webgpu/layout';
import { MAX_K, WebGpuShard } from '../src/exec/webgpu/shard';
import { webgpuUnsupported } from '../src/core/config/webgpu-support';
import { fakeDevice, type Log } from './support/fake-gpu';

// The WebGPU executor's host side without a GPU (Node has none): a recording stand-in for the
// device checks the buffer lifecycle (every buffer destroyed, none made per iteration), one
// dispatch and one read back per step, K iterations per dispatch cut at scheduled changes, and
// the algorithm records rewritten when a change applies. The kernel's numbers are checked
// against the CPU executor in Chromium (e2e/webgpu.spec.ts).

beforeAll(() => {
  Object.assign(globalThis, { GPUBufferUsage: { STORAGE: 128, COPY_DST: 8, COPY_SRC: 4, UNIFORM: 64, MAP_READ: 1 }, GPUMapMode: { READ: 1 } });
});
afterAll(() => {
  delete (globalThis as Record<string, unknown>).GPUBufferUsage;
  delete (globalThis as Record<string, unknown>).GPUMapMode;
});

const config = (extra: Record<string, unknown> = {}) => ({
  version: 1,
  env: { preset: 'lock' },
  mode: 'exact',
  iterations: 40,
  seeds: 3,
  executor: 'webgpu',
  algorithms: [{ id: 'seeupo' }, { id: 'grpo' }],
  ...extra,
});

describe('WebGPU executor: the host side', () => {
  it('makes its buffers once, none per iteration, and destroys every one', async () => {
    const log: Log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [] };
    const exp = resolveConfig(config());
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice(log));
    await shard.init();
    const made = log.created;
    expect(made).toBeGreaterThan(5);
    let steps = 0;
    while (!shard.done) {
      await shard.step(7);
      steps++;
    }
    expect(log.created).toBe(made); // nothing per iteration
    expect(steps).toBe(Math.ceil(40 / 7));
    expect(log.dispatches).toBe(steps);
    expect(log.maps).toBe(steps); // one read back per dispatch
    expect(shard.dispatches).toBe(steps);
    expect(shard.readbacks).toBe(steps);
    expect(log.K).toEqual([7, 7, 7, 7, 7, 5]);
    shard.dispose();
    shard.dispose();
    expect(log.destroyed).toBe(made);
    expect(await shard.step(1)).toBe(0); // nothing after dispose
  });

  it('keeps the next dispatch in flight as far as upTo: read back by the next step, into a second staging buffer made once; settle records it', async () => {
    const log: Log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [] };
    const exp = resolveConfig(config());
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice(log));
    await shard.init();
    const made = log.created;
    shard.msPerIteration = 10; // suggestedK() = 10
    expect(await shard.step(10, 25)).toBe(10); // [0, 10) read back, [10, 20) in flight
    expect([shard.iteration, shard.inFlight, log.K, log.maps]).toEqual([10, true, [10, 10], 2]);
    expect(log.created).toBe(made + 1);
    expect(await shard.step(3, 25)).toBe(10); // the one in flight (its k unused); [20, 25) goes in, not past upTo
    expect([shard.iteration, log.K]).toEqual([20, [10, 10, 5]]);
    await shard.settle();
    expect([shard.iteration, shard.inFlight, shard.readbacks]).toEqual([25, false, 3]);
    await shard.settle(); // nothing in flight: nothing to do
    expect(await shard.step(7)).toBe(7); // without upTo: one dispatch, nothing ahead
    expect([shard.iteration, shard.inFlight, log.created]).toEqual([32, false, made + 1]);
    expect(await shard.step(7, 40)).toBe(7);
    shard.dispose(); // a dispatch in flight is dropped, never read
    expect(shard.readbacks).toBe(5);
    expect(log.destroyed).toBe(log.created);
  });

  it('cuts a dispatch at a scheduled change and rewrites the runs’ learning rates there', async () => {
    const log: Log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [] };
    const exp = resolveConfig(config({ changes: [{ at: 10, path: 'optimizer.lr', value: 2 }] }));
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice(log));
    await shard.init();
    const algoWrites = () => log.writes.filter((w) => w.bytes === ALGO_WORDS * 4 * 6).length;
    const before = algoWrites();
    expect(await shard.step(MAX_K)).toBe(10);
    expect(algoWrites()).toBe(before);
    expect(exp.optimizer.lr).not.toBe(2);
    expect(await shard.step(MAX_K)).toBe(30);
    expect(exp.optimizer.lr).toBe(2);
    expect(algoWrites()).toBe(before + 1);
    shard.dispose();
  });

  it('a dispatch the device refuses is an error, never records read back as numbers', async () => {
    const log: Log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [], refuse: { message: 'copy source lacks COPY_SRC' } };
    const exp = resolveConfig(config());
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice(log));
    await shard.init();
    await expect(shard.step(4)).rejects.toThrow('the WebGPU dispatch was refused: copy source lacks COPY_SRC');
    // the read back waits with the error scope (one round trip): it may have mapped, but is unmapped again and nothing recorded
    expect(log.unmaps ?? 0).toBe(log.maps);
    expect(shard.iteration).toBe(0);
    expect(shard.series[0]!.J[1]).toBeNaN();
    shard.dispose();
  });

  it('slices the runs over several dispatches when one iteration of all of them is slow, still one read back', async () => {
    const log: Log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [], params: [] };
    const exp = resolveConfig(config({ seeds: 100, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }, { id: 'reinforce' }] })); // 300 runs
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice(log));
    await shard.init();
    expect(shard.runSlice()).toBe(300);
    shard.msPerIteration = 100; // one iteration of all 300 runs: 100 ms, DISPATCH_MS is 30
    expect(shard.runSlice()).toBe(88); // 300·30/100 = 90 → a multiple of the workgroup size (4 for 300 runs)
    await shard.step(1);
    expect(log.params).toEqual([[0, 88], [88, 176], [176, 264], [264, 300]]);
    expect(log.dispatches).toBe(4);
    expect(log.maps).toBe(1);
    shard.msPerIteration = 10;
    expect(shard.runSlice()).toBe(300);
    shard.dispose();
  });

  it('sizes workgroups so that few runs still spread over 64 workgroups or more', async () => {
    const { workgroupSize } = await import('../src/exec/webgpu/kernel');
    expect([1, 100, 144, 300, 1024, 2304, 4032, 4096, 16384].map(workgroupSize)).toEqual([4, 4, 4, 4, 16, 32, 32, 64, 64]);
    const exp = resolveConfig(config({ seeds: 72, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] })); // 144 runs
    const log: Log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [] };
    const device = fakeDevice(log);
    let code = '';
    const make = device.createShaderModule.bind(device);
    device.createShaderModule = (d: GPUShaderModuleDescriptor) => ((code = d.code), make(d));
    const shard = new WebGpuShard(exp, allRuns(exp), device);
    await shard.init();
    expect(code).toContain('@compute @workgroup_size(4)');
    shard.dispose();
  });

  it('sizes a dispatch from the last one’s time, within 1 … MAX_K', async () => {
    const exp = resolveConfig(config());
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice({ created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [] }));
    await shard.init();
    expect(shard.suggestedK()).toBe(1);
    shard.msPerIteration = 3;
    expect(shard.suggestedK()).toBe(33); // READBACK_MS is 100
    shard.msPerIteration = 1e-6;
    expect(shard.suggestedK()).toBe(MAX_K);
    shard.msPerIteration = 500;
    expect(shard.suggestedK()).toBe(1);
    shard.dispose();
  });

  it('records iteration 0 on the host in float64, exactly as the CPU executor does', async () => {
    const exp = resolveConfig(config({ policy: { kind: 'tabular', initScale: 0.4 } }));
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice({ created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [] }));
    await shard.init();
    const { CpuShard } = await import('../src/exec/cpu/shard');
    const cpu = new CpuShard(resolveConfig(config({ policy: { kind: 'tabular', initScale: 0.4 }, executor: 'cpu' })), allRuns(exp));
    expect(shard.series.map((s) => s.J[0])).toEqual(cpu.series.map((s) => s.J[0]));
    expect(new Set(shard.series.map((s) => s.J[0])).size).toBeGreaterThan(1); // seeds start apart
    shard.dispose();
  });

  it('J_γ: recorded where the learners maximize it, iteration 0 on the host (hand-computed at the uniform policy)', async () => {
    // 2 turns, V = 2: turn-1 rewards [0, 0.2] by first token, terminal [0, 1, 0, 0.5], γ = 0.5:
    // J_γ per sequence = r_1 + γ·r_T = 0, 0.5, 0.2, 0.45 (mean 0.2875); J = 0, 1, 0.2, 0.7 (mean 0.475)
    const env = { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1, 0, 0.5]], turnRewards: [[[0, 0.2]]], gamma: 0.5 };
    const exp = resolveConfig(config({ env, policy: { kind: 'tabular', initScale: 0 } }));
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice());
    await shard.init();
    for (const s of shard.series) {
      expect(s.J[0]).toBeCloseTo(0.475, 12);
      expect(s.Jgamma![0]).toBeCloseTo(0.2875, 12);
    }
    await shard.step(1); // the stand-in device reads back zeros: J_γ comes from the record (NaN if it were not read)
    expect(shard.series[0]!.Jgamma![1]).toBe(0);
    shard.dispose();
    const plain = resolveConfig(config({ env: { ...env, gamma: 1 } })); // γ = 1: J_γ is J, nothing extra kept
    const shard1 = new WebGpuShard(plain, allRuns(plain), fakeDevice());
    await shard1.init();
    expect(shard1.series[0]!.Jgamma).toBeUndefined();
    shard1.dispose();
  });

  it('a table shared across contexts: one table of logits, one optimal path; iteration 0 is the CPU executor’s', async () => {
    const cfg = config({ env: { preset: 'two-prompts' }, policy: { kind: 'tabular', initScale: 0.5, shareContexts: true } });
    const exp = resolveConfig(cfg);
    let code = '';
    const device = fakeDevice();
    const make = device.createShaderModule.bind(device);
    device.createShaderModule = (d: GPUShaderModuleDescriptor) => ((code = d.code), make(d));
    const shard = new WebGpuShard(exp, allRuns(exp), device);
    await shard.init();
    expect(code).toContain('const SHARED = true;');
    expect(code).toContain('const PG = 13u;'); // one context's nodes: 1 + 3 + 9
    expect(code).toContain('const G = 26u;'); // values and reach stay per context
    const { CpuShard } = await import('../src/exec/cpu/shard');
    const cpu = new CpuShard(resolveConfig({ ...cfg, executor: 'cpu' }), allRuns(exp));
    expect(shard.series.map((s) => s.J[0])).toEqual(cpu.series.map((s) => s.J[0]));
    expect(shard.series.map((s) => s.Jcontext[0]![0])).toEqual(cpu.series.map((s) => s.Jcontext[0]![0]));
    expect(shard.Jstar).toBe(cpu.pb.opt.Jstar);
    shard.dispose();
  });

  it('a run’s snapshot, cut where the layout puts it, is the CPU executor’s logits and an Adam block of m, v and a step count per turn', async () => {
    const cfg = config({ env: { preset: 'two-prompts' }, policy: { kind: 'tabular', initScale: 0.5 }, optimizer: { kind: 'adam', lr: 0.05 } });
    const exp = resolveConfig(cfg);
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice(), 1, true);
    await shard.init();
    const { CpuShard } = await import('../src/exec/cpu/shard');
    const cpu = new CpuShard(resolveConfig({ ...cfg, executor: 'cpu' }), allRuns(exp));
    const snap = shard.runSnapshot(3);
    expect(snap.logits.length).toBe(cpu.pb.params);
    expect([...snap.logits]).toEqual([...Float32Array.from(cpu.runs[3]!.theta)]);
    expect(snap.adam!.m.length).toBe(cpu.pb.params);
    expect(snap.adam!.v.length).toBe(cpu.pb.params);
    expect(snap.adam!.steps.length).toBe(3);
    shard.dispose();
  });

  it('the kernel source bakes in the shape; the scratch and record sizes follow it', () => {
    const shape = { sampled: false, B: 2, G: 8, contexts: 2, V: 3, N: 3, L: 1, T: 3, nodesPerContext: 13, offset: [0, 1, 4, 13], S: 27, gamma: 0.9, perTurn: false, mlp: null };
    const src = kernelSource(shape);
    for (const c of ['C = 2u', 'V = 3u', 'N = 3u', 'L = 1u', 'T = 3u']) expect(src).toContain(`const ${c};`);
    expect(src).toContain('array<u32, 4>(0u, 1u, 4u, 13u)');
    expect(recordWords(shape)).toBe(6 + 3 + 2);
    expect(recordWords({ ...shape, contexts: 1 })).toBe(9);
    // θ_old and grad (2·26·3), logZ, logZ_old, gsum, reach (4·26), w, adv, M, perm (4·54 sequences), mean and var (2·2),
    // token advantages, log π_old and targets (3·54·3), node values and the critic's gradient (2·26), group Σ(R − R̄)² (2)
    // per-turn rewards: turn rewards and rewards-to-go (2·54·3), terminal rewards (54), turn means (2·3), σ (1)
    expect(scratchWords(shape)).toBe(2 * 78 + 4 * 26 + 4 * 54 + 4 + 3 * 54 * 3 + 2 * 26 + 2 + 2 * 54 * 3 + 54 + 2 * 3 + 1);
    // sampled: 16 rollouts, plus tokens and nodes (2·16·3), rewards (16) and the batch's contexts (2)
    expect(scratchWords({ ...shape, sampled: true })).toBe(2 * 78 + 4 * 26 + 4 * 16 + 4 + 3 * 16 * 3 + 2 * 26 + 2 + 2 * 16 * 3 + 16 + 2 * 3 + 1 + 2 * 16 * 3 + 16 + 2);
    expect(turnTableOffsets({ V: 3, L: 2, T: 3 })).toEqual({ offsets: [0, 9], total: 9 + 81 });
    expect(src).toContain('const GAMMA = 0.9;');
    expect(kernelSource({ ...shape, gamma: 1 })).toContain('const GAMMA = 1.0;');
    expect(kernelSource({ ...shape, sampled: true })).toContain('fn fillBatch() -> f32 {\n  chooseContexts();');
  });

  it('refuses up front, naming the field, what the kernel does not run', () => {
    const why = (extra: Record<string, unknown>) => webgpuUnsupported(resolveConfig(config({ executor: 'auto', ...extra })))?.path ?? null;
    expect(why({})).toBeNull();
    expect(why({ mode: 'sampled', algorithms: [{ id: 'seeupo-random' }, { id: 'rloo' }, { id: 'ppo-gae' }] })).toBeNull();
    expect(why({ policy: { kind: 'mlp' } })).toBeNull();
    expect(why({ policy: { kind: 'mlp', hidden: [200, 57] } })).toBe('policy.hidden');
    expect(why({ mode: 'sampled', policy: { kind: 'mlp' }, env: { preset: 'lock', vocab: 8, turns: 6 } })).toBe('env');
    const turnRewards = { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1, 0, 0.5]], turnRewards: [[[0, 0.2]]] };
    expect(why({ env: turnRewards })).toBeNull();
    expect(() => resolveConfig(config({ policy: { kind: 'mlp', hidden: [300] } }))).toThrow(/^policy\.hidden: the WebGPU executor runs an MLP of at most 256 hidden units in all, got 300; use executor "tensor" or "auto"$/);
  });
});

describe('auto and the WebGPU adapter', () => {
  const four = [{ id: 'seeupo' }, { id: 'grpo' }, { id: 'reinforce' }, { id: 'gspo' }];
  const exp = (seeds: number, extra: Record<string, unknown> = {}) => resolveConfig(config({ executor: 'auto', seeds, algorithms: four, ...extra }));
  it('a hardware adapter takes large tabular exact-mode experiments the kernel runs; a software one never', async () => {
    const { chooseExecutor, WEBGPU_AUTO_RUNS } = await import('../src/core/run/choose');
    const big = Math.ceil(WEBGPU_AUTO_RUNS / 4); // four algorithms
    expect(chooseExecutor(exp(big), 'hardware').executor).toBe('webgpu');
    expect(chooseExecutor(exp(big), 'hardware').reason).toMatch(/^tabular policy, 2,304 runs and a hardware WebGPU adapter/);
    expect(chooseExecutor(exp(big - 1), 'hardware').executor).toBe('cpu');
    expect(chooseExecutor(exp(big, { policy: { kind: 'mlp' }, iterations: 5 }), 'hardware').executor).toBe('tensor'); // auto keeps the MLP on the tensor executor
    expect(chooseExecutor(exp(big), 'software')).toEqual({ executor: 'cpu', reason: expect.stringMatching(/the WebGPU adapter here is a software one/) });
    expect(chooseExecutor(exp(big), null).executor).toBe('cpu'); // Node, or no adapter
    expect(chooseExecutor(exp(big, { executor: 'cpu' }), 'hardware').executor).toBe('cpu');
  });
});
