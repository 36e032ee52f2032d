import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { applyHotValues } from '../src/core/run/changes';
import { allRuns } from '../src/core/run/partition';
import { CpuShard } from '../src/exec/cpu/shard';

// The CPU shard's runs read fixed-shape copies of their algorithm records (src/exec/cpu/algo-copy.ts).
// A clip changed on the experiment between steps — live, as src/worker/webgpu-session.ts applies
// it, or by a scheduled change — must reach them before the next iteration.

const config = (changes: unknown[]) => ({
  version: 1,
  env: { preset: 'lock' },
  iterations: 12,
  seeds: 2,
  algorithms: [{ id: 'grpo' }, { id: 'seeupo' }],
  changes,
});

function curves(shard: CpuShard): number[][] {
  return shard.series.flatMap((s) => [Array.from(s.J), Array.from(s.clipFraction)]);
}

describe('CpuShard: a clip changed between steps', () => {
  it('applied live to the experiment gives what the same change scheduled gives, and differs from no change', () => {
    const scheduled = resolveConfig(config([{ at: 4, path: 'algorithms[1].clip', value: 0.01 }]));
    const a = new CpuShard(scheduled, allRuns(scheduled));
    while (!a.done) a.step();

    const live = resolveConfig(config([]));
    const b = new CpuShard(live, allRuns(live));
    for (let k = 0; k < 4; k++) b.step();
    applyHotValues(live, { clips: [null, 0.01] });
    while (!b.done) b.step();

    const none = resolveConfig(config([]));
    const c = new CpuShard(none, allRuns(none));
    while (!c.done) c.step();

    expect(curves(b)).toEqual(curves(a));
    expect(curves(c)).not.toEqual(curves(a));
  });
});
