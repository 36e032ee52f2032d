import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { encodeLink, decodeLink } from '../src/core/config/link-codec';
import { DEFAULT_VIEW } from '../src/core/config/view';
import {
  algorithmSummary,
  controlPathOf,
  customTableShape,
  getPath,
  isHotPath,
  numberOrText,
  resizeRewards,
  setPath,
  setTurnRewards,
  toCustomEnv,
  validateDraft,
} from '../src/ui/draft';
import { algorithmControls, controlsFor, OPTIMIZER_CONTROLS, rangeHint, tooltip } from '../src/ui/controls/registry';
import { explainAlgorithm, introText } from '../src/ui/explain-text';

// The page's side of the config additions: the per-turn reward tables of the custom-table
// editor (draft edits and per-cell checks) and an algorithm's own learning rate (a registry field).

type Draft = Record<string, unknown>;
const draft = (): Draft => structuredClone(DEFAULT_CONFIG) as Draft;
const ok = (r: { ok: boolean }): Draft => {
  if (!r.ok) throw new Error((r as unknown as { error: string }).error);
  return (r as unknown as { draft: Draft }).draft;
};
/** The default lock preset (T = 3, V = 3) as a custom table. */
const custom = () => ok(toCustomEnv(draft()));

describe('per-turn rewards in the draft', () => {
  it('are off by default: a custom table has no turnRewards key', () => {
    expect(custom().env).not.toHaveProperty('turnRewards');
    expect(customTableShape(custom())).toEqual({ contexts: 1, sequences: 27, prefixes: [3, 9] });
  });

  it('turning them on adds T − 1 tables of zeros per context (the same experiment); off removes the key', () => {
    const on = ok(setTurnRewards(custom(), true));
    expect(getPath(on, 'env.turnRewards')).toEqual([[[0, 0, 0], new Array(9).fill(0)]]);
    expect(validateDraft(on)).toEqual({});
    expect(resolveConfig(on).env.turnRewards).toBeNull(); // zeros = none
    expect(resolveConfig(on).env.returns).toEqual(resolveConfig(custom()).env.returns);
    const off = ok(setTurnRewards(on, false));
    expect(off.env).not.toHaveProperty('turnRewards');
    expect(off).toEqual(custom());
  });

  it('turning them on keeps tables that already fit', () => {
    const edited = setPath(ok(setTurnRewards(custom(), true)), 'env.turnRewards[0][1][4]', 0.5);
    expect(ok(setTurnRewards(edited, true))).toBe(edited);
  });

  it('need a custom table, valid sizes and two turns', () => {
    expect(setTurnRewards(draft(), true).ok).toBe(false);
    const one = ok(resizeRewards(setPath(custom(), 'env.turns', 1)));
    const r = setTurnRewards(one, true);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/at least 2 turns/);
    expect(setTurnRewards(setPath(custom(), 'env.vocab', 'x'), true).ok).toBe(false);
  });

  it('an edited cell changes J and J* (the undiscounted sum)', () => {
    // lock: J* = 1 on one sequence; 2 for the first token 0 makes every sequence starting with 0 worth ≥ 2
    const d = setPath(ok(setTurnRewards(custom(), true)), 'env.turnRewards[0][0][0]', 2);
    expect(validateDraft(d)).toEqual({});
    const env = resolveConfig(d).env;
    expect(env.turnRewards).not.toBeNull();
    expect(Math.max(...env.returns[0]!)).toBeGreaterThanOrEqual(2);
  });

  it('every bad cell gets the schema\'s message at its own path', () => {
    let d = ok(setTurnRewards(custom(), true));
    d = setPath(d, 'env.turnRewards[0][0][1]', numberOrText('abc'));
    d = setPath(d, 'env.turnRewards[0][1][8]', numberOrText(''));
    d = setPath(d, 'env.rewards[0][3]', numberOrText('x'));
    expect(validateDraft(d)).toEqual({
      'env.turnRewards[0][0][1]': 'env.turnRewards[0][0][1]: must be a finite number, got "abc"',
      'env.turnRewards[0][1][8]': 'env.turnRewards[0][1][8]: must be a finite number, got ""',
      'env.rewards[0][3]': 'env.rewards[0][3]: must be a finite number, got "x"',
    });
  });

  it('wrong shapes get resolveConfig\'s messages, each at its table', () => {
    const on = ok(setTurnRewards(custom(), true));
    const short = setPath(on, 'env.turnRewards[0][1]', [0, 0]);
    expect(validateDraft(short)).toEqual({ 'env.turnRewards[0][1]': 'env.turnRewards[0][1]: turn 2 needs 9 numbers (V^2), got 2' });
    let message = '';
    try {
      resolveConfig(short);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe('env.turnRewards[0][1]: turn 2 needs 9 numbers (V^2), got 2');
    const tables = setPath(on, 'env.turnRewards[0]', [[0, 0, 0]]);
    expect(validateDraft(tables)['env.turnRewards[0]']).toMatch(/must have 2 tables .*got 1$/);
    const contexts = setPath(on, 'env.turnRewards', [...(getPath(on, 'env.turnRewards') as unknown[]), [[0, 0, 0], new Array(9).fill(0)]]);
    expect(validateDraft(contexts)['env.turnRewards']).toBe('env.turnRewards: must have one list of turn tables per context (1), got 2');
    expect(validateDraft(setPath(on, 'env.turnRewards[0][0]', 5))['env.turnRewards[0][0]']).toMatch(/must be a list of numbers .*got 5/);
  });

  it('resolveConfig\'s turn-table errors land on a control the editor shows', () => {
    const on = ok(setTurnRewards(custom(), true));
    for (const p of ['env.turnRewards', 'env.turnRewards[0]', 'env.turnRewards[0][1]', 'env.turnRewards[0][1][8]']) expect(controlPathOf(p, on)).toBe(p);
    // a preset's override has no editor: the banner says it
    expect(controlPathOf('env.turnRewards[0][0]', draft())).toBeNull();
  });

  it('resizing rebuilds the turn tables with zeros (and drops them at one turn)', () => {
    const on = setPath(ok(setTurnRewards(custom(), true)), 'env.turnRewards[0][0][0]', 1);
    const four = ok(resizeRewards(setPath(setPath(on, 'env.turns', 4), 'env.vocab', 2)));
    expect(getPath(four, 'env.turnRewards')).toEqual([[[0, 0], [0, 0, 0, 0], new Array(8).fill(0)]]);
    expect(getPath(four, 'env.rewards')).toEqual([new Array(16).fill(0)]);
    expect(validateDraft(four)).toEqual({});
    const two = ok(resizeRewards(setPath(on, 'env.contexts', 2)));
    expect(getPath(two, 'env.turnRewards')).toEqual([0, 1].map(() => [[0, 0, 0], new Array(9).fill(0)]));
    expect(resolveConfig(two).env.contexts).toBe(2);
    const one = ok(resizeRewards(setPath(on, 'env.turns', 1)));
    expect(one.env).not.toHaveProperty('turnRewards');
    expect(validateDraft(one)).toEqual({});
    // off stays off
    expect(ok(resizeRewards(setPath(custom(), 'env.turns', 2))).env).not.toHaveProperty('turnRewards');
  });

  it('a preset with per-turn rewards keeps them when it becomes a custom table', () => {
    const d = setPath(draft(), 'env', { preset: 'lock', turnRewards: [[[0, 0.5, 0], new Array(9).fill(0)]] });
    const c = ok(toCustomEnv(d));
    expect(getPath(c, 'env.turnRewards')).toEqual([[[0, 0.5, 0], new Array(9).fill(0)]]);
    expect(resolveConfig(c).env.returns).toEqual(resolveConfig(d).env.returns);
  });

  it('the page\'s link carries them', () => {
    const d = setPath(ok(setTurnRewards(custom(), true)), 'env.turnRewards[0][1][4]', 0.25);
    const link = encodeLink({ config: d, view: { ...DEFAULT_VIEW }, hash: null, embed: false, exact: true });
    expect(link).toContain('env.turnRewards.0=[[0,0,0],[0,0,0,0,0.25,0,0,0,0]]');
    const back = decodeLink(link);
    expect(back.ok && back.exp).toEqual(resolveConfig(d));
  });

  it('the explanation says the episode pays per-turn rewards', () => {
    const d = setPath(ok(setTurnRewards(custom(), true)), 'env.turnRewards[0][0][0]', 0.5);
    expect(introText(resolveConfig(d), 1)).toMatch(/per-turn rewards/);
    expect(introText(resolveConfig(custom()), 1)).toMatch(/only the whole episode is rewarded/);
  });
});

