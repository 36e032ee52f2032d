import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { estimateWorkMs, MIN_SHARE_MS, threadsForWork, unitsPerRunIteration } from '../src/exec/cpu/work';

// The CLI splits an experiment's runs over worker threads only when each thread's share of the
// estimated work is worth a worker's start (src/exec/cpu/work.ts).

const threadsOf = (config: Record<string, unknown>, available: number) => {
  const exp = resolveConfig(config);
  return threadsForWork(estimateWorkMs(exp), available, exp.algorithms.length * exp.seedIndices.length);
};

describe('threads for the estimated work', () => {
  it('work units of one run-iteration of lock (V = 3, 3 turns × 1 token: 1 + 3 + 9 nodes), sampled, G = 8: 13·3 + 8·3·3·passes', () => {
    // passes: 2 for REINFORCE/RLOO, 2 + 4 epochs for the PPU and sequential rules (7 of the 9)
    const exp = resolveConfig(DEFAULT_CONFIG);
    expect([exp.env.vocab, exp.env.turns, exp.env.tokensPerTurn, exp.env.contexts]).toEqual([3, 3, 1, 1]);
    const passes = (2 * 2 + 7 * 6) / 9;
    expect(unitsPerRunIteration(exp)).toBeCloseTo(13 * 3 + 8 * 3 * 3 * passes, 9);
  });

  it('a 1-iteration, 1-seed run stays on one thread however many there are', () => {
    expect(threadsOf({ ...DEFAULT_CONFIG, iterations: 1, seeds: 1 }, 256)).toBe(1);
  });

  it('the default experiment (16 seeds × 200 iterations) stays on one thread; at 64 seeds it takes two of two, and more when it grows', () => {
    expect(threadsOf(DEFAULT_CONFIG, 2)).toBe(1);
    expect(threadsOf({ ...DEFAULT_CONFIG, seeds: 64 }, 2)).toBe(2);
    expect(threadsOf(DEFAULT_CONFIG, 1)).toBe(1);
    expect(threadsOf({ ...DEFAULT_CONFIG, seeds: 256 }, 16)).toBe(16);
  });

  it('one more thread only while each gets MIN_SHARE_MS; never more threads than runs', () => {
    expect(threadsForWork(MIN_SHARE_MS * 3 - 1, 8, 100)).toBe(2);
    expect(threadsForWork(MIN_SHARE_MS * 3, 8, 100)).toBe(3);
    expect(threadsForWork(MIN_SHARE_MS - 1, 8, 100)).toBe(1);
    expect(threadsForWork(1e9, 8, 5)).toBe(5);
    expect(threadsForWork(0, 8, 5)).toBe(1);
  });
});
