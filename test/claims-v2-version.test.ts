import { describe, expect, it } from 'vitest';
import { sweepDigest } from '../src/cli/sweep';
import { CLAIMS_RULES } from '../src/core/claims';
import { parseSweep } from '../src/core/sweep/cells';
import { mergeShards, textDigest } from '../src/core/sweep/document';

// Verdicts of two versions of the claims rules are never mixed (docs/claims.md): results and the
// page recompute them from the runs; sweep shards and journals, which store them, carry a digest
// of the sweep and of the rules version, so a shard or journal of version 1 is refused.

describe('claims rules version', () => {
  const sweep = parseSweep({ version: 1, base: { version: 1, env: { preset: 'lock' }, iterations: 5, algorithms: [{ id: 'grpo' }] }, axes: [{ path: 'seeds', values: [1, 2] }] });

  it('is 2, and the sweep digest depends on it', () => {
    expect(CLAIMS_RULES).toBe(2);
    const v1 = textDigest(JSON.stringify({ base: sweep.base, axes: sweep.axes }));
    expect(sweepDigest(sweep)).toBe(textDigest(JSON.stringify({ base: sweep.base, axes: sweep.axes, claimsRules: 2 })));
    expect(sweepDigest(sweep)).not.toBe(v1);
  });

  it('merge refuses a shard written under version 1 beside one of version 2', () => {
    const cell = (index: number) => ({ index, values: [index + 1], Jstar: 1, algorithms: [{ id: 'grpo', finalJ: { mean: 0.5, lo: 0.5, hi: 0.5 }, atOptimum: 0, violations: 0, medianItersTo95: null, claims: [] }] });
    const v1 = textDigest(JSON.stringify({ base: sweep.base, axes: sweep.axes }));
    const shard = (index: number, digest: string) => ({ version: 1, axes: sweep.axes, shard: { index, count: 2, cells: 2, sweep: digest }, cells: [cell(index)] });
    expect(() => mergeShards([shard(0, sweepDigest(sweep)), shard(1, sweepDigest(sweep))], ['a', 'b'])).not.toThrow();
    expect(() => mergeShards([shard(0, sweepDigest(sweep)), shard(1, v1)], ['a', 'b'])).toThrow(/^b: shard\.sweep: .*decided by another version of the claims rules/);
  });
});
