import { describe, expect, it } from 'vitest';
import { ALGORITHM_IDS } from '../src/core/algo/records';
import { resolveConfig } from '../src/core/config/resolve';
import { fixedShapeCopy } from '../src/exec/cpu/algo-copy';

// The CPU executor runs each algorithm from a fixed-shape copy of its record (src/exec/cpu/algo-copy.ts):
// a field the copy forgot would read as undefined in the run. Every field of every resolved
// record, presets and overrides alike, must come through with its value.

describe('the fixed-shape copy of an algorithm record', () => {
  it('keeps every field of every preset and of records with their own settings', () => {
    const exp = resolveConfig({
      version: 1,
      env: { preset: 'lock' },
      algorithms: [...ALGORITHM_IDS.map((id) => ({ id })), { id: 'g2', preset: 'grpo', label: 'G', clip: 0.1, epochs: 3, minibatches: 2, lr: 0.5, normalization: 'batch' }, { id: 'p2', preset: 'ppo-gae', gaeLambda: 0.5, criticLr: 0.2 }],
    });
    for (const rec of exp.algorithms) {
      const copy = fixedShapeCopy(rec) as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(rec)) expect([k, copy[k]]).toEqual([k, v]);
    }
  });
});
