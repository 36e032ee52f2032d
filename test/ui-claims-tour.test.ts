import { describe, expect, it } from 'vitest';
import type { AlgorithmEvidence, Claim } from '../src/core/claims';
import { makeRunSeries } from '../src/core/run/series';
import { LESSONS } from '../src/core/lessons/lessons';
import { CLAIM_NUMBERS, CLAIM_TEXT, verdictWord } from '../src/ui/claims-text';
import type { Live, TurnStep } from '../src/ui/live';
import { planExperiment } from '../src/ui/plan';
import { actionDone, fillText, fmtJ, fmtP, meansAt, runNote, stepNote, turnBefore, turnMeans, turnNote, type TourMark } from '../src/ui/tour';
import { cssString, evidenceCells, highlightCss, highlightOf } from '../src/ui/verdicts';

// The claims lab's pure parts: when a tour step's action is done, what the tour says happened
// (from the numbers), placeholders, the verdict panel's highlight and evidence cells, the texts.

const plan = planExperiment(
  { version: 1, env: { preset: 'lock', turns: 5 }, mode: 'exact', iterations: 10, seeds: 2, optimizer: { kind: 'sgd', lr: 300 }, algorithms: [{ id: 'seeupo' }, { id: 'seeupo-forward' }, { id: 'grpo' }] },
  1,
);
const T = 5;

/** A Live whose runs hold J = j(a, k) and P(optimal token) = p(a, t, k) up to iteration `upTo`. */
function liveOf(upTo: number, j: (a: number, k: number) => number, p: (a: number, t: number, k: number) => number): Live {
  const runs = [];
  for (let a = 0; a < 3; a++)
    for (const s of plan.exp.seedIndices) {
      const r = makeRunSeries(plan.exp, a, s);
      for (let k = 0; k <= upTo; k++) {
        r.J[k] = j(a, k);
        for (let t = 0; t < T; t++) r.optimalTokenProb[t][k] = p(a, t, k);
      }
      runs.push(r);
    }
  return { runs, iteration: upTo, changes: [], startConfig: {} };
}

describe('tour actions', () => {
  const mark: TourMark = { iteration: 0, turnKey: null };
  const ts = (iteration: number, done: number): TurnStep => ({ iteration, done, turns: T, algorithms: [] });
  it('no action: done at once; a finished run counts for every action', () => {
    expect(actionDone(undefined, mark, { status: 'idle', iteration: 0, turnStep: null })).toBe(true);
    for (const a of ['step', 'step-turn', 'run'] as const) expect(actionDone(a, mark, { status: 'done', iteration: 10, turnStep: null })).toBe(true);
  });
  it('step: once the iteration advanced and the run is not running', () => {
    expect(actionDone('step', mark, { status: 'paused', iteration: 0, turnStep: null })).toBe(false);
    expect(actionDone('step', mark, { status: 'running', iteration: 3, turnStep: null })).toBe(false);
    expect(actionDone('step', mark, { status: 'paused', iteration: 1, turnStep: null })).toBe(true);
  });
  it('step-turn: once another turn step is shown', () => {
    expect(actionDone('step-turn', mark, { status: 'paused', iteration: 0, turnStep: null })).toBe(false);
    expect(actionDone('step-turn', mark, { status: 'paused', iteration: 0, turnStep: ts(0, 1) })).toBe(true);
    expect(actionDone('step-turn', { iteration: 0, turnKey: '0:1' }, { status: 'paused', iteration: 0, turnStep: ts(0, 1) })).toBe(false);
    expect(actionDone('step-turn', { iteration: 0, turnKey: '0:1' }, { status: 'paused', iteration: 0, turnStep: ts(0, 2) })).toBe(true);
  });
  it('run: only when the run has ended', () => {
    expect(actionDone('run', mark, { status: 'running', iteration: 9, turnStep: null })).toBe(false);
    expect(actionDone('run', mark, { status: 'paused', iteration: 9, turnStep: null })).toBe(false);
  });
});

