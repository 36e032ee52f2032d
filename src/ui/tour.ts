import { computeClaims, type Claim } from '../core/claims';
import { claimsInputOfLive, summarizeLive, type LiveSummary } from '../core/metrics/captions';
import { slotOf } from '../core/run/series';
import type { Lesson, TourStep } from '../core/lessons/types';
import { lessonVerdict } from '../core/lessons/verdict';
import { runsPerAlgorithm, type Live, type TurnStep } from './live';
import type { Plan } from './plan';

// The guided tour of a lesson (as TensorFlow Playground's tutorials and GAN Lab's slow mode): pure
// parts. A step may ask for an action (Step, Step one turn, Run): Next waits until the store has
// moved past the step's mark, and the tour then says what just happened, read from the numbers
// (the runs' optimalTokenProb series and the turn-stepping records of "Step one turn").
//
// Placeholders a step's text may hold, filled from the live numbers (left as written when there
// is no such number yet):
//   {iteration}          iterations every run has completed
//   {Jstar}              J*
//   {verdict}            the live verdict on the lesson's claim
//   {J:<id>}             mean J over seeds of algorithm <id> now
//   {atJstar:<id>}       "k/n": seeds of <id> at J* (within 1% of the rewards' range)
//   {p:<id>:<turn>}      mean probability of the optimal token at turn <turn> (1-based) of <id>

export type TourAction = NonNullable<TourStep['action']>;

export interface TourMark {
  /** Iterations completed when the step was entered. */
  iteration: number;
  /** The turn step shown then ("iteration:done"), or null. */
  turnKey: string | null;
}

export interface TourState {
  lessonId: string;
  /** 0-based step. */
  step: number;
  mark: TourMark;
  /** The step's action has been performed (always true for a step without one). */
  done: boolean;
  /** What the latest action did, from the numbers (null before any). */
  note: string | null;
  /** Steps whose action was done: going Back and Next again does not ask for it twice. */
  completed: number[];
}

/** What the tour needs of the store. */
export interface TourView {
  status: 'idle' | 'running' | 'paused' | 'done' | 'error';
  iteration: number;
  turnStep: TurnStep | null;
}

export const turnKey = (ts: TurnStep | null): string | null => (ts ? `${ts.iteration}:${ts.done}` : null);

export const markOf = (s: TourView): TourMark => ({ iteration: s.iteration, turnKey: turnKey(s.turnStep) });

/** The mark's turn-step position: iteration·T + turn steps done in it (a mark with none: the iteration's start). */
function turnPosition(iteration: number, key: string | null, turns: number): number {
  const m = key ? /^(\d+):(\d+)$/.exec(key) : null;
  return m ? Number(m[1]) * turns + Number(m[2]) : iteration * turns;
}

/**
 * How many times the learner pressed the step's action since `mark`: Steps are iterations done,
 * turn steps are counted through the iterations they cross (`turns`: T of the experiment).
 */
export function pressesSince(action: TourAction | undefined, mark: TourMark, s: TourView, turns = 1): number {
  if (action === 'step') return Math.max(0, s.iteration - mark.iteration);
  if (action === 'step-turn') {
    const ts = s.turnStep;
    if (!ts) return 0;
    return Math.max(0, ts.iteration * turns + ts.done - turnPosition(mark.iteration, mark.turnKey, turns));
  }
  return 0;
}

/**
 * Whether the store has moved past `mark` by the action, pressed `times` times (a step's
 * `times`; a finished run counts for every action: nothing is left to step).
 */
export function actionDone(action: TourAction | undefined, mark: TourMark, s: TourView, times = 1, turns = 1): boolean {
  if (!action || s.status === 'done') return true;
  if (action === 'run') return false;
  if (action === 'step') return pressesSince(action, mark, s) >= times && s.status !== 'running';
  const key = turnKey(s.turnStep);
  return key !== null && key !== mark.turnKey && (times <= 1 || pressesSince(action, mark, s, turns) >= times);
}

/** The words of the button a step asks for. */
export const ACTION_TEXT: Record<TourAction, string> = { step: 'Step', 'step-turn': 'Step one turn', run: 'Run' };
export const ACTION_KEY: Record<TourAction, string> = { step: '→', 'step-turn': 'Shift+→', run: 'Space' };

// ---------------------------------------------------------------------------------------------
// Numbers

export interface AlgoNow {
  /** Mean J over seeds (NaN: none). */
  J: number;
  /** Per turn, the mean probability of the optimal token on the optimal path (NaN: not stored). */
  prob: number[];
}

