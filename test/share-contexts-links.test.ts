import { describe, expect, it } from 'vitest';
import { decodeLink, encodeLink } from '../src/core/config/link-codec';
import { DEFAULT_VIEW } from '../src/core/config/view';
import { importConfig } from '../src/core/config/import-file';
import { parseSweep, resolveCell } from '../src/core/sweep/cells';
import { policyControls } from '../src/ui/controls/registry';
import { SUGGESTED_AXES } from '../src/ui/sweep-state';
import { parseAxisValues } from '../src/ui/sweep-actions';
import { runSweepCellsInNode } from '../src/cli/sweep-run';

// policy.shareContexts through the page's controls, links, config import and sweeps
// (docs/math.md, "Policies"; docs/cli.md).

const HAND_ENV = { turns: 1, vocab: 2, tokensPerTurn: 1, contexts: 2, rewards: [[1, 0], [0, 0.5]] };
const config = (policy: Record<string, unknown>, env: Record<string, unknown> = HAND_ENV) => ({
  version: 1,
  env,
  policy,
  mode: 'exact',
  iterations: 5,
  seeds: 1,
  algorithms: [{ id: 'grpo' }],
});
const state = (cfg: Record<string, unknown>) => ({ config: cfg, view: DEFAULT_VIEW, hash: null, embed: false, exact: true, lesson: null, classroom: false, hide: [] });

describe('links', () => {
  it('a shared table travels as policy.shareContexts=1 and comes back', () => {
    const link = encodeLink(state(config({ kind: 'tabular', shareContexts: true })));
    expect(link).toContain('policy.shareContexts=1');
    const d = decodeLink(link);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect((d.state.config.policy as Record<string, unknown>).shareContexts).toBe(true);
    expect(d.exp.policy).toEqual({ kind: 'tabular', initScale: 0, shareContexts: true });
    expect(encodeLink(d.state)).toBe(link);
  });
  it('reads true/false and 0 too; 0 is the plain table', () => {
    const base = encodeLink(state(config({ kind: 'tabular' }))) + '&policy.kind=tabular'; // the default policy is left out of a link
    const on = decodeLink(base + '&policy.shareContexts=true');
    expect(on.ok && on.exp.policy).toEqual({ kind: 'tabular', initScale: 0, shareContexts: true });
    const off = decodeLink(base + '&policy.shareContexts=0');
    expect(off.ok && off.exp.policy).toEqual({ kind: 'tabular', initScale: 0 });
  });
  it('refusals name the field and why', () => {
    const base = encodeLink(state(config({ kind: 'tabular' }))) + '&policy.kind=tabular';
    const two = decodeLink(base + '&policy.shareContexts=2');
    expect(two).toMatchObject({ ok: false, field: 'policy.shareContexts' });
    expect(!two.ok && two.message).toMatch(/must be true or false, got 2/);
    const one = decodeLink(encodeLink(state(config({ kind: 'tabular' }, { ...HAND_ENV, contexts: 1, rewards: [[1, 0]] }))) + '&policy.kind=tabular&policy.shareContexts=1');
    expect(one).toMatchObject({ ok: false, field: 'policy.shareContexts' });
    expect(!one.ok && one.message).toMatch(/needs at least 2 contexts \(env\.contexts is 1\)/);
    const mlp = decodeLink(encodeLink(state(config({ kind: 'mlp' }))) + '&policy.shareContexts=1');
    expect(mlp).toMatchObject({ ok: false, field: 'policy.shareContexts' });
    expect(!mlp.ok && mlp.message).toMatch(/tabular policies only/);
  });
});

describe('config import', () => {
  it('takes a shared table and refuses it on an MLP, naming the field', () => {
    const ok = importConfig(JSON.stringify(config({ kind: 'tabular', shareContexts: true })));
    expect(ok.ok).toBe(true);
    const bad = importConfig(JSON.stringify(config({ kind: 'mlp', shareContexts: true })));
    expect(bad).toMatchObject({ ok: false, field: 'policy.shareContexts' });
  });
});

describe('the page’s policy controls', () => {
  it('a tabular policy has the "share the table across prompts" switch; an MLP has none', () => {
    const def = policyControls({ policy: { kind: 'tabular' } }).find((d) => d.path === 'policy.shareContexts');
    expect(def).toMatchObject({ kind: 'bool', label: 'Share the table across prompts', hot: false, fallback: false });
    expect(policyControls({ policy: { kind: 'mlp' } }).some((d) => d.path === 'policy.shareContexts')).toBe(false);
  });
});

describe('sweeps', () => {
  it('policy.shareContexts is an axis: the cells differ in J* (0.75 with a table per prompt, 0.5 shared) and in GRPO’s end point', async () => {
    const axis = SUGGESTED_AXES.find((a) => a.path === 'policy.shareContexts')!;
    expect(parseAxisValues(axis.values)).toEqual([false, true]);
    const sweep = parseSweep({ version: 1, base: { ...config({ kind: 'tabular' }), iterations: 60, optimizer: { kind: 'sgd', lr: 3 } }, axes: [{ path: 'policy.shareContexts', values: [false, true] }] });
    expect(resolveCell(sweep, 1).policy).toEqual({ kind: 'tabular', initScale: 0, shareContexts: true });
    const { cells } = await runSweepCellsInNode(sweep, [0, 1], { threads: 1, workers: null, shard: null });
    expect(cells.map((c) => c.Jstar)).toEqual([0.75, 0.5]);
    expect(cells[0].algorithms[0].finalJ.mean!).toBeGreaterThan(0.74);
    expect(cells[1].algorithms[0].finalJ.mean!).toBeLessThan(0.376); // group normalization cancels the two prompts' pulls
  });
  it('a one-context base refuses the true cell, naming the field', () => {
    expect(() =>
      parseSweep({ version: 1, base: config({ kind: 'tabular' }, { ...HAND_ENV, contexts: 1, rewards: [[1, 0]] }), axes: [{ path: 'policy.shareContexts', values: [false, true] }] }),
    ).toThrow(/policy\.shareContexts.*at least 2 contexts/);
  });
});
