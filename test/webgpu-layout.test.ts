import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALGORITHM_PRESETS } from '../src/core/algo/records';
import { resolveConfig } from '../src/core/config/resolve';
import { ESTIMATORS, NORMALIZATIONS, OPTIMIZERS, RATIO_LEVELS, RULES, TURN_ORDERS, TURN_RATIOS } from '../src/core/options';
import { allRuns } from '../src/core/run/partition';
import { buildProblem } from '../src/exec/host/problem';
import { kernelSource, usesPrivateState } from '../src/exec/webgpu/kernel';
import { ALGO_FIELDS, ALGO_WORDS, kernelLayout, layoutConstants, optionConstant, packAlgos, SCRATCH, type KernelShape } from '../src/exec/webgpu/layout';
import { packItab, packTables } from '../src/exec/webgpu/pack';
import { WebGpuShard } from '../src/exec/webgpu/shard';

// The kernel's layout (src/exec/webgpu/layout.ts) is the one description the WGSL and the host
// share. Here: the constants the generated WGSL declares are the layout's, none written by hand;
// the host packs each section where the layout puts it; the algorithm record's codes are the
// option lists' indices; and every kernel shape compiles in Node with Dawn's WGSL compiler (Tint),
// so a kernel that does not compile fails here and not only in Chromium.

const base: KernelShape = { sampled: false, B: 2, G: 8, contexts: 2, V: 3, N: 3, L: 1, T: 3, nodesPerContext: 13, offset: [0, 1, 4, 13], S: 27, gamma: 0.9, perTurn: false, mlp: null };
const tokens: Partial<KernelShape> = { V: 2, N: 4, L: 2, T: 2, nodesPerContext: 15, offset: [0, 1, 3, 7, 15], S: 16 }; // two tokens per turn
const MLPS = [null, { layers: [14, 16, 8, 3], activation: 'tanh' as const }, { layers: [14, 32, 3], activation: 'relu' as const }, { layers: [14, 3], activation: 'tanh' as const }];

/**
 * Every kernel shape: exact and sampled, per-turn rewards or not, one or two contexts, one or two
 * tokens per turn, a table or an MLP of each kind; and a table shared across two contexts, with and
 * without J_γ recorded.
 */
function allShapes(): KernelShape[] {
  const out: KernelShape[] = [];
  for (const sampled of [false, true])
    for (const perTurn of [false, true])
      for (const tok of [{}, tokens]) out.push({ ...base, ...tok, sampled, perTurn, gamma: perTurn ? 0.8 : 1, shared: true, discounted: perTurn });
  for (const sampled of [false, true])
    for (const perTurn of [false, true])
      for (const contexts of [1, 2])
        for (const tok of [{}, tokens])
          for (const mlp of MLPS) {
            const s = { ...base, ...tok, sampled, perTurn, contexts, B: Math.min(2, contexts), gamma: perTurn ? 0.8 : 1 };
            // the MLP's input: context one-hot, turn one-hot, position, previous tokens (host/mlp.ts)
            const input = contexts + s.T + 1 + (s.N - 1) * s.V;
            out.push({ ...s, mlp: mlp && { ...mlp, layers: [input, ...mlp.layers.slice(1, -1), s.V] } });
          }
  return out;
}

/** Every `const NAME = <n>u;` the source declares. */
function declared(src: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of src.matchAll(/\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*(\d+)u\s*;/g)) out.set(m[1]!, [...(out.get(m[1]!) ?? []), Number(m[2])]);
  return out;
}

