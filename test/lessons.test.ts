import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { LESSONS, lessonById } from '../src/core/lessons/lessons';
import type { ExperimentResult } from '../src/core/run/result';
import { lessonVerdict } from '../src/core/lessons/verdict';
import { runCpu, runTensor, useBackend } from './support/tensor';

// The claims lab's lessons (src/core/lessons): each is run to its end through the engine the CLI
// uses (the CPU executor for tables, the tensor executor on wasm for an MLP), and the verdict on
// its claim must be the one it declares.

/** The page's data-testids a tour may point at. */
const KNOWN_TARGETS = new Set([
  'run',
  'step',
  'step-turn',
  'pause',
  'reset',
  'chart-return',
  'chart-seeds',
  'chart-heatmap',
  'chart-metric',
  'chart-gap',
  'summary-table',
  'summary-caption',
  'claim-1',
  'claim-2',
  'claim-3',
  'claim-4',
  'claim-5',
]);

const isMlp = (config: Record<string, unknown>) => (config.policy as { kind?: string } | undefined)?.kind === 'mlp';

describe('the lessons, as data', () => {
  it('ids are unique, lowercase letters, digits and dashes', () => {
    const ids = LESSONS.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const id of ids) expect(lessonById(id)?.id).toBe(id);
    expect(lessonById('no-such-lesson')).toBeUndefined();
  });

  it('each claim 1–5 has a lesson where it is observed and a contrast (not observed or not testable)', () => {
    for (const claim of [1, 2, 3, 4, 5] as const) {
      const mine = LESSONS.filter((l) => l.claim === claim);
      expect(mine.some((l) => l.expect === 'observed'), `claim ${claim}: observed`).toBe(true);
      expect(mine.some((l) => l.expect === 'not observed' || l.expect === 'not testable'), `claim ${claim}: contrast`).toBe(true);
    }
  });

  it('every config passes resolveConfig with version 1', () => {
    for (const l of LESSONS) {
      expect(l.config.version, l.id).toBe(1);
      expect(() => resolveConfig(l.config), l.id).not.toThrow();
    }
  });

  it('texts are 2–4 sentences; titles are set; tours are short and point at known test ids', () => {
    for (const l of LESSONS) {
      expect(l.title.trim().length, l.id).toBeGreaterThan(0);
      // sentence ends: ". " / "! " / "? " followed by a capital or digit, plus the final stop
      const sentences = l.text.trim().split(/(?<=[.!?])\s+(?=[A-Z0-9“"'(])/).length;
      expect(sentences, `${l.id}: ${sentences} sentences`).toBeGreaterThanOrEqual(2);
      expect(sentences, `${l.id}: ${sentences} sentences`).toBeLessThanOrEqual(4);
      expect(l.tour.length, l.id).toBeLessThanOrEqual(6);
      for (const step of l.tour) {
        expect(step.text.trim().length, l.id).toBeGreaterThan(0);
        if (step.target !== undefined) expect(KNOWN_TARGETS.has(step.target), `${l.id}: target ${step.target}`).toBe(true);
        if (step.action !== undefined) expect(['step', 'step-turn', 'run']).toContain(step.action);
      }
      if (l.look !== undefined) expect(KNOWN_TARGETS.has(l.look), l.id).toBe(true);
    }
  });

  it('a step about the heatmaps or the seed charts says what the classroom shows in their place (the tree, the return chart)', () => {
    for (const l of LESSONS) {
      for (const step of l.tour) {
        if (step.target === 'chart-heatmap') {
          expect(step.standIn, `${l.id}: "${step.text}"`).toMatch(/\btrees?\b/);
          expect(step.standIn, l.id).not.toMatch(/heatmap|\brows?\b|bright|dark/i);
        } else if (step.target === 'chart-seeds') {
          expect(step.standIn, `${l.id}: "${step.text}"`).toMatch(/return chart/);
          expect(step.standIn, l.id).not.toMatch(/^The seed charts/);
        } else expect(step.standIn, `${l.id}: a stand-in text for a target that has none`).toBeUndefined();
      }
    }
  });

  it('the reverse-order lessons of claims 3 and 4 and the narrow-band lessons have a tour of 3–6 steps; step-turn where order is the point', () => {
    const toured = LESSONS.filter((l) => ((l.claim === 3 || l.claim === 4) && l.expect === 'observed') || l.band !== undefined);
    expect(toured.length).toBeGreaterThanOrEqual(3);
    for (const l of toured) expect(l.tour.length, l.id).toBeGreaterThanOrEqual(3);
    expect(LESSONS.some((l) => l.claim === 4 && l.expect === 'observed' && l.tour.some((s) => s.action === 'step-turn'))).toBe(true);
  });
});

describe('each lesson, run to its end, gives the verdict it declares', () => {
  beforeAll(() => useBackend('wasm'), 60_000);

  for (const l of LESSONS) {
    it(`${l.id}: claim ${l.claim} ${l.expect}`, async () => {
      const result: ExperimentResult = isMlp(l.config) ? await runTensor(l.config) : await runCpu(l.config);
      const got = lessonVerdict(l, result.claims)!;
      expect(got.verdict, `${l.id}: ${got.reason}`).toBe(l.expect);
      // a lesson ends settled: the verdict is not one that running longer could change
      expect(got.verdict).not.toBe('undecided');
    }, 120_000);
  }
});

describe('the opening experiment', () => {
  it('is a lesson where reverse-order SeeUPO reaches J* and GRPO and forward order do not: claims 3 and 4 observed', async () => {
    const { OPENING_LESSON } = await import('../src/core/lessons/lessons');
    const lesson = lessonById(OPENING_LESSON)!;
    const result = await runCpu(lesson.config);
    const verdict = (n: number) => result.claims.find((c) => c.claim === n)!.verdict;
    expect([verdict(3), verdict(4)]).toEqual(['observed', 'observed']);
    const last = (id: string) => result.algorithms.find((a) => a.id === id)!.runs[0]!.J.at(-1)!;
    expect(last('seeupo')).toBeGreaterThan(result.Jstar - 0.01);
    for (const id of ['grpo', 'seeupo-forward']) expect(last(id)).toBeLessThan(0.31);
  });
});
