import { LESSONS } from '../../core/lessons/lessons';
import type { Lesson } from '../../core/lessons/types';
import { CLAIM_NUMBERS, CLAIM_TEXT, verdictWord, type ClaimNumber } from '../claims-text';
import { openLesson, setPage, useApp } from '../store';
import { useLiveClaims, VerdictBadge } from './VerdictPanel';
import './claims.css';

// The claims lab: the paper's five claims, each in plain words with the paper's condition, the
// verdict on the experiment now on the page, and the lessons that show it (or fail to).

function LessonButton({ lesson }: { lesson: Lesson }) {
  const current = useApp((s) => s.lesson?.id === lesson.id);
  const open = () => {
    if (openLesson(lesson.id, { tour: true })) window.scrollTo({ top: 0 });
  };
  return (
    <li>
      <button
        type="button"
        className={`lesson-button${current ? ' current' : ''}`}
        data-testid={`lesson-${lesson.id}`}
        data-claim={lesson.claim}
        data-expect={verdictWord(lesson.expect)}
        data-part={lesson.part}
        onClick={open}
        title={lesson.text}
      >
        <span className="lesson-button-title">{lesson.title}</span>
        <span className="lesson-button-meta">
          shows <VerdictBadge verdict={lesson.expect} />
          {lesson.part ? <span className="muted-inline"> for part ({lesson.part})</span> : null}
          {lesson.tour.length ? <span className="muted-inline"> · tour of {lesson.tour.length} steps</span> : null}
          {lesson.band ? <span className="muted-inline" data-testid={`band-note-${lesson.id}`}> · a narrow band</span> : null}
        </span>
      </button>
    </li>
  );
}

function ClaimCard({ n }: { n: ClaimNumber }) {
  const t = CLAIM_TEXT[n];
  const live = useLiveClaims();
  const c = live?.claims.find((x) => x.claim === n);
  const lessons = LESSONS.filter((l) => l.claim === n);
  return (
    <article className="card claim-card" data-testid={`claim-card-${n}`} aria-labelledby={`claim-card-h-${n}`}>
      <div className="claim-card-main">
        <h2 id={`claim-card-h-${n}`}>
          <span className="claim-card-num">Claim {n}</span> {t.plain}
        </h2>
        <dl className="claim-card-text">
          <div>
            <dt>The paper says</dt>
            <dd>{t.paper}</dd>
          </div>
          <div>
            <dt>Under which condition</dt>
            <dd>{t.condition}</dd>
          </div>
          <div>
            <dt>How the explorer decides</dt>
            <dd>{t.rule}</dd>
          </div>
        </dl>
        <div className="claim-card-now" data-testid={`claim-card-verdict-${n}`} data-verdict={c ? verdictWord(c.verdict) : undefined}>
          <span className="claim-card-now-head">
            The experiment now in the explorer
            {live && live.ran && live.iteration < live.total ? ` (iteration ${live.iteration} of ${live.total})` : live?.ran ? '' : ' (not run yet)'}:
          </span>{' '}
          {c ? (
            <>
              <VerdictBadge verdict={c.verdict} /> <span className="claim-card-reason">{c.reason}</span>
            </>
          ) : (
            <span className="muted-inline">its settings are invalid.</span>
          )}
        </div>
      </div>
      <div className="claim-card-side">
        <h3 className="claim-card-lessons-h">Lessons</h3>
        {lessons.length ? (
          <ul className="lesson-list">
            {lessons.map((l) => (
              <LessonButton key={l.id} lesson={l} />
            ))}
          </ul>
        ) : (
          <p className="muted">No lesson for this claim yet. To test it yourself: {t.needs}</p>
        )}
      </div>
    </article>
  );
}

export function ClaimsView() {
  return (
    <main className="claims-view" data-testid="claims-view" aria-labelledby="claims-view-heading">
      <div className="claims-intro">
        <h2 id="claims-view-heading">The claims lab</h2>
        <p>
          The SeeUPO paper makes five claims about multi-turn RL. The explorer checks each on the experiment at hand and says{' '}
          <strong>observed</strong>, <strong>not observed</strong>, <strong>undecided</strong> (run longer) or <strong>not testable</strong>{' '}
          (the experiment lacks what the check needs). Each lesson is an experiment that shows a claim, or where it fails: open one, and it
          loads in the explorer with a short guided tour.{' '}
          <button type="button" className="claims-back" data-testid="claims-to-explorer" onClick={() => setPage('explorer')}>
            ← Back to the explorer
          </button>
        </p>
      </div>
      <div className="claim-cards">
        {CLAIM_NUMBERS.map((n) => (
          <ClaimCard key={n} n={n} />
        ))}
      </div>
    </main>
  );
}
