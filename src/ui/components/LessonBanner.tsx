import { useState } from 'react';
import { closeLesson, currentLesson, lessonEdited, reloadLesson, setPage, startTour, useApp } from '../store';
import { useLiveClaims, VerdictBadge } from './VerdictPanel';
import { lessonVerdict } from '../../core/lessons/verdict';
import { describeVariant } from '../../core/lessons/variants';
import { encodeSweepLink } from '../../core/sweep/link';
import type { Lesson } from '../../core/lessons/types';
import './claims.css';

const LOOK_NAMES = { 'chart-return': 'the return chart', 'chart-seeds': 'the seed charts', 'chart-heatmap': 'credit by turn' } as const;

/** The loaded lesson: its claim, title and text, the tour, and (after the run) its verdict against the one it declares. */
export function LessonBanner({ compact = false }: { compact?: boolean }) {
  const state = useApp((s) => s.lesson);
  const edited = useApp(lessonEdited);
  const touring = useApp((s) => s.tour !== null);
  const status = useApp((s) => s.status);
  const live = useLiveClaims();
  const [more, setMore] = useState(false);
  const lesson = state ? currentLesson() : null;
  if (!state || !lesson) return null;
  const c = live ? lessonVerdict(lesson, live.claims) : null;
  const finished = status === 'done' && live?.ran && live.iteration >= live.total;
  const look = () => document.querySelector(`[data-testid="${lesson.look}"]`)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  return (
    <section className={`card lesson-banner${compact ? ' compact' : ''}`} data-testid="lesson-banner" data-lesson={lesson.id} data-edited={edited} aria-labelledby="lesson-title">
      <div className="lesson-head">
      <div className="lesson-kicker">
        <span>
          Lesson · claim {lesson.claim}{lesson.part ? ` part (${lesson.part})` : ''} · shows <VerdictBadge verdict={lesson.expect} />
        </span>
        {edited && (
          <span className="lesson-edited" data-testid="lesson-edited" title="You changed the experiment: the address is now an ordinary link to your settings">
            edited
          </span>
        )}
      </div>
      <h2 id="lesson-title" data-testid="lesson-title">
        {lesson.title}
      </h2>
      </div>
      {!compact && (
        <p className={`lesson-text${more ? ' open' : ''}`} data-testid="lesson-text">
          {lesson.text}{' '}
        </p>
      )}
      {!compact && <LessonFacts lesson={lesson} open={more} />}
      {edited && (
        <p className="lesson-edited-note">
          You changed the lesson’s experiment, so the address is now an ordinary link to your settings and the lesson’s numbers may no longer hold.{' '}
          <button type="button" data-testid="lesson-reload" onClick={reloadLesson}>
            Reload the lesson
          </button>
        </p>
      )}
      {finished && c ? (
        <p className="lesson-outcome" data-testid="lesson-outcome" data-verdict={c.verdict.replace(/ /g, '-')}>
          Claim {lesson.claim}{lesson.part ? `, part (${lesson.part}),` : ''} on this run: <VerdictBadge verdict={c.verdict} />{' '}
          {c.verdict === lesson.expect ? '— as the lesson says.' : `— the lesson says ${lesson.expect}${edited ? ' for its own settings' : ''}.`}
        </p>
      ) : null}
      {!compact && (
        <div className="lesson-actions">
          {!touring && lesson.tour.length > 0 && (
            <button type="button" className="lesson-primary" data-testid="lesson-tour-start" onClick={startTour}>
              Start the guided tour ({lesson.tour.length} steps)
            </button>
          )}
          {!touring && status === 'idle' && <span className="muted-inline">or press Run to train it.</span>}
          <button type="button" data-testid="lesson-more" aria-expanded={more} onClick={() => setMore(!more)}>
            {more ? 'Less' : 'Read the whole story'}
          </button>
          {lesson.look && (
            <button type="button" data-testid="lesson-look" onClick={look}>
              Look at {LOOK_NAMES[lesson.look]} ↓
            </button>
          )}
          <button type="button" data-testid="lesson-all" onClick={() => setPage('claims')}>
            All claims and lessons
          </button>
          <button type="button" data-testid="lesson-close" onClick={closeLesson}>
            Close the lesson
          </button>
        </div>
      )}
    </section>
  );
}

/** What is loaded, in words from its parameters; the variants the verdict was checked under; the sweep of a narrow band. */
function LessonFacts({ lesson, open }: { lesson: Lesson; open: boolean }) {
  const env = useApp((s) => s.plan?.envDescription ?? null);
  const sweep = lesson.band ? encodeSweepLink(lesson.band.sweep, lesson.band.view) : null;
  return (
    <div className={`lesson-facts${open ? ' open' : ''}`}>
      {env && (
        <p className="lesson-env" data-testid="lesson-env">
          <strong>The environment:</strong> {env}
        </p>
      )}
      {open && (
        <p className="lesson-holds" data-testid="lesson-holds">
          <strong>Checked under:</strong> {lesson.holdsUnder.map(describeVariant).join(', ')} — the same verdict each time.
        </p>
      )}
      {lesson.band && (
        <p className="lesson-band" data-testid="lesson-band">
          <strong>A narrow band:</strong> {lesson.band.note}{' '}
          {sweep?.ok && (
            <a href={`#${sweep.fragment}`} data-testid="lesson-sweep">
              Open the sweep that shows it →
            </a>
          )}
        </p>
      )}
    </div>
  );
}
