import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ErrorBanner } from './ErrorBanner';
import { Transport } from './Transport';
import { ReturnChart } from './charts/ReturnChart';
import { PolicyTree } from './charts/PolicyTree';
import { HelpDialog } from './HelpDialog';
import { ReproduceStatus } from './ShareBar';
import { LessonBanner } from './LessonBanner';
import { Tour } from './Tour';
import { VerdictPanel } from './VerdictPanel';
import { currentHref } from '../link-actions';
import { useHidden } from '../hide';
import { currentLesson, startTour, useApp } from '../store';
import './claims.css';
import './classroom.css';

/** The bottom row (verdicts, the tour's step): this share of the window's height, within [240, 380] px. */
const bottomRow = (h: number) => Math.round(Math.max(240, Math.min(380, 0.36 * h)));

/**
 * The top row's height: what the window leaves below the grid's top and above the bottom row, so
 * that the tree, the chart, the verdict and the tour's step share one screen (1366×768 too); and
 * the return chart's plot height that fills it (the card's title and legend measured).
 */
function useFit(): { grid: React.RefObject<HTMLDivElement | null>; top: number; plot: number } {
  const grid = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState({ top: 320, plot: 200 });
  useLayoutEffect(() => {
    const measure = () => {
      const el = grid.current;
      if (!el) return;
      const narrow = innerWidth < 1100; // one column: everything stacks and scrolls
      const y = el.getBoundingClientRect().top + scrollY;
      const top = narrow ? 420 : Math.max(260, innerHeight - y - bottomRow(innerHeight) - 10);
      const card = el.querySelector('.classroom-chart .chart');
      const head = card?.querySelector('.chart-head')?.getBoundingClientRect().height ?? 40;
      // a folded legend (classroom, many lines) is one line until opened; opening it shrinks the plot
      const legend = card?.querySelector('.legend-fold, .chart-legend')?.getBoundingClientRect().height ?? 60;
      const plot = Math.round(narrow ? 280 : Math.max(160, Math.min(640, top - head - legend - 28)));
      setFit((old) => (old.top === top && old.plot === plot ? old : { top, plot }));
      // the tour's step ends at the window's bottom, its Next in view: its note scrolls within it (classroom.css)
      const tour = el.querySelector('.classroom-tour');
      const room = tour ? Math.floor(innerHeight - (tour.getBoundingClientRect().top + scrollY) - 8) : 0;
      el.style.setProperty('--tour-room', narrow || room < 160 ? 'none' : `${room}px`);
    };
    measure();
    addEventListener('resize', measure);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    // the chart's legend and the tree's drawing set the top row's height, and so the tour's room
    for (const sel of ['.classroom-chart', '.classroom-tree']) {
      const box = grid.current?.querySelector(sel);
      if (ro && box) ro.observe(box);
    }
    return () => {
      removeEventListener('resize', measure);
      ro?.disconnect();
    };
  }, []);
  return { grid, ...fit };
}

/**
 * classroom=1: the presenter layout (type ≥ 20 px at 1366×768): the transport; the policy tree and
 * the return chart on the left, the verdicts and the tour's current step on the right, on one
 * screen; the lesson's tour starts by itself. `hide=…` hides transport buttons and panels too.
 */
export function ClassroomApp() {
  useApp((s) => s.draft); // the full-explorer link follows the experiment
  const envTitle = useApp((s) => s.plan?.envTitle);
  const lesson = useApp((s) => s.lesson);
  const touring = useApp((s) => s.tour !== null);
  const hideVerdicts = useHidden('verdicts');
  const hideTree = useHidden('chart-tree');
  const fit = useFit();
  const claim = useApp((s) => (s.lesson ? currentLesson()?.claim ?? null : null));
  const started = useRef<string | null>(null);
  useEffect(() => {
    // a lesson opened in the classroom starts its tour once (closing it keeps it closed)
    if (lesson && started.current !== lesson.id) {
      started.current = lesson.id;
      if (!touring) startTour();
    }
  }, [lesson, touring]);
  return (
    <div className="app classroom" data-testid="classroom">
      <div className="classroom-bar">
        <span className="classroom-title">SeeUPO explorer</span>
        {lesson ? <LessonBanner compact /> : <span className="classroom-env">{envTitle ?? 'custom environment'}</span>}
        <a href={currentHref(true)} target="_blank" rel="noopener" data-testid="open-full">
          Full explorer ↗
        </a>
      </div>
      <ErrorBanner />
      <Transport />
      <ReproduceStatus />
      <div ref={fit.grid} className={`classroom-grid classroom-charts${hideTree ? ' no-tree' : ''}`} data-lesson-claim={claim ?? undefined}>
        {!hideTree && (
          <div className="classroom-tree">
            <PolicyTree large fitHeight={fit.top} />
          </div>
        )}
        <div className="classroom-chart">
          <ReturnChart height={fit.plot} />
        </div>
        {!hideVerdicts && (
          <div className="classroom-verdicts">
            <VerdictPanel large />
          </div>
        )}
        <div className="classroom-tour">
          <Tour />
        </div>
      </div>
      <HelpDialog />
    </div>
  );
}
