import { describe, expect, it } from 'vitest';
import { watchedRuns } from '../src/exec/host/tree-watch';
import type { RunSpec } from '../src/core/run/partition';

// Which runs' trees a shard draws: the page asks by (algorithm index, seed index); a shard holds
// some runs, in its own order, and draws at most two of those it holds, in a context that exists.

const spec = (algoIndex: number, seedIndex: number) => ({ algoIndex, seedIndex }) as RunSpec;

describe('watchedRuns', () => {
  const specs = [spec(0, 4), spec(1, 4), spec(0, 5), spec(1, 5)];
  it('maps (algorithm, seed) to the shard’s run positions, drops runs another shard holds, keeps at most two', () => {
    expect(watchedRuns(specs, [[1, 5], [0, 4]], 1, 0).runs).toEqual([3, 0]);
    expect(watchedRuns(specs, [[2, 4], [0, 5]], 1, 0).runs).toEqual([2]);
    expect(watchedRuns(specs, [[0, 4], [1, 4], [0, 5]], 1, 0).runs).toEqual([0, 1]);
  });
  it('clamps the context to the environment’s and reads a non-number as context 0', () => {
    expect(watchedRuns(specs, [], 3, 7).context).toBe(2);
    expect(watchedRuns(specs, [], 3, -1).context).toBe(0);
    expect(watchedRuns(specs, [], 3, 1.7).context).toBe(1);
    expect(watchedRuns(specs, [], 3, NaN).context).toBe(0);
  });
});
