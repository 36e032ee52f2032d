import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { buildResult } from '../src/core/run/result';
import {
  expandSlots,
  makeRunSeries,
  slotCount,
  slotOf,
  storageStride,
  STORED_POINTS,
  storedAtOrBefore,
  storedUpTo,
  truncateSeries,
} from '../src/core/run/series';
import { UPDATE_METRICS } from '../src/core/metrics/names';
import { CpuShard } from '../src/exec/cpu/shard';
import { packBlock, unpackBlock } from '../src/worker/series-block';

// Long runs store metrics other than J every `every` iterations (and the last): what is stored
// must be exactly the full-resolution values at those iterations, and J stays complete.

const CONFIG = { version: 1, env: { preset: 'lock' }, mode: 'sampled', iterations: 23, seeds: 2, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] };

describe('stored points', () => {
  it('stride: a power of two keeping 0..iterations within STORED_POINTS values', () => {
    expect(storageStride(200)).toBe(1);
    expect(storageStride(STORED_POINTS - 1)).toBe(1);
    expect(storageStride(STORED_POINTS)).toBe(2);
    expect(storageStride(10_000)).toBe(8);
    expect(storageStride(100_000)).toBe(64);
    for (const n of [1, 7, 2047, 2048, 5000, 10_000, 65_537, 100_000]) {
      const e = storageStride(n);
      expect(slotCount(n, e)).toBeLessThanOrEqual(STORED_POINTS + 1);
      if (e > 1) expect(Math.floor(n / (e / 2)) + 1).toBeGreaterThan(STORED_POINTS);
    }
  });

  it('slots: multiples of every, then the last index', () => {
    expect(slotCount(10, 4)).toBe(4); // 0 4 8 10
    expect(slotCount(8, 4)).toBe(3); // 0 4 8
    expect([0, 1, 4, 7, 8, 9, 10].map((k) => slotOf(k, 10, 4))).toEqual([0, -1, 1, -1, 2, -1, 3]);
    expect([0, 3, 9, 10].map((k) => storedAtOrBefore(k, 10, 4))).toEqual([0, 0, 8, 10]);
    expect([-1, 0, 3, 4, 9, 10].map((m) => storedUpTo(m, 10, 4))).toEqual([0, 1, 1, 2, 3, 4]);
    expect(Array.from(expandSlots(Float64Array.from([1, 2, 3, 4]), 10, 4))).toEqual([1, NaN, NaN, NaN, 2, NaN, NaN, NaN, 3, NaN, 4]);
    const exp = resolveConfig(CONFIG);
    const s = makeRunSeries(exp, 0, 0, 4);
    expect([s.J.length, s.entropy.length, s.kl.length, s.optimalTokenProb[0].length]).toEqual([24, 7, 7, 7]); // 0..20 step 4, 23 | 0..20, 22
  });

  it('a decimated shard stores exactly the full shard’s values at the kept iterations; J complete', () => {
    const exp = resolveConfig(CONFIG);
    const full = new CpuShard(exp, allRuns(exp));
    const dec = new CpuShard(resolveConfig(CONFIG), allRuns(exp), 4);
    while (!full.done) full.step();
    while (!dec.done) dec.step();
    const n = exp.iterations;
    full.series.forEach((f, r) => {
      const d = dec.series[r];
      expect(Array.from(d.J)).toEqual(Array.from(f.J));
      for (let k = 0; k <= n; k++) {
        const j = slotOf(k, n, 4);
        if (j >= 0) expect([d.entropy[j], d.optimalTokenProb[2][j]]).toEqual([f.entropy[k], f.optimalTokenProb[2][k]]);
      }
      for (let k = 0; k < n; k++) {
        const j = slotOf(k, n - 1, 4);
        if (j >= 0) for (const m of UPDATE_METRICS.filter((m) => m !== 'wallMs')) expect(d[m][j]).toBe(f[m][k]);
      }
    });
  });

  it('blocks carry the stored points only, and round-trip them in pieces', () => {
    const exp = resolveConfig(CONFIG);
    const shard = new CpuShard(exp, allRuns(exp), 4);
    while (!shard.done) shard.step();
    const copies = shard.series.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex, 4));
    let total = 0;
    for (const [from, to] of [[-1, 0], [0, 5], [5, 16], [16, 23]]) {
      const block = packBlock(shard.series, from, to, 3);
      total += block.length;
      unpackBlock(block, copies, from, to, 3);
    }
    // per run: 24 J + 7 evaluations (0 4 … 20 23) × (1 + 3) + 7 updates (0 4 … 20 22) × 5
    expect(total).toBe(4 * (24 + 7 * 4 + 7 * 5));
    copies.forEach((c, r) => {
      const s = shard.series[r];
      for (const key of ['J', 'entropy', 'kl', 'gradNorm', 'wallMs'] as const) expect(Array.from(c[key])).toEqual(Array.from(s[key]));
      expect(Array.from(c.optimalTokenProb[1])).toEqual(Array.from(s.optimalTokenProb[1]));
    });
  });

  it('the result spreads decimated metrics over every iteration (null between) and says metricsEvery', () => {
    const exp = resolveConfig(CONFIG);
    const shard = new CpuShard(exp, allRuns(exp), 4);
    while (!shard.done) shard.step();
    const res = buildResult(exp, shard.pb.opt.Jstar, shard.series, { executor: 'cpu', backend: null, executorReason: '', threads: 1, wallSeconds: 0 });
    expect(res.metricsEvery).toBe(4);
    const run = res.algorithms[0].runs[0];
    expect(run.J.every((v) => v !== null)).toBe(true);
    expect(run.entropy.length).toBe(24);
    expect(run.kl.length).toBe(23);
    expect(run.entropy.map((v) => v !== null)).toEqual(Array.from({ length: 24 }, (_, k) => k % 4 === 0 || k === 23));
    expect(run.kl.map((v) => v !== null)).toEqual(Array.from({ length: 23 }, (_, k) => k % 4 === 0 || k === 22));
    const plain = buildResult(exp, shard.pb.opt.Jstar, new CpuShard(exp, allRuns(exp)).series, { executor: 'cpu', backend: null, executorReason: '', threads: 1, wallSeconds: 0 });
    expect('metricsEvery' in plain).toBe(false);
  });

  it('truncation keeps the stored values up to the iteration reached', () => {
    const exp = resolveConfig(CONFIG);
    const shard = new CpuShard(exp, allRuns(exp).slice(0, 1), 4);
    while (!shard.done) shard.step();
    const t = truncateSeries(shard.series[0], 9); // evaluations 0 4 8 kept, updates 0 4 8
    expect(Array.from(t.J.subarray(0, 10)).every(Number.isFinite)).toBe(true);
    expect(Array.from(t.J.subarray(10)).every(Number.isNaN)).toBe(true);
    expect(Array.from(t.entropy, Number.isFinite)).toEqual([true, true, true, false, false, false, false]);
    expect(Array.from(t.kl, Number.isFinite)).toEqual([true, true, true, false, false, false, false]);
    expect(Array.from(truncateSeries(shard.series[0], 8).kl, Number.isFinite)).toEqual([true, true, false, false, false, false, false]);
  });
});
