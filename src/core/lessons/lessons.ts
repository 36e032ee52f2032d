import { CLAIM1 } from './claim1';
import { CLAIM2 } from './claim2';
import { CLAIM3 } from './claim3';
import { CLAIM4 } from './claim4';
import { CLAIM5 } from './claim5';
import type { Lesson } from './types';

/** The lessons, claim by claim (src/core/lessons/types.ts); each claimN.ts holds one claim's. */
export const LESSONS: readonly Lesson[] = [...CLAIM1, ...CLAIM2, ...CLAIM3, ...CLAIM4, ...CLAIM5];

/** The lesson with this id, or undefined. */
export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/**
 * What the page opens with when its address holds no experiment: the clearest lesson of the
 * paper's central claim — on the 5-turn lock, reverse-order SeeUPO reaches J* in one iteration
 * while GRPO and SeeUPO in forward and random order take the safe exit (J = 0.30) for good.
 * Claims 3 and 4 are observed there (test/lessons.test.ts checks both); it runs in under a second.
 * (`#v=1` alone opens the config defaults: the nine algorithms on the 3-turn lock, sampled.)
 */
export const OPENING_LESSON = 'reverse-escapes-the-exit';
