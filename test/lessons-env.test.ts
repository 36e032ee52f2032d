import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { describeEnv } from '../src/core/env/presets';
import { LESSONS } from '../src/core/lessons/lessons';

// The environment's description is generated from its actual parameters (turns, code, exit,
// payoffs), so a lesson on the 5-turn lock never reads "three turns … the code 0-1-0".

const described = (config: Record<string, unknown>) => {
  const exp = resolveConfig({ version: 1, mode: 'exact', iterations: 1, seeds: 1, algorithms: [{ id: 'grpo' }], ...config });
  return describeEnv(exp.env, exp.envPreset);
};

describe('describeEnv', () => {
  it('the lock at its sizes: turns, the code, the value of a first-turn 0', () => {
    const three = described({ env: { preset: 'lock' } });
    expect(three).toMatch(/^Three turns over three tokens\. Only the code 0-1-0 earns 1/);
    expect(three).toContain('worth only 1/9');
    const five = described({ env: { preset: 'lock', turns: 5 } });
    expect(five).toMatch(/^Five turns over three tokens\. Only the code 0-1-0-1-0 earns 1/);
    expect(five).toContain('worth only 1/81');
    expect(five).not.toMatch(/Three turns|code 0-1-0 earns/); // never the 3-turn paragraph
    expect(described({ env: { preset: 'lock', turns: 4, vocab: 4 } })).toMatch(/^Four turns over four tokens\. Only the code 0-1-0-1 .*1\/64/);
  });

  it('two-prompts: both codes at the sizes in use; the needle; tokens', () => {
    const d = described({ env: { preset: 'two-prompts', turns: 5 } });
    expect(d).toContain('five turns over three tokens each');
    expect(d).toContain('the code 0-1-0-1-0 earns 1');
    expect(d).toContain('the code 2-2-1-1-1 worth 0.25');
    expect(described({ env: { preset: 'needle', turns: 3 } })).toMatch(/^Three turns over eight tokens\..*\(0-0-0\).*1\/64/);
    expect(described({ env: { preset: 'tokens' } })).toMatch(/^Two turns of two tokens over a two-token vocabulary/);
  });

  it('a custom table: its sizes, the best sequence per context and its payoff, the discount', () => {
    const lure = { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[0, 0, 0.8, 0]], turnRewards: [[[0.5, 0]]], gamma: 0.5 };
    const d = described({ env: lure });
    expect(d).toContain('one context, two turns over two tokens');
    expect(d).toContain('The best sequence 1-0 pays 0.8');
    expect(d).toContain('discounted by γ = 0.5');
    expect(d).toContain('earlier turns too');
    const two = described({ env: { turns: 2, vocab: 2, tokensPerTurn: 1, contexts: 2, rewards: [[0, 1, 0, 0], [0, 0, 0, 0.25]] } });
    expect(two).toContain('context 0: 0-1 pays 1; context 1: 1-1 pays 0.25');
  });

  it('every lesson\'s description names its own number of turns', () => {
    const words = ['', 'one', 'two', 'three', 'four', 'five', 'six'];
    for (const l of LESSONS) {
      const exp = resolveConfig(l.config);
      expect(describeEnv(exp.env, exp.envPreset).toLowerCase(), l.id).toContain(`${words[exp.env.turns]} turns`);
    }
  });
});
