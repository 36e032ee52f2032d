import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { chunkRuns, claimChunk, runChunk, stopClaiming } from '../src/exec/cpu/chunks';
import { CpuShard } from '../src/exec/cpu/shard';
import { estimateRunsWorkMs, estimateWorkMs } from '../src/exec/cpu/work';

// A sweep batch's runs cut into chunks that threads take as they free up (src/exec/cpu/chunks.ts).

describe('chunks of runs', () => {
  it('are contiguous, in order, cover every run once, and are as even as the count allows', () => {
    const exp = resolveConfig({ ...DEFAULT_CONFIG, seeds: 64 });
    const specs = allRuns(exp);
    for (const threads of [1, 2, 3, 8]) {
      const chunks = chunkRuns(specs, threads, estimateWorkMs(exp));
      expect(chunks.flat()).toEqual(specs);
      const sizes = chunks.map((c) => c.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      expect(chunks.length).toBeGreaterThanOrEqual(threads);
      expect(chunks.length).toBeLessThanOrEqual(threads * 32);
    }
  });

  it('about 40 ms of estimated work each, between one per thread and 32 per thread', () => {
    const exp = resolveConfig({ ...DEFAULT_CONFIG, seeds: 64 });
    const specs = allRuns(exp);
    expect(chunkRuns(specs, 2, estimateWorkMs(exp))).toHaveLength(Math.min(64, Math.floor(estimateWorkMs(exp) / 40)));
    // a batch's share of the runs: its share of the work
    expect(estimateRunsWorkMs(exp, specs.length / 4)).toBeCloseTo(estimateWorkMs(exp) / 4, 9);
    // a small batch: one chunk per thread, and never more chunks than runs
    const small = resolveConfig({ ...DEFAULT_CONFIG, iterations: 2, seeds: 1, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] });
    expect(chunkRuns(allRuns(small), 2, estimateWorkMs(small)).map((c) => c.length)).toEqual([1, 1]);
    expect(chunkRuns(allRuns(small), 8, estimateWorkMs(small))).toHaveLength(2);
  });

  it('a chunk gives its runs the numbers they have in one shard of every run, scheduled changes included', () => {
    const exp = resolveConfig({ ...DEFAULT_CONFIG, iterations: 12, seeds: 3, changes: [{ at: 5, path: 'optimizer.lr', value: 0.05 }] });
    const whole = new CpuShard(structuredClone(exp), allRuns(exp));
    while (!whole.done) whole.step();
    const chunks = chunkRuns(allRuns(exp), 4, 1e9);
    expect(chunks.length).toBeGreaterThan(1);
    // chunk after chunk on one experiment object: each must start from the settings as given
    const pieces = chunks.flatMap((c) => runChunk(exp, c));
    expect(pieces.map((s) => Array.from(s.J))).toEqual(whole.series.map((s) => Array.from(s.J)));
  });

  it('claims hand out each index once, and stopping ends the handout', () => {
    const counter = new Int32Array(new SharedArrayBuffer(4));
    expect([claimChunk(counter), claimChunk(counter), claimChunk(counter)]).toEqual([0, 1, 2]);
    stopClaiming(counter, 10);
    expect(claimChunk(counter)).toBeGreaterThanOrEqual(10);
  });
});
