import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config/resolve';
import { LESSONS } from '../../src/core/lessons/lessons';
import { applyVariant, describeVariant, startsUniform, standardVariants, type Variant } from '../../src/core/lessons/variants';
import { lessonVerdict } from '../../src/core/lessons/verdict';
import type { ExperimentResult } from '../../src/core/run/result';
import { runCpu, runTensor, useBackend } from '../support/tensor';

// Every lesson under every variant it declares (its `holdsUnder`): the verdict it teaches must
// survive the changes a reader would try first — the learning rate halved and doubled, other
// experiment seeds, a random start — or the lesson teaches an artifact of its numbers.

const isMlp = (config: Record<string, unknown>) => (config.policy as { kind?: string } | undefined)?.kind === 'mlp';
const key = (v: Variant) => JSON.stringify(v);

describe('applyVariant', () => {
  const base = { version: 1, env: { preset: 'lock' }, optimizer: { kind: 'sgd', lr: 3 }, algorithms: [{ id: 'grpo' }, { id: 'seeupo', lr: 10 }] };
  it('lr ×k scales the optimizer\'s lr and every algorithm\'s own lr, and leaves the lesson\'s config alone', () => {
    const c = applyVariant(base, { scale: 'lr', by: 0.5 });
    expect(c.optimizer).toEqual({ kind: 'sgd', lr: 1.5 });
    expect(c.algorithms).toEqual([{ id: 'grpo' }, { id: 'seeupo', lr: 5 }]);
    expect(base.optimizer.lr).toBe(3);
    expect(base.algorithms[1]).toEqual({ id: 'seeupo', lr: 10 });
  });
  it('seed sets the experiment seed; initScale sets the policy\'s random start and keeps its other fields', () => {
    expect(applyVariant(base, { seed: 7 }).seed).toBe(7);
    expect(applyVariant(base, { initScale: 0.3 }).policy).toEqual({ kind: 'tabular', initScale: 0.3 });
    expect(applyVariant({ ...base, policy: { kind: 'tabular', shareContexts: true } }, { initScale: 0.3 }).policy).toEqual({ kind: 'tabular', shareContexts: true, initScale: 0.3 });
    expect(resolveConfig(applyVariant(base, { initScale: 0.3 })).policy.initScale).toBe(0.3);
  });
  it('refuses a variant it cannot apply, naming the field', () => {
    expect(() => applyVariant(base, { scale: 'lr', by: 0 })).toThrow(/holdsUnder\.by/);
    expect(() => applyVariant({ version: 1 }, { scale: 'lr', by: 2 })).toThrow(/optimizer\.lr/);
    expect(() => applyVariant(base, { seed: -1 })).toThrow(/holdsUnder\.seed/);
    expect(() => applyVariant(base, { initScale: Number.NaN })).toThrow(/holdsUnder\.initScale/);
  });
  it('describes variants in words', () => {
    expect(standardVariants(true).map(describeVariant)).toEqual(['lr ×0.5', 'lr ×2', 'seed 7', 'seed 11', 'initScale 0.3']);
    expect(startsUniform({ policy: { kind: 'tabular', initScale: 2 } })).toBe(false);
    expect(startsUniform({})).toBe(true);
  });
});

describe('what each lesson declares', () => {
  for (const l of LESSONS) {
    it(`${l.id}: lr ×0.5 and ×2, two other seeds${startsUniform(l.config) ? ', a random start' : ''} — or a narrow band it names`, () => {
      const declared = new Set(l.holdsUnder.map(key));
      const seeds = l.holdsUnder.filter((v) => 'seed' in v).length;
      expect(seeds, `${l.id}: two other experiment seeds`).toBeGreaterThanOrEqual(2);
      // from a uniform start: a random start too — or a narrow band that says what a random start does
      if (startsUniform(l.config) && !l.holdsUnder.some((v) => 'initScale' in v)) {
        expect(l.band, `${l.id}: a random start, or a band`).toBeDefined();
        expect(l.text, `${l.id}: says what a random start does`).toMatch(/random start/);
      }
      const lrBoth = declared.has(key({ scale: 'lr', by: 0.5 })) && declared.has(key({ scale: 'lr', by: 2 }));
      if (!lrBoth) {
        // a lesson that does not hold from half to twice its step lives in a narrow band, and says so
        expect(l.band, `${l.id}: lr ×0.5 and ×2, or a band`).toBeDefined();
        expect(`${l.title} ${l.text}`, `${l.id}: says it is a narrow band`).toMatch(/narrow band/i);
      }
    });
  }
});

describe('every lesson under every declared variant gives its declared verdict', () => {
  beforeAll(() => useBackend('wasm'), 60_000);
  for (const l of LESSONS) {
    for (const v of l.holdsUnder) {
      it(`${l.id} under ${describeVariant(v)}: ${l.expect}`, async () => {
        const config = applyVariant(l.config, v);
        const result: ExperimentResult = isMlp(config) ? await runTensor(config) : await runCpu(config);
        const got = lessonVerdict(l, result.claims)!;
        expect(got.verdict, `${l.id} under ${describeVariant(v)}: ${got.reason}`).toBe(l.expect);
      }, 180_000);
    }
  }
});