/** Per algorithm, J and the optimal-token probabilities at iteration k, as means over the seeds that have them. */
export function meansAt(plan: Plan, live: Live, k: number): AlgoNow[] {
  const { exp } = plan;
  const n = runsPerAlgorithm(exp);
  const T = exp.env.turns;
  return exp.algorithms.map((_, a) => {
    let J = 0, nj = 0;
    const prob = new Array<number>(T).fill(0), np = new Array<number>(T).fill(0);
    for (let i = 0; i < n; i++) {
      const r = live.runs[a * n + i];
      if (!r || k < 0 || k >= r.J.length) continue;
      if (Number.isFinite(r.J[k])) { J += r.J[k]; nj++; }
      const slot = slotOf(k, r.iterations, r.every);
      if (slot < 0) continue;
      for (let t = 0; t < T; t++) {
        const p = r.optimalTokenProb[t]?.[slot];
        if (p !== undefined && Number.isFinite(p)) { prob[t] += p; np[t]++; }
      }
    }
    return { J: nj ? J / nj : NaN, prob: prob.map((p, t) => (np[t] ? p / np[t] : NaN)) };
  });
}

/** A turn step's numbers, per algorithm. */
export const turnMeans = (ts: TurnStep): AlgoNow[] => ts.algorithms.map((a) => ({ J: a.J, prob: a.optimalProb }));

/**
 * The numbers a turn step `ts` is told against: the turn step shown just before it (`shown`) when
 * that was the previous turn of the same iteration, else the iteration's start.
 */
export function turnBefore(plan: Plan, live: Live, ts: TurnStep, shown: TurnStep | null): AlgoNow[] {
  return shown && shown.iteration === ts.iteration && shown.done === ts.done - 1 ? turnMeans(shown) : meansAt(plan, live, ts.iteration);
}

/** Probabilities: 2 decimals, 3 near 0 and 1 (0.999 is not 1). */
export function fmtP(p: number): string {
  if (!Number.isFinite(p)) return 'n/a';
  if ((p > 0.995 && p < 0.9995) || (p > 0 && p < 0.005)) return p.toFixed(3);
  return p.toFixed(2);
}