describe('what just happened, from the numbers', () => {
  it('meansAt: mean J and optimal-token probabilities over seeds', () => {
    const live = liveOf(2, (a, k) => 0.1 * (a + 1) + k, (a, t, k) => (t + 1) / 10 + k / 100);
    const m = meansAt(plan, live, 1);
    expect(m).toHaveLength(3);
    expect(m[1].J).toBeCloseTo(1.2);
    expect(m[0].prob[4]).toBeCloseTo(0.51);
  });

  it('a turn step: which turn each sequential algorithm updated, and its probability before → after', () => {
    const before = [0, 1, 2].map(() => ({ J: 0.1, prob: new Array(T).fill(1 / 3) }));
    const ts: TurnStep = {
      iteration: 0,
      done: 1,
      turns: T,
      algorithms: [
        { updated: [4, 4], J: 0.11, optimalProb: [1 / 3, 1 / 3, 1 / 3, 1 / 3, 0.999] },
        { updated: [0, 0], J: 0.3, optimalProb: [0, 1 / 3, 1 / 3, 1 / 3, 1 / 3] },
        { updated: ['all', 'all'], J: 0.3, optimalProb: [0, 1, 1, 1, 1] },
      ],
    };
    const note = turnNote(plan, ts, before);
    expect(note).toMatch(/^Turn step 1 of 5 \(iteration 0 → 1\)\./);
    expect(note).toContain('SeeUPO: turn 5 was updated first; its optimal-token probability rose from 0.33 to 0.999 (J 0.10 → 0.11).');
    expect(note).toContain('SeeUPO (forward): turn 1 was updated first; its optimal-token probability fell from 0.33 to 0.00 (J 0.10 → 0.30).');
    expect(note).toContain('GRPO updated every turn at once in this first turn step: J GRPO 0.10 → 0.30.');
    const later = turnNote(plan, { ...ts, done: 5, algorithms: [{ ...ts.algorithms[0], updated: [0, 0] }, { ...ts.algorithms[1], updated: [2, 4] }, { ...ts.algorithms[2], updated: [null, null] }] }, before);
    expect(later).toContain('turn 1 was updated last');
    expect(later).toContain('SeeUPO (forward): its seeds updated different turns (3, 5)');
    expect(later).toContain('GRPO waits');
  });

  it('a turn step is told against the turn step shown just before it in the same iteration, else the iteration’s start', () => {
    const live = liveOf(2, (a, k) => 0.1 * (a + 1) + k, (a, t, k) => (t + 1) / 10 + k / 100);
    const step = (iteration: number, done: number, J: number): TurnStep => ({ iteration, done, turns: T, algorithms: [0, 1, 2].map(() => ({ updated: [4, 4], J, optimalProb: new Array(T).fill(J) })) });
    const start = meansAt(plan, live, 1);
    expect(turnBefore(plan, live, step(1, 1, 0.5), null)).toEqual(start);
    expect(turnBefore(plan, live, step(1, 2, 0.6), step(1, 1, 0.5))).toEqual(turnMeans(step(1, 1, 0.5)));
    expect(turnBefore(plan, live, step(1, 2, 0.6), step(1, 1, 0.5))[0]!.J).toBe(0.5);
    // not the previous turn of this iteration (another iteration, or a turn skipped): the iteration's start
    expect(turnBefore(plan, live, step(1, 1, 0.5), step(0, 5, 0.9))).toEqual(start);
    expect(turnBefore(plan, live, step(1, 3, 0.6), step(1, 1, 0.5))).toEqual(start);
  });

  it('a step: J of each algorithm and its turn that moved most', () => {
    const live = liveOf(1, (a, k) => (k === 0 ? 0.1 : [0.9994, 0.3, 0.3][a]), (a, t, k) => (k === 0 ? 1 / 3 : a === 0 ? 1 : t === 0 ? 0 : 1 / 3));
    const note = stepNote(plan, meansAt(plan, live, 0), meansAt(plan, live, 1), 0, 1);
    expect(note).toMatch(/^Iteration 0 → 1: SeeUPO’s J rose from 0.10 to 0.9994/);
    expect(note).toContain('SeeUPO (forward)’s J rose from 0.10 to 0.30 (turn 1’s optimal-token probability 0.33 → 0.00)');
  });

  it('a finished run: where each ended and the lesson’s claim against what it declares', () => {
    const live = liveOf(10, (a) => (a === 0 ? 1 : 0.3), () => 0.5);
    const note = runNote(plan, live, null);
    expect(note).toMatch(/^The run ended at iteration 10: SeeUPO J = 1.00 \(2\/2 at J\*\), SeeUPO \(forward\) J = 0.30 \(0\/2 at J\*\)/);
    const lesson = { ...(LESSONS[0] ?? { id: 'x', title: 't', text: 't', config: {}, tour: [] }), claim: 3 as const, expect: 'observed' as const };
    expect(runNote(plan, live, lesson)).toContain('Claim 3: observed, as this lesson expects.');
    expect(runNote(plan, live, { ...lesson, expect: 'not observed' })).toContain('Claim 3: observed (this lesson expects not observed).');
  });

  it('number formats keep 0.999 and 0.9994 apart from 1', () => {
    expect(fmtP(0.999)).toBe('0.999');
    expect(fmtP(0.3333)).toBe('0.33');
    expect(fmtP(1)).toBe('1.00');
    expect(fmtJ(0.9994, 1)).toBe('0.9994');
    expect(fmtJ(1, 1)).toBe('1.00');
    expect(fmtJ(0.3, 1)).toBe('0.30');
  });

  it('placeholders are filled from the numbers; unknown ones stay as written', () => {
    const live = liveOf(3, (a) => [1, 0.3, 0.3][a], (a, t) => (t === 4 ? 0.999 : 0.5));
    const c = { plan, live, iteration: 3, verdict: 'observed' };
    expect(fillText('At {iteration}: J = {J:seeupo}, {atJstar:seeupo} at J* = {Jstar}; turn 5 {p:grpo:5}; claim {verdict}.', c)).toBe(
      'At 3: J = 1.00, 2/2 at J* = 1.00; turn 5 0.999; claim observed.',
    );
    expect(fillText('{J:nobody} {what} {p:seeupo:9}', c)).toBe('{J:nobody} {what} {p:seeupo:9}');
    expect(fillText('{J:seeupo}', { ...c, live: null })).toBe('{J:seeupo}');
  });
});

