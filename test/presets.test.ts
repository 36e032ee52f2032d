import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { ENV_PRESET_NAMES } from '../src/core/env/presets';
import { expectRejected } from './helpers/config';

// Reward tables written out by hand from the preset descriptions (docs/math.md "Environments: multi-turn bandits"):
// one number per token sequence, lexicographic order, first token most significant.

function presetEnv(preset: string, overrides: Record<string, unknown> = {}) {
  return resolveConfig({ version: 1, env: { preset, ...overrides }, iterations: 1, seeds: 1 }).env;
}

const rows = (env: { rewards: Float64Array[] }) => env.rewards.map((r) => Array.from(r));

const z9 = [0, 0, 0, 0, 0, 0, 0, 0, 0];

describe('env presets', () => {
  it('lists exactly the four presets: lock, needle, two-prompts, tokens', () => {
    expect([...ENV_PRESET_NAMES].sort()).toEqual(['lock', 'needle', 'tokens', 'two-prompts']);
  });

  it('lock: T=3, V=3, L=1; code 0-1-0 earns 1, first token 2 exits with 0.3, else 0', () => {
    const env = presetEnv('lock');
    expect([env.turns, env.vocab, env.tokensPerTurn, env.contexts, env.contextsPerBatch, env.gamma]).toEqual([3, 3, 1, 1, 1, 1]);
    // prettier-ignore
    const expected = [
      // first token 0: 000 001 002 010 011 012 020 021 022
      0, 0, 0, 1, 0, 0, 0, 0, 0,
      // first token 1
      0, 0, 0, 0, 0, 0, 0, 0, 0,
      // first token 2: the safe exit, whatever follows
      0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3,
    ];
    expect(expected).toHaveLength(27);
    expect(rows(env)).toEqual([expected]);
    expect(env.noise).toEqual([{ kind: 'none' }]);
  });

  it('tokens: T=2, V=2, L=2; 01-01 earns 1, first turn 11 earns 0.4, else 0', () => {
    const env = presetEnv('tokens');
    expect([env.turns, env.vocab, env.tokensPerTurn, env.contexts]).toEqual([2, 2, 2, 1]);
    // prettier-ignore
    const expected = [
      // 00xx
      0, 0, 0, 0,
      // 01xx: only 01-01 (index 5) earns 1
      0, 1, 0, 0,
      // 10xx
      0, 0, 0, 0,
      // 11xx: first turn 11
      0.4, 0.4, 0.4, 0.4,
    ];
    expect(expected).toHaveLength(16);
    expect(rows(env)).toEqual([expected]);
    expect(env.noise).toEqual([{ kind: 'none' }]);
  });

  it('two-prompts: context 0 is the lock, context 1 has code 2-2-1 (0.25) and exit 0 (0.2), noise on context 1 only', () => {
    const env = presetEnv('two-prompts');
    expect([env.turns, env.vocab, env.tokensPerTurn, env.contexts, env.contextsPerBatch]).toEqual([3, 3, 1, 2, 2]);
    const lock = [...z9.slice(0, 3), 1, ...z9.slice(4), ...z9, ...Array(9).fill(0.3)];
    // prettier-ignore
    const context1 = [
      // first token 0: the exit, whatever follows
      0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2,
      // first token 1
      0, 0, 0, 0, 0, 0, 0, 0, 0,
      // first token 2: 200 201 202 210 211 212 220 221 222; only 221 earns 0.25
      0, 0, 0, 0, 0, 0, 0, 0.25, 0,
    ];
    expect(rows(env)).toEqual([lock, context1]);
    expect(env.noise).toEqual([{ kind: 'none' }, { kind: 'gaussian', sigma: 0.1 }]);
  });

  it('needle: T=2, V=8; all 64 sequences follow the rule (0 then 0 earns 1, first token 1 earns 0.3, else 0)', () => {
    const env = presetEnv('needle');
    expect([env.turns, env.vocab, env.tokensPerTurn, env.contexts]).toEqual([2, 8, 1, 1]);
    expect(env.rewards).toHaveLength(1);
    const r = env.rewards[0]!;
    expect(r).toHaveLength(64);
    const rule = (first: number, second: number) => (first === 0 && second === 0 ? 1 : first === 1 ? 0.3 : 0);
    for (let first = 0; first < 8; first++)
      for (let second = 0; second < 8; second++) expect(r[first * 8 + second], `sequence ${first}${second}`).toBe(rule(first, second));
    // and the table sums to 1 + 8·0.3
    expect(Array.from(r).reduce((a, b) => a + b, 0)).toBeCloseTo(1 + 8 * 0.3, 12);
  });

  it('a size override inside the allowed range regenerates the table (lock with 4 turns: code 0-1-0-1)', () => {
    const env = presetEnv('lock', { turns: 4 });
    expect(env.turns).toBe(4);
    const r = Array.from(env.rewards[0]!);
    expect(r).toHaveLength(81);
    const expected = Array.from({ length: 81 }, (_, s) => {
      const a1 = Math.floor(s / 27);
      if (a1 === 2) return 0.3;
      return s === 0 * 27 + 1 * 9 + 0 * 3 + 1 ? 1 : 0;
    });
    expect(r).toEqual(expected);
    expect(r[10]).toBe(1);
  });

  it('needle with 3 turns: only 0-0-0 earns 1', () => {
    const r = Array.from(presetEnv('needle', { turns: 3 }).rewards[0]!);
    expect(r).toHaveLength(512);
    expect(r[0]).toBe(1);
    expect(r.filter((v) => v === 1)).toHaveLength(1);
    expect(r.filter((v) => v === 0.3)).toHaveLength(64);
  });

  it('a noise override replaces the preset noise', () => {
    expect(presetEnv('lock', { noise: { kind: 'gaussian', sigma: 0.5 } }).noise).toEqual([{ kind: 'gaussian', sigma: 0.5 }]);
    expect(presetEnv('two-prompts', { noise: { kind: 'none' } }).noise).toEqual([{ kind: 'none' }, { kind: 'none' }]);
  });

  describe('size overrides outside the preset’s allowed range are rejected, naming the field', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['lock', { turns: 7 }, 'env.turns', 'from 2 to 6'],
      ['lock', { turns: 1 }, 'env.turns', 'from 2 to 6'],
      ['lock', { vocab: 2 }, 'env.vocab', 'from 3 to 8'],
      ['lock', { tokensPerTurn: 2 }, 'env.tokensPerTurn', 'from 1 to 1'],
      ['needle', { vocab: 17 }, 'env.vocab', 'from 3 to 16'],
      ['needle', { turns: 5 }, 'env.turns', 'from 2 to 4'],
      ['two-prompts', { turns: 7 }, 'env.turns', 'from 2 to 6'],
      ['tokens', { vocab: 3 }, 'env.vocab', 'from 2 to 2'],
      ['tokens', { turns: 3 }, 'env.turns', 'from 2 to 2'],
      ['tokens', { tokensPerTurn: 1 }, 'env.tokensPerTurn', 'from 2 to 2'],
    ];
    for (const [preset, over, path, range] of cases) {
      const [k, v] = Object.entries(over)[0]!;
      it(`${preset} ${k}=${String(v)}`, () => {
        expectRejected({ version: 1, env: { preset, ...over } }, path, range, `got ${String(v)}`, `"${preset}"`);
      });
    }
  });

  it('a size that is not an allowed integer is rejected by the schema with the field named and the range it allows', () => {
    // a preset's env: the preset's own range (presetEnvSchema); a custom table: the global limits
    expectRejected({ version: 1, env: { preset: 'lock', turns: 2.5 } }, 'env.turns', 'an integer from 2 to 6 for preset "lock"', 'got 2.5');
    expectRejected({ version: 1, env: { preset: 'lock', vocab: 'three' } }, 'env.vocab', 'an integer from 3 to 8 for preset "lock"', 'got "three"');
    expectRejected({ version: 1, env: { turns: 2.5, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1]] } }, 'env.turns', 'an integer from 1 to 8', 'got 2.5');
    expectRejected({ version: 1, env: { turns: 1, vocab: 'three', tokensPerTurn: 1, rewards: [[0, 1]] } }, 'env.vocab', 'an integer from 2 to 64', 'got "three"');
  });

  it('an unknown preset name is rejected, listing the presets', () => {
    expectRejected({ version: 1, env: { preset: 'maze' } }, 'env.preset', '"lock"', '"needle"', '"two-prompts"', '"tokens"', 'got "maze"');
  });
});
