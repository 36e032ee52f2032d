import { encodeLink } from '../core/config/link-codec';
import { lessonById } from '../core/lessons/lessons';
import type { Lesson } from '../core/lessons/types';
import type { ClaimNumber } from './claims-text';
import { openLink } from './link-actions';
import { prepareRun, turnStepBlocked } from './session-actions';
import { actionDone, markOf, meansAt, runNote, stepNote, turnBefore, turnKey, turnNote, type TourState } from './tour';
import { useApp, type AppState, type PageView } from './state';

// The claims lab's actions: the Claims view, opening a lesson (through the permalink path, so the
// one schema validates its config), its guided tour, and the verdict selected in the verdict panel.

// read lazily: this module is evaluated before store.ts's body (store.ts re-exports it)
const set = (partial: Partial<AppState>) => useApp.setState(partial);
const get = () => useApp.getState();

export const setPage = (page: PageView) => set({ page });

/** The loaded lesson (edited or not), or null. */
export function currentLesson(s: AppState = get()): Lesson | null {
  return s.lesson ? (lessonById(s.lesson.id) ?? null) : null;
}

/**
 * Open a lesson as its permalink `#v=1&lesson=<id>` would (the page's chart choices, classroom and
 * hidden parts kept): the explorer shows its experiment and banner; `tour` starts its guided tour.
 * False when the link was refused (the error banner says why).
 */
export function openLesson(id: string, opts: { tour?: boolean } = {}): boolean {
  const s = get();
  const link = encodeLink({ config: {}, lesson: id, view: { metric: s.metric, x: s.xAxis }, hash: null, embed: s.embed, exact: true, classroom: s.classroom, hide: s.hidden });
  if (!openLink(link, 'lesson')) return false;
  set({ page: 'explorer' });
  const lesson = currentLesson();
  if (opts.tour && lesson && lesson.tour.length > 0) startTour();
  return true;
}

/** Load the current lesson's experiment again (after an edit). */
export function reloadLesson(): void {
  const s = get();
  if (s.lesson) openLesson(s.lesson.id, { tour: s.tour !== null });
}

/** Leave the lesson: the experiment stays, the address becomes an ordinary config link. */
export const closeLesson = () => set({ lesson: null, tour: null });

// ---------------------------------------------------------------------------------------------
// The tour

function enter(lesson: Lesson, step: number, completed: number[] = []): TourState {
  const s = get();
  const mark = markOf(s);
  const action = lesson.tour[step]?.action;
  const before = completed.includes(step);
  const done = before || actionDone(action, mark, s, lesson.tour[step]?.times, s.plan?.exp.env.turns);
  const stuck = !before && action && action !== 'run' && s.status === 'done';
  const blocked = action === 'step-turn' ? turnStepBlocked(s.plan) : null;
  const note = stuck
    ? 'The run has already ended, so there is nothing left to step: Reset (R) starts it over, then Back to this step.'
    : blocked
      ? `Step one turn is not available here (${blocked}).`
      : null;
  const ok = done || blocked !== null;
  // a step about a chart or the tree shows it with the starting point drawn, never empty
  const target = lesson.tour[step]?.target;
  if (target && /^(chart-|claim-|verdict|policy-tree)/.test(target)) queueMicrotask(prepareRun);
  return { lessonId: lesson.id, step, mark, done: ok, note, completed: ok && !before ? [...completed, step] : completed };
}

export function startTour(): void {
  const lesson = currentLesson();
  if (!lesson || lesson.tour.length === 0) return;
  set({ tour: enter(lesson, 0), page: 'explorer' });
}

export const closeTour = () => set({ tour: null });

/** The next step (when the current one's action is done); past the last step the tour closes. */
export function tourNext(): void {
  const { tour } = get();
  const lesson = currentLesson();
  if (!tour || !lesson || !tour.done) return;
  if (tour.step + 1 >= lesson.tour.length) set({ tour: null });
  else set({ tour: enter(lesson, tour.step + 1, tour.completed) });
}

export function tourBack(): void {
  const { tour } = get();
  const lesson = currentLesson();
  if (!tour || !lesson || tour.step === 0) return;
  set({ tour: enter(lesson, tour.step - 1, tour.completed) });
}

/**
 * Called on every store change (url-sync.ts): marks the tour step's action done once the learner
 * has pressed it, and says what it did from the numbers. Cheap when nothing relevant changed.
 */
export function followTour(s: AppState, prev: AppState): void {
  const tour = s.tour;
  const turnChanged = turnKey(s.turnStep) !== turnKey(prev.turnStep);
  if (!tour) return;
  if (!turnChanged && s.iteration === prev.iteration && s.status === prev.status && s.tour === prev.tour) return;
  const lesson = lessonById(tour.lessonId);
  if (!lesson) return;
  let note: string | null = null;
  const { plan, live } = s;
  if (plan && live) {
    if (s.turnStep && turnChanged) {
      // the turn step shown before this one (each turn step is a new key: session-actions.ts showTurn)
      note = turnNote(plan, s.turnStep, turnBefore(plan, live, s.turnStep, prev.turnStep));
    } else if (s.status === 'done' && prev.status !== 'done' && live.iteration >= plan.exp.iterations) note = runNote(plan, live, lesson);
    else if (s.lastCommand === 'step' && s.status !== 'running' && s.iteration > prev.iteration && !s.turnStep)
      note = stepNote(plan, meansAt(plan, live, s.iteration - 1), meansAt(plan, live, s.iteration), s.iteration - 1, s.iteration);
  }
  const action = lesson.tour[tour.step]?.action;
  const done = tour.done || actionDone(action, tour.mark, s, lesson.tour[tour.step]?.times, s.plan?.exp.env.turns);
  if (note !== null || done !== tour.done) {
    const completed = done && !tour.completed.includes(tour.step) ? [...tour.completed, tour.step] : tour.completed;
    set({ tour: { ...tour, done, note: note ?? tour.note, completed } });
  }
}

// ---------------------------------------------------------------------------------------------
// The verdict panel

/** Select a claim's verdict (null: none): the charts highlight the algorithms and seeds it was decided on. */
export const selectClaim = (claim: ClaimNumber | null) => set({ selectedClaim: claim });