describe('the verdict panel', () => {
  const ev = (id: string): AlgorithmEvidence => ({
    id, seeds: 4, atJstar: 3, atJstarInterval: { lo: 0.19, hi: 0.99 }, stuck: 1, settled: 4, drops: 2, seedsWithDrops: 1,
    largestDrop: { size: 0.1, seed: 2, iteration: 7, kl: 0.3 }, dropList: [{ size: 0.1, seed: 2, iteration: 7, kl: 0.3 }], violations: 2, t95: null, finalJ: { mean: 0.8, lo: 0.5, hi: 1.1 }, diverged: 0, lr: 1,
  });
  const claim = (n: Claim['claim'], evidence: Claim['evidence']): Claim => ({ claim: n, title: '', verdict: 'observed', reason: '', evidence });

  it('highlights the evidence’s algorithms; claim 2 adds its controls, claim 3 its seed indices', () => {
    expect(highlightOf(claim(1, { algorithms: [ev('reinforce'), ev('rloo')] }))).toEqual({ algorithms: ['reinforce', 'rloo'], seeds: null });
    expect(highlightOf(claim(2, { algorithms: [ev('grpo')], controls: [ev('seeupo')] })).algorithms).toEqual(['grpo', 'seeupo']);
    expect(highlightOf(claim(3, { algorithms: [ev('grpo'), ev('seeupo')], seedIndices: [0, 3] }))).toEqual({ algorithms: ['grpo', 'seeupo'], seeds: [0, 3] });
    expect(highlightOf(claim(3, { algorithms: [ev('grpo')], seedIndices: [] })).seeds).toBeNull();
  });

  it('the style sheet dims the others, and with seeds the other seed lines', () => {
    expect(highlightCss(null)).toBe('');
    expect(highlightCss({ algorithms: [], seeds: null })).toBe('');
    const css = highlightCss({ algorithms: ['grpo', 'a"b'], seeds: [3] });
    expect(css).toContain('[data-algorithm]:not([data-algorithm="grpo"]):not([data-algorithm="a\\22 b"]) { opacity: 0.14; }');
    expect(css).toContain('.multiple .seed:not([data-seed="3"]) { stroke-opacity: 0.06; }');
    expect(cssString('x\\y')).toBe('"x\\5c y"');
  });

  it('evidence cells: k/N at J* with its interval, drops in seeds with the largest, t95 ∞ (never), final J ± half-width', () => {
    const cells = evidenceCells(ev('grpo'), (v) => v.toFixed(2));
    expect(cells).toEqual({ seeds: '4', atJstar: '3/4 (0.19–0.99)', stuck: '1', drops: '2 in 1 (largest 0.10, seed 2, iteration 7, KL 0.30)', t95: '∞', finalJ: '0.80 ± 0.30' });
    expect(evidenceCells({ ...ev('x'), finalJ: { mean: 0.3, lo: 0.3, hi: 0.3 }, drops: 0 }, (v) => v.toFixed(2))).toMatchObject({ finalJ: '0.30', drops: '0' });
  });

  it('texts for all five claims; verdicts as attribute words', () => {
    for (const n of CLAIM_NUMBERS) for (const v of Object.values(CLAIM_TEXT[n])) expect(v.length).toBeGreaterThan(10);
    expect(verdictWord('not observed')).toBe('not-observed');
    expect(verdictWord('not testable')).toBe('not-testable');
    expect(verdictWord('observed')).toBe('observed');
  });
});
