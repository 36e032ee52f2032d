import { useMemo, useState } from 'react';
import { captionParts, claimSentences } from '../../core/metrics/captions';
import { useApp } from '../store';
import { useLiveSummaries } from './SummaryTable';
import { SLOTS, timedSlot } from './charts/common';
import './summary.css';

/**
 * What the numbers say, in sentences generated from the live runs only (captions.ts): where each
 * algorithm's seeds ended. The verdicts of the paper's claims (captionParts' claim sentences) are
 * in the verdict panel beside the return chart (VerdictPanel.tsx). Announced politely; aria-busy
 * holds announcements back while a run streams, so screen readers hear the settled text.
 */
/** Sentences shown at first; the rest on demand (the first screen keeps the charts in view). */
const SHOWN = 3;

export function Caption() {
  const plan = useApp((s) => s.plan);
  const status = useApp((s) => s.status);
  // in a task of its own, at its own pace on a large experiment (charts/common.tsx)
  const summaries = useLiveSummaries(SLOTS.caption);
  const [all, setAll] = useState(false);
  const parts = useMemo(
    () => (plan ? timedSlot(SLOTS.caption, () => captionParts({ exp: plan.exp, Jstar: plan.Jstar, algorithms: plan.algorithms }, summaries)) : null),
    [plan, summaries],
  );
  if (!plan || !parts) return null;
  // the claim sentences close the list (captions.ts); the verdict panel states them
  const claims = parts.claims ?? [];
  const claimCount = claims.length ? claimSentences(claims).length : 0;
  const outcomes = parts.sentences.slice(0, parts.sentences.length - claimCount);
  return (
    <section className="card caption" data-testid="caption" aria-live="polite" aria-busy={status === 'running'} aria-labelledby="caption-heading">
      <h2 id="caption-heading">What the numbers say</h2>
      {outcomes.length === 0 ? (
        <p className="muted" data-testid="caption-hint">
          Press Run: once the runs have made an iteration, sentences here will say where each algorithm's seeds ended (at J*, stuck, or still
          improving). The verdict on each of the paper's five claims, with the numbers it was decided on, is beside the return chart.
        </p>
      ) : (
        <>
          {parts.prefix && (
            <p className="caption-prefix" data-testid="caption-prefix">
              {parts.prefix}
            </p>
          )}
          <ul className="caption-list">
            {outcomes.map((s, i) => (
              <li key={i} hidden={!all && i >= SHOWN}>
                {s}
              </li>
            ))}
          </ul>
          {outcomes.length > SHOWN && (
            <button type="button" className="caption-more" data-testid="caption-more" aria-expanded={all} onClick={() => setAll(!all)}>
              {all ? 'Show fewer' : `Show all ${outcomes.length} sentences`}
            </button>
          )}
        </>
      )}
    </section>
  );
}