describe('the WebGPU kernel layout', () => {
  it('the WGSL declares every layout constant once, with the layout’s value, and no offset or code of its own', () => {
    for (const s of allShapes()) {
      const src = kernelSource(s);
      const got = declared(src);
      const want = layoutConstants(s);
      for (const [name, v] of want) expect([name, got.get(name)]).toEqual([name, [v]]);
      // an offset, size or code constant in the WGSL that the layout does not declare was written by hand
      const own = [...got.keys()].filter((n) => !want.has(n) && /^(S|R|A|I|AD|TH|RULE|RATIO|ORDER|NORM|ADV|TURN_RATIO|OPTIMIZER|NOISE)_|^(SW|TH|ADAMW|REC|AW|TERM0|TT0|TG0|TR0|RET0|NVAR0|DISC0)$/.test(n));
      expect(own).toEqual([]);
    }
  });

  it('scratch: the sections follow one another and add up to the words counted by hand', () => {
    const s = { ...base, perTurn: true };
    const { at, total } = kernelLayout(s).scratch;
    const R = 2 * 27; // every sequence of both contexts
    const G = 26;
    expect(at.S_OLD).toBe(0);
    expect(at.S_GRAD).toBe(78);
    expect(at.S_W).toBe(2 * 78 + 4 * G);
    expect(at.S_ADVT).toBe(at.S_W! + 4 * R + 2 * 2);
    expect(at.S_LPO).toBe(at.S_ADVT! + R * 3); // log π_old per token, after the token advantages
    expect(at.S_TM).toBe(at.S_TRW! + 2 * R * 3 + R);
    expect(at.S_WG).toBe(total);
    expect(total).toBe(2 * 78 + 4 * G + 4 * R + 2 * 2 + 3 * R * 3 + 2 * G + 2 + 2 * R * 3 + R + 2 * 3 + 1);
    const sizes = SCRATCH.map((sec) => sec.words(s));
    expect(sizes.every((w) => w >= 0)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('the host packs every table where the layout puts it', () => {
    const exp = resolveConfig({ version: 1, env: { preset: 'lock', gamma: 0.8, turnRewards: [[[0.1, 0, 0.05], [0.02, 0, 0, 0.2, 0, 0, 0, 0, 0.05]]], noise: { kind: 'gaussian', sigma: 0.3 } }, mode: 'exact', algorithms: [{ id: 'grpo' }] });
    const pb = buildProblem(exp);
    const { tree, env } = pb;
    const s: KernelShape = { ...base, contexts: 1, V: tree.V, N: tree.N, L: tree.L, T: tree.T, nodesPerContext: tree.nodesPerContext, offset: Array.from(tree.offset), S: tree.sequences, gamma: 0.8, perTurn: true };
    const tables = packTables(pb, s);
    const { at, total } = kernelLayout(s).tables;
    expect(tables.length).toBe(total);
    const q = 17;
    expect(tables[at.RET0! + q]).toBeCloseTo(env.returns[0]![q]!, 6);
    expect(tables[at.TERM0! + q]).toBeCloseTo(env.rewards[0]![q]!, 6);
    expect(tables[at.NVAR0! + q]).toBeCloseTo(0.09, 6);
    expect(tables[at.NOISE!]).toBe(1); // NOISE_KINDS.indexOf('gaussian')
    expect(tables[at.NOISE! + 1]).toBeCloseTo(0.3, 6);
    expect([...tables.subarray(at.DISC0!, at.DISC0! + 3)].map((v) => +v.toFixed(6))).toEqual([0.64, 0.8, 1]);
    expect(tables[at.TT0! + 3 + 3]).toBeCloseTo(0.2, 6); // turn 2's table (after turn 1's 3 entries), prefix 3
    expect(tables[at.TG0! + q * 3]).toBeCloseTo(pb.enumeration!.togo[q * 3]!, 6);
    expect(tables[at.TR0! + q * 3 + 1]).toBeCloseTo(pb.enumeration!.turnReward[q * 3 + 1]!, 6);
    const itab = packItab(pb, s);
    const il = kernelLayout(s).itab;
    expect(itab.length).toBe(il.total);
    expect(itab[il.at.I_NODE! + q * tree.N + 2]).toBe(pb.enumeration!.node[q * tree.N + 2]);
    expect(itab[il.at.I_TOK! + q * tree.N + 2]).toBe(pb.enumeration!.tok[q * tree.N + 2]);
    expect([...itab.subarray(il.at.I_PATH!, il.at.I_PATH! + tree.N)]).toEqual([...pb.opt.path[0]!]);
  });

  it('the algorithm record: option codes are the option lists’ indices, flags 1/0, absent numbers −1', () => {
    const lists: Record<string, readonly string[]> = { A_RULE: RULES, A_RATIO: RATIO_LEVELS, A_ORDER: TURN_ORDERS, A_NORM: NORMALIZATIONS, A_ADV: ESTIMATORS, A_TURN_RATIO: TURN_RATIOS, A_OPTIMIZER: OPTIMIZERS };
    for (const [name, list] of Object.entries(lists)) expect(ALGO_FIELDS.find((f) => f.name === name)?.options).toBe(list);
    const ids = Object.keys(ALGORITHM_PRESETS);
    const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, optimizer: { kind: 'adam', lr: 0.05 }, algorithms: ids.map((id) => ({ id })) });
    exp.algorithms[0]!.mClip = 0.25;
    const w = packAlgos(exp, ids.map((_, i) => i));
    const field = (r: number, name: string) => w[r * ALGO_WORDS + ALGO_FIELDS.findIndex((f) => f.name === name)];
    const consts = layoutConstants(base);
    ids.forEach((id, r) => {
      const a = exp.algorithms[r]!;
      expect(field(r, 'A_RULE')).toBe(consts.get(optionConstant('RULE', a.rule)));
      expect(field(r, 'A_RULE')).toBe(RULES.indexOf(a.rule));
      expect(field(r, 'A_ADV')).toBe(ESTIMATORS.indexOf(a.advantage));
      expect(field(r, 'A_NORM')).toBe(NORMALIZATIONS.indexOf(a.normalization));
      expect(field(r, 'A_ORDER')).toBe(TURN_ORDERS.indexOf(a.order));
      expect(field(r, 'A_MCORR')).toBe(a.mCorrection ? 1 : 0);
      expect(field(r, 'A_OPTIMIZER')).toBe(1);
      expect(field(r, 'A_MCLIP')).toBeCloseTo(a.mClip ?? -1, 6);
      expect(field(r, 'A_CRITIC_LR')).toBe(-1);
      expect(field(r, 'A_LR')).toBeCloseTo(0.05, 7);
      void id;
    });
    expect(consts.get('RULE_SEQUENTIAL')).toBe(2);
    expect(consts.get('NORM_BATCH')).toBe(2);
    expect(consts.get('ADV_GAE')).toBe(2);
    expect(consts.get('NOISE_BERNOULLI')).toBe(2);
    exp.algorithms[1]!.rule = 'ppo' as never;
    expect(() => packAlgos(exp, [1])).toThrow('A_RULE: ppo is not one of reinforce, ppu, sequential');
  });
});

// ---- the WGSL compiler: Dawn's Node binding, on its null backend (it compiles and validates; it runs nothing) ----

type Dawn = { gpu: GPU; globals: Record<string, unknown> };
const dawn: Dawn | { error: string } = await import('webgpu')
  .then((m) => ({ gpu: m.create(['backend=null']), globals: m.globals as Record<string, unknown> }))
  .catch((e: unknown) => ({ error: String(e).slice(0, 200) }));
const skipWhy = 'error' in dawn ? `the webgpu package (Dawn's Node binding) does not load on this platform: ${dawn.error}` : '';

describe.skipIf(!!skipWhy)(`the WebGPU kernel compiles with Tint (Dawn in Node)${skipWhy ? ` — SKIPPED: ${skipWhy}` : ''}`, () => {
  let device: GPUDevice;
  const saved: Record<string, unknown> = {};
  beforeAll(async () => {
    const d = dawn as Dawn;
    for (const k of ['GPUBufferUsage', 'GPUMapMode', 'GPUShaderStage']) saved[k] = (globalThis as Record<string, unknown>)[k];
    Object.assign(globalThis, { GPUBufferUsage: d.globals.GPUBufferUsage, GPUMapMode: d.globals.GPUMapMode });
    const adapter = await d.gpu.requestAdapter();
    if (!adapter) throw new Error('Dawn gave no null adapter');
    device = await adapter.requestDevice();
  });
  afterAll(() => {
    device?.destroy();
    Object.assign(globalThis, saved);
  });

  /** Tint's errors for the source, as "line:column message". */
  async function compileErrors(code: string): Promise<string[]> {
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    await device.popErrorScope();
    return info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
  }

  it('reports a WGSL type error with its line and column', async () => {
    expect(await compileErrors('const A = 1u;\nfn f() { let x: f32 = A; }')).toEqual([expect.stringMatching(/^2:14 .*'f32'.*'u32'/)]);
  });

  it('every kernel shape compiles (exact and sampled, per-turn rewards, contexts, tokens per turn, tables and MLPs)', async () => {
    const shapes = allShapes();
    expect(shapes.length).toBe(72);
    // both kinds of kernel: on private copies of each run's state (tables, small MLPs), and on the storage buffers (larger MLPs)
    expect(new Set(shapes.map(usesPrivateState))).toEqual(new Set([true, false]));
    for (const s of shapes) {
      const errors = await compileErrors(kernelSource(s));
      expect({ shape: { sampled: s.sampled, perTurn: s.perTurn, contexts: s.contexts, L: s.L, mlp: s.mlp, shared: s.shared }, errors: errors.slice(0, 3) }).toEqual({ shape: expect.anything(), errors: [] });
    }
  });

  // Whole experiments through the executor's host side: the kernel compiled into a pipeline, every
  // buffer bound to it (Dawn validates the bind group against the kernel's bindings), every
  // algorithm's record written. The algorithm is data the kernel reads at run time, so one
  // pipeline serves every rule, advantage, normalization, order, ratio and optimizer.
  const every = Object.keys(ALGORITHM_PRESETS).map((id) => ({ id }));
  const experiments: [string, Record<string, unknown>][] = [
    ['exact, every algorithm, SGD', { env: { preset: 'lock' }, mode: 'exact' }],
    ['sampled, two contexts, every algorithm, Adam', { env: { preset: 'two-prompts' }, mode: 'sampled', optimizer: { kind: 'adam', lr: 0.05 } }],
    ['exact, per-turn rewards', { env: { preset: 'lock', gamma: 0.8, turnRewards: [[[0.1, 0, 0.05], [0.02, 0, 0, 0.2, 0, 0, 0, 0, 0.05]]] }, mode: 'exact' }],
    ['sampled, per-turn rewards, Bernoulli noise', { env: { preset: 'lock', gamma: 0.8, noise: { kind: 'bernoulli' }, turnRewards: [[[0.1, 0, 0.05], [0.02, 0, 0, 0.2, 0, 0, 0, 0, 0.05]]] }, mode: 'sampled' }],
    ['exact, two tokens per turn', { env: { preset: 'tokens' }, mode: 'exact' }],
    ['exact, one table shared by two contexts, per-turn rewards (J_γ)', { env: { preset: 'two-prompts', gamma: 0.8, turnRewards: [[[0.1, 0, 0.05], [0, 0, 0, 0.2, 0, 0, 0, 0, 0]], [[0, 0.3, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0.1]]] }, policy: { kind: 'tabular', shareContexts: true }, mode: 'exact' }],
    ['sampled, one table shared by two contexts, Adam', { env: { preset: 'two-prompts' }, policy: { kind: 'tabular', shareContexts: true }, mode: 'sampled', optimizer: { kind: 'adam', lr: 0.05 } }],
    ['exact, MLP, Adam', { env: { preset: 'two-prompts' }, mode: 'exact', policy: { kind: 'mlp', hidden: [16, 8] }, optimizer: { kind: 'adam', lr: 0.01 } }],
    ['sampled, MLP relu', { env: { preset: 'lock' }, mode: 'sampled', policy: { kind: 'mlp', hidden: [32], activation: 'relu' } }],
  ];
  for (const [name, cfg] of experiments)
    it(`the executor builds its pipeline and bind group: ${name}`, async () => {
      const exp = resolveConfig({ version: 1, seeds: 2, iterations: 3, executor: 'webgpu', algorithms: every, ...cfg });
      device.pushErrorScope('validation');
      const shard = new WebGpuShard(exp, allRuns(exp), device);
      await shard.init();
      const invalid = await device.popErrorScope();
      expect(invalid?.message ?? null).toBeNull();
      shard.dispose();
    });
});
