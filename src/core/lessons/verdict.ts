import type { Claim, Verdict } from '../claims';
import type { Lesson } from './types';

/** The lesson's own verdict among a run's claims: its claim's, or its part's (claim 4's part c); null while the claim is absent. */
export function lessonVerdict(lesson: Pick<Lesson, 'claim' | 'part'>, claims: readonly Claim[]): { verdict: Verdict; reason: string } | null {
  const c = claims.find((x) => x.claim === lesson.claim);
  if (!c) return null;
  if (!lesson.part) return { verdict: c.verdict, reason: c.reason };
  const p = c.parts?.find((x) => x.part === lesson.part);
  return p ? { verdict: p.verdict, reason: p.reason } : null;
}
