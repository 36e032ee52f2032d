import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { fieldsRead, presetRecord } from '../src/core/algo/records';
import * as O from '../src/core/options';

// Every option list lives in src/core/options.ts; the schema must accept exactly its values and
// name them all when refusing one.
function refusal(config: Record<string, unknown>): string {
  try {
    resolveConfig({ version: 1, env: { preset: 'lock' }, ...config });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('accepted');
}

const withAlgo = (field: string, value: unknown) => ({ algorithms: [{ id: 'seeupo', [field]: value }] });

const CASES: [string, readonly string[], (v: unknown) => Record<string, unknown>][] = [
  ['mode', O.MODES, (v) => ({ mode: v })],
  ['optimizer.kind', O.OPTIMIZERS, (v) => ({ optimizer: { kind: v, lr: 0.1 } })],
  ['executor', O.EXECUTORS, (v) => ({ executor: v })],
  ['backend', O.BACKENDS, (v) => ({ backend: v })],
  ['policy.activation', O.ACTIVATIONS, (v) => ({ policy: { kind: 'mlp', activation: v } })],
  ['algorithms[0].normalization', O.NORMALIZATIONS, (v) => withAlgo('normalization', v)],
  ['algorithms[0].order', O.TURN_ORDERS, (v) => withAlgo('order', v)],
  ['algorithms[0].rule', O.RULES, (v) => withAlgo('rule', v)],
  ['algorithms[0].advantage', O.ESTIMATORS, (v) => withAlgo('advantage', v)],
  ['algorithms[0].turnRatio', O.TURN_RATIOS, (v) => withAlgo('turnRatio', v)],
  ['algorithms[0].ratio', O.RATIO_LEVELS, (v) => withAlgo('ratio', v)],
];

describe('option lists (src/core/options.ts) drive the schema', () => {
  for (const [path, values, build] of CASES) {
    it(`${path}: refuses a value outside [${values.join(', ')}] and names every allowed one`, () => {
      const msg = refusal(build('nope'));
      expect(msg).toContain(path);
      for (const v of values) expect(msg).toContain(`"${v}"`);
    });
  }

  it('every listed turn order and normalization resolves onto the record', () => {
    for (const order of O.TURN_ORDERS)
      for (const normalization of O.NORMALIZATIONS) {
        const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'seeupo', order, normalization }] });
        expect([exp.algorithms[0]!.order, exp.algorithms[0]!.normalization]).toEqual([order, normalization]);
      }
  });
});

describe('fieldsRead', () => {
  it('drops the gae-only fields unless the advantage is gae', () => {
    expect([...fieldsRead(presetRecord('grpo'))].sort()).toEqual(['advantage', 'clip', 'epochs', 'lr', 'minibatches', 'normalization', 'ratio']);
    expect(fieldsRead(presetRecord('ppo-gae')).has('gaeLambda')).toBe(true);
    expect(fieldsRead(presetRecord('ppo-gae')).has('criticLr')).toBe(true);
  });

  it('a sequential rule reads the turn order and M, a reinforce rule does not read the clip', () => {
    expect(fieldsRead(presetRecord('seeupo')).has('order')).toBe(true);
    expect(fieldsRead(presetRecord('seeupo')).has('mClip')).toBe(true);
    expect(fieldsRead(presetRecord('reinforce')).has('clip')).toBe(false);
  });

  it('resolving warns about exactly the fields fieldsRead leaves out', () => {
    const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'grpo', gaeLambda: 0.9, order: 'forward', clip: 0.3 }] });
    expect(exp.warnings).toEqual(['algorithms[0] (grpo): order, gaeLambda ignored by the ppu rule with grae advantages']);
  });
});