/** J: 2 decimals, 4 within 0.01 of J* (0.9994 is not J* = 1). */
export function fmtJ(v: number, Jstar: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  if (Math.abs(v - Jstar) < 0.01 && Math.abs(v - Jstar) >= 5e-5) return v.toFixed(4);
  return v.toFixed(2);
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];
const ordinal = (done: number, turns: number) => (done === turns && done > 1 ? 'last' : (ORDINALS[done - 1] ?? `${done}th`));
const moved = (b: number, a: number) => (a > b + 5e-4 ? 'rose' : a < b - 5e-4 ? 'fell' : 'stayed');
const joinAnd = (xs: readonly string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
/** At most this many algorithms are named in one note. */
const NAMED = 4;

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/**
 * After "Step one turn": which turn each algorithm updated and how its optimal-token probability
 * and J moved. `before` holds the numbers before this turn step (the previous turn step's, or
 * the iteration's for the first).
 */
export function turnNote(plan: Plan, ts: TurnStep, before: readonly AlgoNow[]): string {
  const labels = plan.algorithms.map((a) => a.label);
  const J = (v: number) => fmtJ(v, plan.Jstar);
  const sentences: string[] = [];
  const together: number[] = [];
  const waiting: number[] = [];
  ts.algorithms.forEach((a, i) => {
    const b = before[i];
    const turns = [...new Set(a.updated.filter((u): u is number => typeof u === 'number'))];
    if (a.updated.includes('all')) together.push(i);
    else if (turns.length === 0) waiting.push(i);
    else if (turns.length === 1) {
      const t = turns[0];
      const pb = b?.prob[t] ?? NaN, pa = a.optimalProb[t];
      const how = moved(pb, pa);
      const change = how === 'stayed' ? `stayed at ${fmtP(pa)}` : `${how} from ${fmtP(pb)} to ${fmtP(pa)}`;
      sentences.push(`${labels[i]}: turn ${t + 1} was updated ${ordinal(ts.done, ts.turns)}; its optimal-token probability ${change} (J ${J(b?.J ?? NaN)} → ${J(a.J)}).`);
    } else {
      sentences.push(`${labels[i]}: its seeds updated different turns (${turns.sort((x, y) => x - y).map((t) => t + 1).join(', ')}); J ${J(b?.J ?? NaN)} → ${J(a.J)}.`);
    }
  });
  const shown = sentences.slice(0, NAMED);
  if (sentences.length > NAMED) shown.push(`(${sentences.length - NAMED} more in the heatmaps.)`);
  if (together.length) {
    const js = together.map((i) => `${labels[i]} ${J(before[i]?.J ?? NaN)} → ${J(ts.algorithms[i].J)}`);
    const named = js.length <= NAMED ? `: J ${js.join(', ')}` : '';
    shown.push(`${joinAnd(together.map((i) => labels[i]))} updated every turn at once in this first turn step${named}.`);
  }
  if (waiting.length) shown.push(`${joinAnd(waiting.map((i) => labels[i]))} ${waiting.length === 1 ? 'waits' : 'wait'}: ${waiting.length === 1 ? 'it' : 'they'} updated every turn in turn step 1.`);
  return `Turn step ${ts.done} of ${ts.turns} (iteration ${ts.iteration} → ${ts.iteration + 1}). ${shown.join(' ')}`;
}

/** After "Step": J of each algorithm from iteration `from` to `to`, and its turn whose optimal-token probability moved most. */
export function stepNote(plan: Plan, before: readonly AlgoNow[], after: readonly AlgoNow[], from: number, to: number): string {
  const rows = plan.algorithms.map((line, i) => {
    const b = before[i], a = after[i];
    let best = -1, delta = 0;
    a?.prob.forEach((p, t) => {
      const d = Math.abs(p - (b?.prob[t] ?? NaN));
      if (Number.isFinite(d) && d > delta + 1e-9) { best = t; delta = d; }
    });
    const dJ = Math.abs((a?.J ?? NaN) - (b?.J ?? NaN));
    return { line, b, a, best, dJ: Number.isFinite(dJ) ? dJ : -1 };
  });
  const order = [...rows].sort((x, y) => y.dJ - x.dJ);
  const parts = order.slice(0, NAMED).map(({ line, b, a, best }) => {
    const how = moved(b?.J ?? NaN, a?.J ?? NaN);
    const j = how === 'stayed' ? `stayed at ${fmtJ(a?.J ?? NaN, plan.Jstar)}` : `${how} from ${fmtJ(b?.J ?? NaN, plan.Jstar)} to ${fmtJ(a?.J ?? NaN, plan.Jstar)}`;
    const turn = best >= 0 && a && b && Math.abs(a.prob[best] - b.prob[best]) >= 5e-4 ? ` (turn ${best + 1}’s optimal-token probability ${fmtP(b.prob[best])} → ${fmtP(a.prob[best])})` : '';
    return `${line.label}’s J ${j}${turn}`;
  });
  const rest = rows.length - NAMED;
  return `Iteration ${from} → ${to}: ${parts.join('; ')}${rest > 0 ? `; ${rest} more in the charts` : ''}.`;
}

/** The live summaries and claims (what the verdict panel shows). */
export function liveClaims(plan: Plan, live: Live): { summaries: LiveSummary[]; claims: Claim[] } {
  const summaries = summarizeLive(plan.exp, plan.Jstar, live.runs, live.iteration);
  return { summaries, claims: computeClaims(claimsInputOfLive(plan.exp, plan.Jstar, summaries)) };
}

/** After a run ends: where each algorithm ended and the verdict on the lesson's claim against the one it declares. */
export function runNote(plan: Plan, live: Live, lesson: Lesson | null): string {
  const { summaries, claims } = liveClaims(plan, live);
  const rows = summaries.map((s) => `${plan.algorithms[s.algoIndex]?.label ?? s.label} J = ${fmtJ(s.summary.finalJ.mean, plan.Jstar)} (${s.atOptimumSeeds}/${s.seeds} at J*)`);
  const named = rows.slice(0, NAMED + 1).join(', ') + (rows.length > NAMED + 1 ? `, and ${rows.length - NAMED - 1} more` : '');
  let verdict = '';
  if (lesson) {
    const c = lessonVerdict(lesson, claims);
    const name = `Claim ${lesson.claim}${lesson.part ? `, part (${lesson.part})` : ''}`;
    if (c) verdict = ` ${name}: ${c.verdict}${c.verdict === lesson.expect ? ', as this lesson expects.' : ` (this lesson expects ${lesson.expect}).`}`;
  }
  return `The run ended at iteration ${live.iteration}: ${named}.${verdict}`;
}

// ---------------------------------------------------------------------------------------------
// Placeholders

export interface FillContext {
  plan: Plan | null;
  live: Live | null;
  iteration: number;
  /** The live verdict on the lesson's claim. */
  verdict: string | null;
}

/** The step's text with its {placeholders} filled from the numbers (see the top of this file). */
export function fillText(text: string, c: FillContext): string {
  return text.replace(/\{([A-Za-z]+)(?::([^:{}]+))?(?::(\d+))?\}/g, (all, name: string, id?: string, turn?: string) => {
    const plan = c.plan;
    if (name === 'iteration') return String(c.iteration);
    if (name === 'verdict') return c.verdict ?? all;
    if (!plan) return all;
    if (name === 'Jstar') return fmtJ(plan.Jstar, Infinity);
    const a = id === undefined ? -1 : plan.exp.algorithms.findIndex((x) => x.id === id);
    if (a < 0 || !c.live || c.live.iteration < 0) return all;
    const now = meansAt(plan, c.live, c.live.iteration)[a];
    if (name === 'J') return fmtJ(now.J, plan.Jstar);
    if (name === 'p' && turn !== undefined) {
      const p = now.prob[Number(turn) - 1];
      return p === undefined ? all : fmtP(p);
    }
    if (name === 'atJstar') {
      const { summaries } = liveClaims(plan, c.live);
      const s = summaries[a];
      return s ? `${s.atOptimumSeeds}/${s.seeds}` : all;
    }
    return all;
  });
}

export { capitalize };
