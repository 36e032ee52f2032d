import { useMemo } from 'react';
import { captionParts } from '../../core/metrics/captions';
import { useApp } from '../store';
import { useLiveSummaries } from './SummaryTable';
import './summary.css';

/**
 * What the numbers say, in sentences generated from the live runs only (captions.ts): where each
 * algorithm's seeds ended and the paper's claims as observed / not observed. Announced politely;
 * aria-busy holds announcements back while a run streams, so screen readers hear the settled text.
 */
export function Caption() {
  const plan = useApp((s) => s.plan);
  const status = useApp((s) => s.status);
  const summaries = useLiveSummaries();
  const parts = useMemo(
    () => (plan ? captionParts({ exp: plan.exp, Jstar: plan.Jstar, algorithms: plan.algorithms }, summaries) : null),
    [plan, summaries],
  );
  if (!plan || !parts) return null;
  const empty = parts.sentences.length === 0;
  return (
    <section className="card caption" data-testid="caption" aria-live="polite" aria-busy={status === 'running'} aria-labelledby="caption-heading">
      <h2 id="caption-heading">What the numbers say</h2>
      {empty ? (
        <p className="muted" data-testid="caption-hint">
          Press Run: once the runs have made an iteration, sentences here will say where each algorithm's seeds ended and whether the paper's claims
          (monotonic improvement, reaching J*, reverse order helping) are observed on this experiment.
        </p>
      ) : (
        <>
          {parts.prefix && (
            <p className="caption-prefix" data-testid="caption-prefix">
              {parts.prefix}
            </p>
          )}
          <ul className="caption-list">
            {parts.sentences.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
