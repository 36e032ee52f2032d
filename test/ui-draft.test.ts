import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { algorithmEntrySchema, configSchema, customEnvSchema, policySchema } from '../src/core/config/schema';
import { ENV_PRESET_NAMES } from '../src/core/env/presets';
import {
  addAlgorithm,
  algorithmSummary,
  controlPathOf,
  getPath,
  isHotPath,
  numberOrText,
  removeAlgorithm,
  resizeRewards,
  setEnvPreset,
  setPath,
  toCustomEnv,
  validateDraft,
} from '../src/ui/draft';
import { controlsFor, OPTIONS } from '../src/ui/controls/registry';

const draft = (): Record<string, unknown> => structuredClone(DEFAULT_CONFIG) as Record<string, unknown>;
const ok = <T extends { ok: boolean }>(r: T) => {
  if (!r.ok) throw new Error((r as unknown as { error: string }).error);
  return (r as unknown as { draft: Record<string, unknown> }).draft;
};

describe('paths', () => {
  it('reads and writes nested paths without touching the original', () => {
    const d = draft();
    const e = setPath(d, 'algorithms[2].clip', 0.1);
    expect(getPath(e, 'algorithms[2].clip')).toBe(0.1);
    expect(getPath(d, 'algorithms[2].clip')).toBeUndefined();
    expect(e.algorithms).not.toBe(d.algorithms);
    expect((e.algorithms as unknown[])[0]).toBe((d.algorithms as unknown[])[0]);
    expect(e.env).toBe(d.env);
    for (const [path, value] of [['seeds', 3], ['env.turns', 4], ['optimizer.lr', 0.05], ['policy.hidden', [64, 64]], ['algorithms[0].normalization', 'batch']] as const) {
      expect(getPath(setPath(d, path, value), path)).toEqual(value);
    }
  });

  it('handles double indices and creates missing containers', () => {
    const t = setPath({}, 'env.rewards[1][2]', 5) as { env: { rewards: number[][] } };
    expect(t.env.rewards[1]).toEqual([0, 0, 5]);
    expect(getPath(t, 'env.rewards[1][2]')).toBe(5);
    expect(getPath(t, 'env.rewards[3][0]')).toBeUndefined();
    expect(getPath(t, 'env.nothing.here')).toBeUndefined();
  });

  it('removes a key set to undefined (back to the default)', () => {
    const d = setPath(draft(), 'env.turns', 4);
    expect(setPath(d, 'env.turns', undefined)).toEqual(draft());
  });
});

describe('numberOrText', () => {
  it('gives numbers for numeric text and the text otherwise', () => {
    expect(numberOrText('12')).toBe(12);
    expect(numberOrText(' 0.25 ')).toBe(0.25);
    expect(numberOrText('1e-3')).toBe(0.001);
    expect(numberOrText('-2')).toBe(-2);
    expect(numberOrText('abc')).toBe('abc');
    expect(numberOrText('')).toBe('');
    expect(numberOrText('Infinity')).toBe('Infinity');
    expect(numberOrText('1,5')).toBe('1,5');
  });
});

