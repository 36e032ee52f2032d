// The paper's five claims in plain words, for the Claims view and the verdict panel. The words
// themselves live in one place, src/core/lessons/claim-words.ts (what the paper says, the
// condition, how the explorer decides: docs/claims.md, rules version 2), which the lessons are
// checked against.

import { CLAIM_NUMBERS, CLAIM_WORDS, type ClaimNumber, type ClaimWords } from '../core/lessons/claim-words';

export { CLAIM_NUMBERS, type ClaimNumber };
export type ClaimText = ClaimWords;
export const CLAIM_TEXT: Record<ClaimNumber, ClaimText> = CLAIM_WORDS;

export const VERDICT_WORDS = ['observed', 'not-observed', 'undecided', 'not-testable'] as const;
export type VerdictWord = (typeof VERDICT_WORDS)[number];

/** "not observed" → "not-observed": the verdict as an attribute value (data-verdict, data-expect). */
export const verdictWord = (v: string): VerdictWord => v.replace(/ /g, '-') as VerdictWord;

/** What a verdict means, one line each (docs/claims.md). */
export const VERDICT_MEANING: Record<VerdictWord, string> = {
  observed: 'the experiment shows what the claim says',
  'not-observed': 'the experiment had its chance, and it did not happen',
  undecided: 'a seed that matters is still moving: run longer',
  'not-testable': 'the experiment lacks what the check needs',
};
