import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAIM_TITLES } from '../src/core/claims';
import { resolveConfig } from '../src/core/config/resolve';
import { CLAIM_NUMBERS, CLAIM_WORDS, outsideCondition } from '../src/core/lessons/claim-words';
import { LESSONS } from '../src/core/lessons/lessons';
import { CLAIM_TEXT } from '../src/ui/claims-text';
import { algorithmLabel } from '../src/core/algo/records';

// One source for every claim's words (src/core/lessons/claim-words.ts): the Claims view's cards,
// the verdict panel, the lessons and docs/claims.md say the same thing about each claim, and a
// lesson's words never contradict its claim's condition or its own declared verdict.

describe('one source for the claims\' words', () => {
  it('the page\'s claim texts are the core\'s, not a copy', () => {
    for (const n of CLAIM_NUMBERS) expect(CLAIM_TEXT[n]).toBe(CLAIM_WORDS[n]);
  });

  it('docs/claims.md heads each check with the title the verdicts carry', () => {
    const doc = readFileSync(new URL('../docs/claims.md', import.meta.url), 'utf8');
    for (const n of CLAIM_NUMBERS) expect(doc, `claim ${n}`).toContain(`### ${n}. ${CLAIM_TITLES[n]}`);
  });

  it('claim 1 is about the limit: the card says so, and no claim-1 text calls a finite run a refutation', () => {
    expect(CLAIM_WORDS[1].paper).toMatch(/in the limit/);
    expect(CLAIM_WORDS[1].rule).toMatch(/not reached in N iterations/);
    for (const l of LESSONS.filter((x) => x.claim === 1)) expect(`${l.title} ${l.text}`, l.id).not.toMatch(/\brefut(?:es|ed)\b(?! ")|\bdisprov/i);
  });

  it('claim 2: the card says the clipped objective is not a lower bound, and no lesson says it is one', () => {
    expect(CLAIM_WORDS[2].paper).toMatch(/not a lower bound/);
    for (const l of LESSONS) {
      const all = [l.text, ...l.tour.map((s) => s.text)].join(' ');
      expect(all, l.id).not.toMatch(/never promises more than the true improvement/);
      expect(all, l.id).not.toMatch(/(?<!not )\ba lower bound on the improvement/);
    }
  });
});

describe('each lesson agrees with its claim\'s condition and its own verdict', () => {
  for (const l of LESSONS) {
    const exp = resolveConfig(l.config);
    const outside = outsideCondition(l.claim, exp);
    it(`${l.id}: ${outside ? `outside claim ${l.claim}'s condition (${outside}), so not testable` : `inside claim ${l.claim}'s condition`}`, () => {
      if (outside !== null) expect(l.expect, `${l.id}: ${outside}`).toBe('not testable');
      if (l.expect === 'not testable') {
        expect(outside, `${l.id} declares not testable but is inside the condition`).not.toBeNull();
        expect(`${l.title} ${l.text}`, l.id).toMatch(/not testable/);
      }
    });

    it(`${l.id}: its words name the verdict it declares (${l.expect})`, () => {
      const words = `${l.title} ${l.text}`;
      if (l.expect === 'not observed') expect(words, l.id).toMatch(l.claim === 1 ? new RegExp(`not reached in ${exp.iterations} iterations`) : /not observed|does not|no difference|not lower/);
      if (l.expect === 'observed') expect(l.text, l.id).not.toMatch(new RegExp(`claim ${l.claim} is not observed`, 'i'));
      // a tour step that states the lesson's verdict states the declared one
      for (const step of l.tour) {
        const said = new RegExp(`Claim ${l.claim} is (observed|not observed|not testable|undecided)`).exec(step.text);
        if (said && !l.part) expect(said[1], `${l.id}: "${step.text}"`).toBe(l.expect);
      }
    });

    it(`${l.id}: every algorithm has a display label, never a raw id (legends and verdict sentences use it)`, () => {
      for (const a of exp.algorithms) expect(algorithmLabel(a), `${l.id}: ${a.id}`).not.toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
    });

    it(`${l.id}: says why (a sentence on the mechanism)`, () => {
      expect(l.text, l.id).toMatch(/\bWhy\b|\bwhy\b|\bbecause\b|\bso\b/);
    });
  }
});