describe('validateDraft', () => {
  it('accepts the default config', () => {
    expect(validateDraft(draft())).toEqual({});
  });

  it('gives each bad field its own message naming the field and the allowed range', () => {
    let d = setPath(draft(), 'seeds', numberOrText('abc'));
    d = setPath(d, 'algorithms[2].clip', 0);
    const errors = validateDraft(d);
    expect(Object.keys(errors).sort()).toEqual(['algorithms[2].clip', 'seeds']);
    expect(errors.seeds).toBe('seeds: must be an integer from 1 to 1024, got "abc"');
    expect(errors['algorithms[2].clip']).toBe('algorithms[2].clip: must be a number > 0 and ≤ 10, got 0');
  });

  it("checks a preset's sizes against the preset's own ranges, in the words resolveConfig uses", () => {
    const d = setPath(draft(), 'env.turns', 9);
    const errors = validateDraft(d);
    // the schema checks a preset's sizes (presetEnvSchema), so the message names the preset as the CLI's does
    expect(errors['env.turns']).toBe('env.turns: must be an integer from 2 to 6 for preset "lock", got 9');
    expect(() => resolveConfig(d)).toThrow(errors['env.turns']);
  });

  it("shows the schema's message for every bad field at once, each the one resolveConfig gives for it alone", () => {
    const edits: [string, unknown][] = [['iterations', 0], ['env.gamma', 2], ['optimizer.lr', numberOrText('fast')], ['algorithms[0].epochs', 0], ['algorithms[3].label', '']];
    const all = validateDraft(edits.reduce((d, [p, v]) => setPath(d, p, v), draft()));
    expect(Object.keys(all)).toEqual(['env.gamma', 'iterations', 'optimizer.lr', 'algorithms[0].epochs', 'algorithms[3]']); // the controls' order
    for (const [path, value] of edits) {
      const one = setPath(draft(), path, value);
      expect(() => resolveConfig(one)).toThrow(Object.values(validateDraft(one))[0]);
    }
  });

  it('checks selects, booleans, lists and nullable numbers with the schema builders', () => {
    let d = setPath(draft(), 'mode', 'fast');
    d = setPath(d, 'algorithms[6].mCorrection', 'yes');
    d = setPath(d, 'algorithms[6].mClip', 1);
    d = setPath(d, 'policy', { kind: 'mlp', hidden: [32, 'x'] });
    const e = validateDraft(d);
    expect(e.mode).toBe('mode: must be one of "exact", "sampled", got "fast"');
    expect(e['algorithms[6].mCorrection']).toMatch(/must be true or false/);
    expect(e['algorithms[6].mClip']).toBe('algorithms[6].mClip: must be null or a number > 0 and < 1, got 1');
    expect(e['policy.hidden']).toBe('policy.hidden[1]: must be an integer from 1 to 1024, got "x"');
  });

  it('names the cell of a wrong-size table and of a non-numeric cell', () => {
    const custom = ok(toCustomEnv(draft()));
    const rewards = getPath(custom, 'env.rewards') as number[][];
    expect(rewards[0]).toHaveLength(27);
    const short = setPath(custom, 'env.rewards[0]', rewards[0]!.slice(0, 26));
    expect(validateDraft(short)['env.rewards[0]']).toMatch(/^env\.rewards\[0\]: must have 27 numbers .*got 26: env\.rewards\[0\]\[26\] is missing$/);
    const bad = setPath(custom, 'env.rewards[0][3]', numberOrText('x'));
    expect(validateDraft(bad)).toEqual({ 'env.rewards[0][3]': 'env.rewards[0][3]: must be a finite number, got "x"' });
    const rows = setPath(custom, 'env.contexts', 2);
    expect(validateDraft(rows)['env.rewards']).toMatch(/one table per context \(2\), got 1: env\.rewards\[1\] is missing/);
  });
});

describe('validateDraft on a large table', () => {
  it('marks at most 50 bad cells of a table and counts the rest', () => {
    const big = ok(resizeRewards(setPath(ok(toCustomEnv(draft())), 'env.vocab', 4))); // 64 cells
    const bad = (getPath(big, 'env.rewards') as number[][])[0]!.reduce((d, _, s) => setPath(d, `env.rewards[0][${s}]`, numberOrText('x')), big);
    const e = validateDraft(bad);
    expect(Object.keys(e).filter((k) => k.startsWith('env.rewards[0]['))).toHaveLength(50);
    expect(e['env.rewards']).toBe('env.rewards: 64 cells are not finite numbers (the first 50 are marked)');
  });
});

describe('controlPathOf', () => {
  it('maps resolveConfig errors to the control that shows them', () => {
    const d = draft();
    expect(controlPathOf('seeds', d)).toBe('seeds');
    expect(controlPathOf('algorithms[2].clip', d)).toBe('algorithms[2].clip');
    expect(controlPathOf('algorithms[2].id', d)).toBe('algorithms[2]');
    expect(controlPathOf('env', d)).toBe('env.turns');
    expect(controlPathOf('env.noise', d)).toBe('env.noise.kind');
    expect(controlPathOf('executor', d)).toBe('executor');
    expect(controlPathOf('', d)).toBeNull();
    expect(controlPathOf('env.bogus', d)).toBeNull();
  });

  it('maps the sequence-limit error of a too-large env to env.turns', () => {
    const d = setPath(setPath(draft(), 'env', { preset: 'two-prompts', vocab: 8, turns: 6 }), 'mode', 'exact');
    expect(validateDraft(d)).toEqual({});
    let path = '';
    try {
      resolveConfig(d);
    } catch (e) {
      path = (e as { path: string }).path;
    }
    expect(path).toBe('env');
    expect(controlPathOf(path, d)).toBe('env.turns');
  });
});

