import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { computeOptimum } from '../src/core/env/exact';
import { buildTree } from '../src/core/env/tree';
import {
  childId, collapseTree, fedAdvantage, NODE_EXIT, NODE_FOLDED, NODE_OPTIMAL, optimalPathIds, policyTreeView, prefixCount, prefixId, prefixTokens, prefixValues, turnOfLength,
} from '../src/core/env/policy-tree';

const lock = (turns = 3) => resolveConfig({ version: 1, env: { preset: 'lock', turns }, mode: 'exact', algorithms: [{ id: 'grpo' }] });
const tokens = () => resolveConfig({ version: 1, env: { preset: 'tokens' }, mode: 'exact', algorithms: [{ id: 'grpo' }] });
const uniform = (tree: ReturnType<typeof buildTree>) => new Float64Array(tree.nodesPerContext * tree.V).fill(1 / tree.V);

describe('prefix ids', () => {
  it('round-trip every prefix of the 3-turn lock, children one token longer', () => {
    const tree = buildTree(lock().env);
    expect(prefixCount(tree)).toBe(13 + 27);
    for (let id = 0; id < prefixCount(tree); id++) {
      const t = prefixTokens(tree, id);
      expect(prefixId(tree, t)).toBe(id);
      if (id < tree.nodesPerContext) for (let a = 0; a < 3; a++) expect(prefixTokens(tree, childId(tree, id, a))).toEqual([...t, a]);
    }
    expect(prefixTokens(tree, prefixId(tree, [0, 1, 0]))).toEqual([0, 1, 0]);
    expect(prefixId(tree, [0, 1, 0])).toBe(13 + 3); // sequence 0·9 + 1·3 + 0
  });
  it('turns of prefixes with two tokens per turn', () => {
    const tree = buildTree(tokens().env);
    expect([0, 1, 2, 3, 4].map((p) => turnOfLength(tree, p))).toEqual([0, 1, 1, 2, 2]);
  });
});

describe('values on the 3-turn lock', () => {
  const exp = lock();
  const tree = buildTree(exp.env);
  const R = exp.env.returns[0];
  it('uniform policy: V^π by hand', () => {
    const v = prefixValues(tree, R, uniform(tree), 0);
    // root: 1/27 (the code) + 0.3/3 (the exit)
    expect(v.value[0]).toBeCloseTo(1 / 27 + 0.1, 14);
    expect(v.value[prefixId(tree, [0])]).toBeCloseTo(1 / 9, 14);
    expect(v.value[prefixId(tree, [2])]).toBeCloseTo(0.3, 14);
    expect(v.value[prefixId(tree, [1])]).toBe(0);
    expect(v.value[prefixId(tree, [0, 1])]).toBeCloseTo(1 / 3, 14);
    expect(v.best[0]).toBe(1);
    expect(v.best[prefixId(tree, [2])]).toBeCloseTo(0.3, 14);
    expect(v.worst[prefixId(tree, [2])]).toBeCloseTo(0.3, 14);
    expect(v.reach[prefixId(tree, [0, 1, 0])]).toBeCloseTo(1 / 27, 14);
  });
  it('a skewed policy: V^π is the reach-weighted mean of the returns', () => {
    const probs = uniform(tree);
    // root: π(0) = 0.5, π(1) = 0.1, π(2) = 0.4; node "0": π(1) = 0.8
    probs.set([0.5, 0.1, 0.4], 0);
    probs.set([0.1, 0.8, 0.1], prefixId(tree, [0]) * 3);
    const v = prefixValues(tree, R, probs, 0);
    // V("0") = 0.8 · 1/3 (turn 3 uniform); V(root) = 0.5 · 0.8/3 + 0.4 · 0.3
    expect(v.value[prefixId(tree, [0])]).toBeCloseTo(0.8 / 3, 14);
    expect(v.value[0]).toBeCloseTo(0.5 * (0.8 / 3) + 0.12, 14);
    expect(v.reach[prefixId(tree, [0, 1])]).toBeCloseTo(0.4, 14);
    let sum = 0;
    for (let s = 0; s < tree.sequences; s++) sum += v.reach[tree.nodesPerContext + s] * R[s];
    expect(sum).toBeCloseTo(v.value[0], 14);
  });
});

