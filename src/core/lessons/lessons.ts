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
