import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { configErrorOf } from './support/config-error';

// Lines, legend entries and verdicts name an algorithm by its label ("3/3 seeds of GRPO"): two
// algorithms shown alike would make every one of them ambiguous.
const base = { version: 1, env: { preset: 'lock' }, iterations: 5, seeds: 1 };

describe('every algorithm reads differently', () => {
  it('refuses a label another algorithm shows, naming the later entry and the earlier one', () => {
    expect(configErrorOf(() => resolveConfig({ ...base, algorithms: [{ id: 'grpo', label: 'same' }, { id: 'seeupo', label: 'same' }] }))).toBe(
      'algorithms[1].label: reads "same" on the page and in the verdicts, as algorithms[0] does; give it a label of its own',
    );
    // a label equal to another's derived label
    expect(configErrorOf(() => resolveConfig({ ...base, algorithms: [{ id: 'grpo' }, { id: 'mine', preset: 'seeupo', label: 'GRPO' }] }))).toBe(
      'algorithms[1].label: reads "GRPO" on the page and in the verdicts, as algorithms[0] does; give it a label of its own',
    );
    // two derived labels alike: the id is what to change, or a label to give
    expect(configErrorOf(() => resolveConfig({ ...base, algorithms: [{ id: 'grpo' }, { id: 'GRPO', rule: 'ppu' }] }))).toBe(
      'algorithms[1].id: reads "GRPO" on the page and in the verdicts, as algorithms[0] does; give it a label of its own',
    );
  });

  it('accepts copies of one preset (their labels differ) and distinct labels', () => {
    const exp = resolveConfig({ ...base, algorithms: [{ id: 'grpo' }, { id: 'grpo-2', preset: 'grpo' }, { id: 'x', preset: 'grpo', normalization: 'batch' }, { id: 'y', preset: 'grpo', label: 'GRPO mine' }] });
    expect(exp.algorithms).toHaveLength(4);
  });
});
