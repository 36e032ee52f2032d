import { describe, expect, it } from 'vitest';
import { cellConfig, parseSweep, resolveCell } from '../src/core/sweep/cells';
import { configErrorOf } from './support/config-error';

// Axis paths into sections the base leaves out, and into algorithms the base does not have
// (docs/sweeps.md "The sweep file": an axis is any config path; docs/cli.md: shareContexts "in
// a sweep is an axis like any config path").

const TWO_PROMPTS = { version: 1, env: { preset: 'two-prompts' }, mode: 'exact', iterations: 5, seeds: 1, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] };

const errorOf = configErrorOf;

describe('sweep axes on sections the base leaves out', () => {
  it('a policy.* axis on a base without policy starts from the default (tabular) policy', () => {
    const s = parseSweep({ version: 1, base: TWO_PROMPTS, axes: [{ path: 'policy.shareContexts', values: [false, true] }] });
    expect(cellConfig(s, 0).policy).toEqual({ kind: 'tabular', shareContexts: false });
    expect(cellConfig(s, 1).policy).toEqual({ kind: 'tabular', shareContexts: true });
    expect(resolveCell(s, 1).policy).toMatchObject({ kind: 'tabular', shareContexts: true });
    const init = parseSweep({ version: 1, base: TWO_PROMPTS, axes: [{ path: 'policy.initScale', values: [0, 1] }] });
    expect(cellConfig(init, 1).policy).toEqual({ kind: 'tabular', initScale: 1 });
  });

  it('a one-context base refuses the shareContexts cell by its field, not a missing policy.kind', () => {
    const lock = { ...TWO_PROMPTS, env: { preset: 'lock' } };
    expect(errorOf(() => parseSweep({ version: 1, base: lock, axes: [{ path: 'policy.shareContexts', values: [false, true] }] }))).toMatch(/^axes\[0\]\.values\[1\]: policy\.shareContexts: needs at least 2 contexts/);
  });

  it('a field of an algorithm the base does not have is refused naming the axis path', () => {
    expect(errorOf(() => parseSweep({ version: 1, base: TWO_PROMPTS, axes: [{ path: 'algorithms.5.clip', values: [0.5] }] }))).toBe(
      'axes[0].path: algorithms[5] does not exist (the base has 2 algorithms)',
    );
    expect(errorOf(() => parseSweep({ version: 1, base: TWO_PROMPTS, axes: [{ path: 'algorithms[2].clip', values: [0.5] }] }))).toBe(
      'axes[0].path: algorithms[2] does not exist (the base has 2 algorithms)',
    );
  });

  it('algorithms.*.label on a base of several algorithms is refused up front (every algorithm would read alike); one algorithm\'s label may be swept', () => {
    const lock = { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 5, seeds: 1, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] };
    expect(errorOf(() => parseSweep({ version: 1, base: lock, axes: [{ path: 'algorithms.*.label', values: ['A', 'B'] }] }))).toBe(
      "axes[0].path: algorithms.*.label would give the base's 2 algorithms one label, and no two algorithms may read alike; sweep one algorithm's label (algorithms.0.label)",
    );
    expect(parseSweep({ version: 1, base: lock, axes: [{ path: 'algorithms.0.label', values: ['A', 'B'] }] }).cells).toBe(2);
    expect(parseSweep({ version: 1, base: { ...lock, algorithms: [{ id: 'grpo' }] }, axes: [{ path: 'algorithms.*.label', values: ['A', 'B'] }] }).cells).toBe(2);
  });
});