describe('draft edits', () => {
  it('adds algorithms with unique ids', () => {
    let d = draft();
    d = ok(addAlgorithm(d, 'grpo'));
    d = ok(addAlgorithm(d, 'grpo'));
    const ids = (d.algorithms as { id: string }[]).map((a) => a.id);
    expect(ids.slice(-2)).toEqual(['grpo-2', 'grpo-3']);
    expect(new Set(ids).size).toBe(ids.length);
    const exp = resolveConfig(d);
    expect(exp.algorithms.at(-1)).toMatchObject({ id: 'grpo-3', rule: 'ppu', normalization: 'group' });
    const one = ok(addAlgorithm({ ...draft(), algorithms: [] }, 'grpo'));
    expect(one.algorithms).toEqual([{ id: 'grpo' }]);
    expect(addAlgorithm(d, 'nope').ok).toBe(false);
  });

  it('adds to the nine default algorithms when the config leaves them out', () => {
    const { algorithms: _, ...rest } = draft();
    const d = ok(addAlgorithm(rest, 'seeupo'));
    expect((d.algorithms as { id: string }[]).map((a) => a.id)).toEqual([...(draft().algorithms as { id: string }[]).map((a) => a.id), 'seeupo-2']);
  });

  it('removes algorithms but not the last one', () => {
    let d = draft();
    d = ok(removeAlgorithm(d, 0));
    expect((d.algorithms as unknown[]).length).toBe(8);
    d = { ...d, algorithms: [{ id: 'grpo' }] };
    const r = removeAlgorithm(d, 0);
    expect(r.ok).toBe(false);
  });

  it('turns the default lock preset into a custom table with the same rewards', () => {
    const d = draft();
    const custom = ok(toCustomEnv(d));
    expect(custom.env).not.toHaveProperty('preset');
    const a = resolveConfig(d).env;
    const b = resolveConfig(custom).env;
    expect(b.rewards.map((r) => Array.from(r))).toEqual(a.rewards.map((r) => Array.from(r)));
    expect(b.noise).toEqual(a.noise);
    expect(b.gamma).toBe(a.gamma);
    expect(validateDraft(custom)).toEqual({});
  });

  it('keeps per-context noise when a two-context preset becomes custom', () => {
    const d = ok(setEnvPreset(draft(), 'two-prompts'));
    const b = resolveConfig(ok(toCustomEnv(d))).env;
    expect(b.noise).toEqual(resolveConfig(d).env.noise);
  });

  it('refuses to open tables past 512 cells in the editor', () => {
    const d = setPath(draft(), 'env', { preset: 'needle', vocab: 16, turns: 3 });
    const r = toCustomEnv(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/4,096 cells.*512/);
  });

  it('resizes a custom table with zeros', () => {
    const custom = setPath(ok(toCustomEnv(draft())), 'env.turns', 2);
    const resized = ok(resizeRewards(custom));
    expect(getPath(resized, 'env.rewards')).toEqual([new Array(9).fill(0)]);
    expect(validateDraft(resized)).toEqual({});
    expect(resizeRewards(setPath(custom, 'env.vocab', 30)).ok).toBe(false);
  });

  it('switches presets, keeping γ', () => {
    const d = ok(setEnvPreset(setPath(draft(), 'env.gamma', 0.9), 'needle'));
    expect(d.env).toEqual({ preset: 'needle', gamma: 0.9 });
  });

  it('summarizes an algorithm on one line', () => {
    expect(algorithmSummary({ id: 'grpo' })).toBe('GRPO · grae · group norm · ppu · token ratio · ε 0.2');
    expect(algorithmSummary({ id: 'reinforce' })).toBe('REINFORCE · grae · no norm · reinforce');
    expect(algorithmSummary({ id: 'x', preset: 'seeupo', clip: 0.1 })).toBe('x · grae · batch norm · sequential · reverse · product · ε 0.1');
  });
});

describe('hot paths', () => {
  it('applies lr and clip live; everything else restarts', () => {
    expect(isHotPath('optimizer.lr')).toBe(true);
    expect(isHotPath('algorithms[0].clip')).toBe(true);
    expect(isHotPath('algorithms[12].clip')).toBe(true);
    for (const p of ['seeds', 'env.turns', 'optimizer.kind', 'algorithms[0].epochs', 'algorithms[0].clipx', 'env.rewards[0][3]'])
      expect(isHotPath(p)).toBe(false);
  });

  it('registry marks exactly the hot paths as hot', () => {
    for (const def of controlsFor(draft())) expect(def.hot, def.path).toBe(isHotPath(def.path));
  });
});

describe('registry option lists', () => {
  // The schema writes these lists inline: its message for a bad value lists them.
  const listed = (r: { success: boolean; error?: { issues: { message: string }[] } }) => {
    const m = r.error!.issues[0]!.message;
    return [...m.slice(0, m.indexOf(', got')).matchAll(/"([^"]+)"/g)].map((x) => x[1]);
  };
  it('match the schema', () => {
    const bad = '__bad__';
    for (const k of ['advantage', 'normalization', 'rule', 'ratio', 'order', 'turnRatio'] as const)
      expect(listed(algorithmEntrySchema.safeParse({ id: 'a', [k]: bad })), k).toEqual([...OPTIONS[k]]);
    expect(listed(configSchema.safeParse({ version: 1, mode: bad }))).toEqual([...OPTIONS.mode]);
    expect(listed(configSchema.safeParse({ version: 1, optimizer: { kind: bad, lr: 1 } }))).toEqual([...OPTIONS.optimizer]);
    expect(listed(policySchema.safeParse({ kind: bad }))).toEqual([...OPTIONS.policy]);
    expect(listed(policySchema.safeParse({ kind: 'mlp', activation: bad }))).toEqual([...OPTIONS.activation]);
    expect(listed(customEnvSchema.safeParse({ turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, 0]], noise: { kind: bad } }))).toEqual([...OPTIONS.noise]);
    expect(ENV_PRESET_NAMES.length).toBeGreaterThan(0);
  });
});
