import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { algorithmLabel } from '../src/core/algo/records';
import { decodeLink, encodeLink } from '../src/core/config/link-codec';
import { DEFAULT_VIEW } from '../src/core/config/view';
import { algorithmColor, PRESET_COLORS, shade } from '../src/ui/palette';
import { planExperiment } from '../src/ui/plan';

// An algorithm keeps its identity — a colour from what it is (not its place in
// the list), a label that says what was edited, and a name the user can give it.

const labels = (algorithms: unknown[]) => resolveConfig({ version: 1, env: { preset: 'lock' }, algorithms }).algorithms.map(algorithmLabel);

describe('labels say what was edited', () => {
  it('named algorithms as they are keep their names', () => {
    expect(labels([{ id: 'seeupo' }, { id: 'grpo' }, { id: 'seeupo-forward' }])).toEqual(['SeeUPO', 'GRPO', 'SeeUPO (forward)']);
  });
  it('edited fields join the name: "SeeUPO · forward", "GRPO · batch norm", a copy "GRPO #2 · lr 0.3"', () => {
    expect(labels([{ id: 'seeupo', order: 'forward' }, { id: 'grpo', normalization: 'batch' }, { id: 'grpo-2', preset: 'grpo', lr: 0.3 }, { id: 'ppo-grae', clip: 0.1, epochs: 1 }])).toEqual([
      'SeeUPO · forward',
      'GRPO · batch norm',
      'GRPO #2 · lr 0.3',
      'PPO+GRAE · ε 0.1 · 1 epoch',
    ]);
  });
  it('fields the rule does not read do not change the label; a user name replaces the label; an own id stays', () => {
    expect(labels([{ id: 'grpo', order: 'forward' }, { id: 'seeupo', label: 'SeeUPO (paper)' }, { id: 'mine', rule: 'ppu' }])).toEqual(['GRPO', 'SeeUPO (paper)', 'mine']);
  });
  it('a name is checked: 1–40 characters, no control characters', () => {
    expect(() => labels([{ id: 'grpo', label: '' }])).toThrow(/algorithms\[0\]\.label: must be a name of 1–40 characters/);
    expect(() => labels([{ id: 'grpo', label: 'x'.repeat(41) }])).toThrow(/algorithms\[0\]\.label/);
    expect(() => labels([{ id: 'grpo', label: 'a\u001bb' }])).toThrow(/without control characters/);
  });
  it('a name travels in links', () => {
    const config = { version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'seeupo', label: 'Reverse · ours', order: 'reverse' }, { id: 'grpo' }] };
    const d = decodeLink(encodeLink({ config, view: { ...DEFAULT_VIEW }, hash: null, embed: false, exact: true }));
    if (!d.ok) throw new Error(d.message);
    expect(d.exp.algorithms.map(algorithmLabel)).toEqual(['Reverse · ours', 'GRPO']);
  });
});

describe('colours follow the algorithm, not its position', () => {
  const colors = (algorithms: unknown[]) => planExperiment({ version: 1, env: { preset: 'lock' }, algorithms }, 1).algorithms.map((a) => [a.id, a.color]);
  it('removing an algorithm leaves every other colour as it was', () => {
    const all = Object.fromEntries(colors([{ id: 'reinforce' }, { id: 'grpo' }, { id: 'seeupo' }]));
    const fewer = Object.fromEntries(colors([{ id: 'grpo' }, { id: 'seeupo' }]));
    expect(fewer.grpo).toBe(all.grpo);
    expect(fewer.seeupo).toBe(all.seeupo);
    expect(all.grpo).toBe(PRESET_COLORS.grpo);
    expect(all.seeupo).not.toBe(PRESET_COLORS.reinforce); // SeeUPO is never the grey baseline colour
  });
  it('copies get distinct shades of their preset colour, by copy number', () => {
    const c2 = algorithmColor({ id: 'grpo-2', preset: 'grpo' });
    const c3 = algorithmColor({ id: 'grpo-3', preset: 'grpo' });
    expect(c2).toBe(shade(PRESET_COLORS.grpo!, -0.35));
    expect(new Set([PRESET_COLORS.grpo, c2, c3]).size).toBe(3);
    expect(shade('#808080', 0.5)).toBe('#C0C0C0');
    expect(shade('#808080', -0.5)).toBe('#404040');
  });
});
