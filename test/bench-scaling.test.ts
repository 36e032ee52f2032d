import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { LIMITS } from '../src/core/config/schema';
import { FACTOR_ORDER, lockEnv, lockTable, presetAllows, SCALING_VALUES, scalingCases } from '../bench/scaling';

// The scaling table of `npm run bench` (bench/scaling.ts): every case must be an experiment the
// explorer accepts, the default experiment with exactly one factor changed.

describe('bench scaling cases', () => {
  const cases = scalingCases();

  it('one case per factor value, in factor order', () => {
    expect(cases.map((c) => `${c.factor}=${c.value}`)).toEqual(FACTOR_ORDER.flatMap((f) => SCALING_VALUES[f].map((v) => `${f}=${v}`)));
  });

  it('each resolves (default 200 iterations) with the intended sizes, the rest as in the default experiment', () => {
    for (const c of cases) {
      const exp = resolveConfig(c.config);
      const want = { turns: 3, vocab: 3, tokensPerTurn: 1, groupSize: 8, seeds: 16 };
      want[c.factor] = c.value;
      expect({ turns: exp.env.turns, vocab: exp.env.vocab, tokensPerTurn: exp.env.tokensPerTurn, groupSize: exp.groupSize, seeds: exp.seeds }, `${c.factor}=${c.value}`).toEqual(want);
      expect(exp.iterations).toBe(DEFAULT_CONFIG.iterations);
      expect(exp.mode).toBe('sampled');
      expect(exp.algorithms.map((a) => a.id)).toEqual(DEFAULT_CONFIG.algorithms.map((a) => a.id));
      expect(exp.env.contexts).toBe(1);
      expect(c.sequences).toBe(exp.env.contexts * exp.env.vocab ** (exp.env.turns * exp.env.tokensPerTurn));
      expect(c.sequences).toBeLessThanOrEqual(LIMITS.maxSequences);
      expect(c.runs).toBe(exp.seeds * exp.algorithms.length);
      expect(exp.envPreset).toBe(c.env === 'lock' ? 'lock' : null);
    }
  });

  it('the default experiment appears in every factor', () => {
    for (const f of FACTOR_ORDER) {
      const d = cases.filter((c) => c.factor === f && c.sizes.turns === 3 && c.sizes.vocab === 3 && c.sizes.tokensPerTurn === 1 && c.groupSize === 8 && c.seeds === 16);
      expect(d, f).toHaveLength(1);
      expect(d[0]!.env).toBe('lock');
    }
  });

  it('the custom table follows the lock rule: equal to the preset wherever the preset allows the size', () => {
    for (const sizes of [
      { turns: 3, vocab: 3, tokensPerTurn: 1 },
      { turns: 2, vocab: 5, tokensPerTurn: 1 },
      { turns: 5, vocab: 4, tokensPerTurn: 1 },
    ]) {
      expect(presetAllows(sizes)).toBe(true);
      const preset = resolveConfig({ ...DEFAULT_CONFIG, env: lockEnv(sizes) });
      const custom = resolveConfig({ ...DEFAULT_CONFIG, env: lockTable(sizes) });
      expect(Array.from(custom.env.rewards[0]!)).toEqual(Array.from(preset.env.rewards[0]!));
    }
  });

  it('sizes the preset refuses get a custom table (1 turn, 2 tokens per turn, vocab 2)', () => {
    for (const sizes of [
      { turns: 1, vocab: 3, tokensPerTurn: 1 },
      { turns: 3, vocab: 3, tokensPerTurn: 2 },
      { turns: 3, vocab: 2, tokensPerTurn: 1 },
    ]) {
      expect(presetAllows(sizes)).toBe(false);
      expect(lockEnv(sizes)).toEqual(lockTable(sizes));
      expect(lockTable(sizes).rewards[0]).toHaveLength(sizes.vocab ** (sizes.turns * sizes.tokensPerTurn));
    }
    // one turn: action 0 is the whole code (1), action 2 the exit (0.3)
    expect(lockTable({ turns: 1, vocab: 3, tokensPerTurn: 1 }).rewards[0]).toEqual([1, 0, 0.3]);
    // two tokens per turn over V = 2: turn actions 0..3; code 0-1, exit action 2 ("10") on the first turn
    const r = lockTable({ turns: 2, vocab: 2, tokensPerTurn: 2 }).rewards[0]!;
    expect(r[0b0001]).toBe(1);
    expect(r.filter((v) => v === 1)).toHaveLength(1);
    expect(r.slice(0b1000, 0b1100)).toEqual([0.3, 0.3, 0.3, 0.3]);
  });
});

