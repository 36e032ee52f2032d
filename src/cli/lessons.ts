import { LESSONS } from '../core/lessons/lessons';
import type { Variant } from '../core/lessons/variants';

// `seeupo-explorer lessons`: every lesson with its full experiment config (as `run` reads it) and
// the variants its verdict was checked under, so anyone can re-run a lesson and its robustness
// checks (docs/cli.md).

export interface LessonListing {
  id: string;
  claim: number;
  expect: string;
  title: string;
  config: Record<string, unknown>;
  holdsUnder: Variant[];
  /** Only where the lesson is about one part of its claim (claim 4's "c"): `expect` is that part's verdict. */
  part?: string;
}

export function lessonsCommand(): { lessons: LessonListing[] } {
  return {
    lessons: LESSONS.map((l) => ({ id: l.id, claim: l.claim, expect: l.expect, title: l.title, config: l.config, holdsUnder: l.holdsUnder, ...(l.part ? { part: l.part } : {}) })),
  };
}
