import type { Lesson } from './types';

/** The lessons, claim by claim (src/core/lessons/types.ts). */
export const LESSONS: readonly Lesson[] = [];