describe('collapse', () => {
  it('the lock: the code path with its siblings; dead branches and the exit folded', () => {
    const exp = lock();
    const tree = buildTree(exp.env);
    const opt = computeOptimum(exp.env, tree);
    const path = optimalPathIds(tree, opt.path[0], opt.optimal, 0);
    expect(path.map((id) => prefixTokens(tree, id).join('-'))).toEqual(['', '0', '0-1', '0-1-0']);
    const view = policyTreeView({ tree, returns: exp.env.returns[0], probs: uniform(tree), base: 0, path, fed: null }, { algoIndex: 0, seedIndex: 0, iteration: 0, turn: null, context: 0 });
    expect(view.ids.length).toBe(10);
    expect(view.hidden).toBe(40 - 10);
    const byPrefix = new Map(view.ids.map((id, i) => [prefixTokens(tree, id).join('-'), i]));
    expect(view.flags[byPrefix.get('2')!]).toBe(NODE_EXIT | NODE_FOLDED);
    expect(view.flags[byPrefix.get('1')!]).toBe(NODE_FOLDED);
    expect(view.flags[byPrefix.get('0-1')!]).toBe(NODE_OPTIMAL);
    expect(view.flags[byPrefix.get('0-1-0')!]).toBe(NODE_OPTIMAL);
    expect(view.prob[byPrefix.get('0-1')!]).toBeCloseTo(1 / 3, 14);
    expect(view.value[byPrefix.get('2')!]).toBeCloseTo(0.3, 14);
  });
  it('tokens: a reached branch that matters opens; the budget keeps it shut', () => {
    const exp = tokens();
    const tree = buildTree(exp.env);
    const opt = computeOptimum(exp.env, tree);
    const path = optimalPathIds(tree, opt.path[0], opt.optimal, 0);
    const v = prefixValues(tree, exp.env.returns[0], uniform(tree), 0);
    const total = prefixCount(tree); // 15 + 16
    const open = collapseTree(tree, v, path, { minReach: 0.02, maxShown: 11 });
    expect(open.shown.length).toBe(11);
    expect(open.shown).toContain(prefixId(tree, [1, 1]));
    expect(open.hidden).toBe(total - 11);
    const shut = collapseTree(tree, v, path, { minReach: 0.02, maxShown: 10 });
    expect(shut.shown.length).toBe(9);
    expect(shut.shown).not.toContain(prefixId(tree, [1, 1]));
    // reach below the threshold keeps it shut too
    const rare = collapseTree(tree, v, path, { minReach: 0.6, maxShown: 100 });
    expect(rare.shown.length).toBe(9);
  });
});

describe('the advantage fed to each edge', () => {
  it('weighted mean over the rollouts through the edge, NaN where none went', () => {
    const tree = buildTree(lock(2).env); // 2 turns, V = 3: nodes 0 (root), 1..3
    // three rollouts: 0-1 (w 0.5, adv 2 then 4), 0-2 (w 0.25, adv −2 then 1), 2-0 (w 0.25, adv 1 then 1)
    const batch = {
      n: 3,
      node: Int32Array.from([0, 1, 0, 1, 0, 3]),
      tok: Int32Array.from([0, 1, 0, 2, 2, 0]),
      weight: Float64Array.from([0.5, 0.25, 0.25]),
      advTok: Float64Array.from([2, 4, -2, 1, 1, 1]),
    };
    const fed = fedAdvantage(tree, 0, batch);
    expect(fed[0 * 3 + 0]).toBeCloseTo((0.5 * 2 + 0.25 * -2) / 0.75, 14);
    expect(fed[0 * 3 + 2]).toBe(1);
    expect(fed[1 * 3 + 1]).toBe(4);
    expect(fed[1 * 3 + 2]).toBe(1);
    expect(fed[0 * 3 + 1]).toBeNaN();
    expect(fed[3 * 3 + 1]).toBeNaN();
  });
});
