import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { buildTree } from '../src/core/env/tree';
import { NODE_OPTIMAL, prefixTokens, turnOfLength, type PolicyTreeView } from '../src/core/env/policy-tree';
import { CpuShard } from '../src/exec/cpu/shard';
import { makeCpuSteppable } from '../src/worker/cpu-session';
import { sessionHost } from '../src/worker/session-host';
import type { SessionEvent } from '../src/worker/session-protocol';

// The worker's side of the policy tree: the watched runs' trees after an iteration and after each
// turn step (the 5-turn lock at lr 300, exact mode: SeeUPO in reverse order against GRPO).

const CONFIG = {
  version: 1,
  env: { preset: 'lock', turns: 5 },
  mode: 'exact',
  iterations: 3,
  seeds: 1,
  optimizer: { kind: 'sgd', lr: 300 },
  algorithms: [{ id: 'seeupo' }, { id: 'grpo' }],
};

const specs = [
  { algoIndex: 0, seedIndex: 0 },
  { algoIndex: 1, seedIndex: 0 },
];

describe('CpuShard trees', () => {
  const exp = resolveConfig(CONFIG);
  const tree = buildTree(exp.env);
  const probs = (v: PolicyTreeView) => new Map(v.ids.map((id, i) => [id, v.prob[i]]));

  it('only watched runs, uniform at the start; each turn step moves only its turn, last turn first', () => {
    const shard = new CpuShard(exp, specs);
    shard.watch([[0, 0]], 0);
    const start = shard.trees();
    expect(start.map((t) => t.algoIndex)).toEqual([0]);
    for (let i = 1; i < start[0].ids.length; i++) expect(start[0].prob[i]).toBeCloseTo(1 / 3, 15);
    const recs = shard.step(true)!;
    expect(recs[1].trees).toBeUndefined(); // GRPO is not watched
    const steps = recs[0].trees!;
    expect(steps.map((t) => t.turn)).toEqual([4, 3, 2, 1, 0]);
    let before = probs(start[0]);
    for (const view of steps) {
      const now = probs(view);
      for (const [id, p] of now) {
        const old = before.get(id);
        if (old === undefined || id === 0) continue;
        const turn = turnOfLength(tree, prefixTokens(tree, id).length) - 1;
        if (turn === view.turn) expect(Math.abs(p - old), `prefix ${prefixTokens(tree, id)}`).toBeGreaterThan(1e-3);
        else expect(p).toBe(old);
      }
      before = now;
    }
    const last = steps[steps.length - 1];
    last.ids.forEach((id, i) => {
      if (id !== 0 && last.flags[i] & NODE_OPTIMAL) expect(last.prob[i]).toBeGreaterThanOrEqual(0.99);
    });
    // the advantage fed along the code is the batch's: positive on its tokens
    const code = last.ids.findIndex((id) => prefixTokens(tree, id).join('-') === '0-1-0-1-0');
    expect(last.fed[code]).toBeGreaterThan(0);
  });

  it('GRPO, every turn at once: one tree, whose turn-1 exit is the likeliest', () => {
    const shard = new CpuShard(exp, specs);
    shard.watch([[1, 0]], 0);
    const [rec] = shard.step(true)!.slice(1);
    expect(rec.trees!.map((t) => t.turn)).toEqual([-1]);
    const view = rec.trees![0];
    const first = view.ids.map((id, i) => ({ t: prefixTokens(tree, id), p: view.prob[i] })).filter((n) => n.t.length === 1);
    const exit = first.find((n) => n.t[0] === 2)!;
    for (const n of first) if (n !== exit) expect(exit.p).toBeGreaterThan(n.p);
  });
});

describe('session host: watch', () => {
  it('sends the watched trees at once and after every iteration', async () => {
    const events: SessionEvent[] = [];
    let wake: () => void = () => {};
    const handle = sessionHost((e) => {
      events.push(structuredClone(e));
      wake();
    }, makeCpuSteppable);
    const until = (pred: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (pred() ? resolve() : (wake = check));
        check();
      });
    handle({ type: 'init', config: CONFIG, specs });
    await until(() => events.some((e) => e.type === 'ready'));
    handle({ type: 'watch', runs: [[0, 0], [1, 0]], context: 0 });
    await until(() => events.some((e) => e.type === 'policy'));
    const first = events.find((e) => e.type === 'policy') as Extract<SessionEvent, { type: 'policy' }>;
    expect(first.trees.map((t) => [t.algoIndex, t.iteration])).toEqual([[0, 0], [1, 0]]);
    handle({ type: 'go', seq: 1, until: 2 });
    await until(() => events.some((e) => e.type === 'paused'));
    const last = events.filter((e) => e.type === 'policy').pop() as Extract<SessionEvent, { type: 'policy' }>;
    expect(last.trees.map((t) => t.iteration)).toEqual([2, 2]);
    expect(last.trees[0].ids.length).toBeLessThanOrEqual(160);
    handle({ type: 'watch', runs: [], context: 0 });
    const n = events.filter((e) => e.type === 'policy').length;
    handle({ type: 'go', seq: 2, until: 3 });
    await until(() => events.some((e) => e.type === 'done'));
    expect(events.filter((e) => e.type === 'policy').length).toBe(n);
  });
});