describe("an algorithm's own learning rate", () => {
  const lrDef = () => algorithmControls(0).find((d) => d.field === 'lr')!;

  it('is a nullable number field in every card, cold, up to 1000', () => {
    const def = lrDef();
    expect(def.path).toBe('algorithms[0].lr');
    expect(def).toMatchObject({ kind: 'number', nullable: true, optional: true, hot: false });
    expect(def.rules).toEqual(['reinforce', 'ppu', 'sequential']);
    expect(rangeHint(def)).toBe('>0 … 1000');
    expect(tooltip(def)).toMatch(/empty: the experiment's lr/);
    expect(tooltip(def)).toMatch(/A change restarts the experiment/);
    expect(isHotPath('algorithms[0].lr')).toBe(false);
    expect(controlsFor(draft()).some((d) => d.path === 'algorithms[8].lr')).toBe(true);
  });

  it('is checked by the schema\'s builder; blank (removed) is the experiment\'s', () => {
    const e = validateDraft(setPath(setPath(draft(), 'algorithms[1].lr', 1001), 'algorithms[2].lr', numberOrText('fast')));
    expect(e['algorithms[1].lr']).toBe('algorithms[1].lr: must be null or a number > 0 and ≤ 1000, got 1001');
    expect(e['algorithms[2].lr']).toMatch(/^algorithms\[2\]\.lr: .*got "fast"$/);
    expect(validateDraft(setPath(draft(), 'algorithms[1].lr', 1000))).toEqual({});
    expect(validateDraft(setPath(draft(), 'algorithms[1].lr', null))).toEqual({});
    const d = setPath(setPath(draft(), 'algorithms[1].lr', 2), 'algorithms[1].lr', undefined);
    expect(d).toEqual(draft());
    expect(resolveConfig(setPath(draft(), 'algorithms[1].lr', 2)).algorithms[1]!.lr).toBe(2);
  });

  it('shows in the card\'s summary and the explanation', () => {
    expect(algorithmSummary({ id: 'grpo', lr: 0.5 })).toBe('GRPO · grae · group norm · ppu · token ratio · ε 0.2 · lr 0.5');
    expect(algorithmSummary({ id: 'grpo', lr: null })).toBe('GRPO · grae · group norm · ppu · token ratio · ε 0.2');
    const exp = resolveConfig({ ...draft(), algorithms: [{ id: 'seeupo', lr: 3 }] });
    expect(explainAlgorithm(exp.algorithms[0]!, exp).formula.at(-1)).toBe("learning rate 3, its own (the experiment's is 0.3)");
  });

  it("the experiment's learning rate accepts up to 1000, on its slider too", () => {
    const def = OPTIMIZER_CONTROLS.find((d) => d.path === 'optimizer.lr')!;
    expect(def.hot).toBe(true);
    expect(rangeHint(def)).toBe('>0 … 1000');
    expect(def.slider).toMatchObject({ log: true, max: 3 });
    expect(validateDraft(setPath(draft(), 'optimizer.lr', 1000))).toEqual({});
    expect(validateDraft(setPath(draft(), 'optimizer.lr', 1000.5))['optimizer.lr']).toMatch(/≤ 1000/);
  });
});

describe('seed indices from a link or config', () => {
  it("resolveConfig's seedIndices errors land on the run settings' note", () => {
    const d = { ...draft(), seeds: 4, seedIndices: [0, 4] };
    expect(validateDraft(d)).toEqual({});
    expect(() => resolveConfig(d)).toThrow(/seedIndices\[1\]: must be a seed index from 0 to 3/);
    expect(controlPathOf('seedIndices[1]', d)).toBe('seedIndices');
    expect(controlPathOf('seedIndices', d)).toBe('seedIndices');
    expect(controlPathOf('seedIndices[1]', draft())).toBeNull();
  });
});
