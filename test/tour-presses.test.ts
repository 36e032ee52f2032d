import { describe, expect, it } from 'vitest';
import { actionDone, pressesSince } from '../src/ui/tour';
import type { TurnStep } from '../src/ui/live';

const ts = (iteration: number, done: number, turns = 5): TurnStep => ({ iteration, done, turns, algorithms: [] });

describe('tour counters count presses', () => {
  it('Step one turn three more times: done after the third press, not the first', () => {
    const mark = { iteration: 0, turnKey: '0:2' };
    const at = (t: TurnStep) => ({ status: 'paused' as const, iteration: 0, turnStep: t });
    expect(pressesSince('step-turn', mark, at(ts(0, 3)), 5)).toBe(1);
    expect(actionDone('step-turn', mark, at(ts(0, 3)), 3, 5)).toBe(false);
    expect(actionDone('step-turn', mark, at(ts(0, 4)), 3, 5)).toBe(false);
    expect(actionDone('step-turn', mark, at(ts(0, 5)), 3, 5)).toBe(true);
    // one press without `times` is enough, as before
    expect(actionDone('step-turn', mark, at(ts(0, 3)), undefined, 5)).toBe(true);
  });
  it('turn steps are counted across iterations; a mark without a turn step is the iteration start', () => {
    expect(pressesSince('step-turn', { iteration: 0, turnKey: '0:4' }, { status: 'paused', iteration: 1, turnStep: ts(1, 1) }, 5)).toBe(2);
    expect(pressesSince('step-turn', { iteration: 3, turnKey: null }, { status: 'paused', iteration: 3, turnStep: ts(3, 2) }, 5)).toBe(2);
    expect(pressesSince('step-turn', { iteration: 3, turnKey: null }, { status: 'paused', iteration: 3, turnStep: null }, 5)).toBe(0);
  });
  it('Steps are iterations done', () => {
    const mark = { iteration: 2, turnKey: null };
    expect(pressesSince('step', mark, { status: 'paused', iteration: 4, turnStep: null })).toBe(2);
    expect(actionDone('step', mark, { status: 'paused', iteration: 4, turnStep: null }, 3)).toBe(false);
    expect(actionDone('step', mark, { status: 'paused', iteration: 5, turnStep: null }, 3)).toBe(true);
  });
});

describe('lessons say how many presses they ask for', () => {
  it('a step whose text asks for "N more times" declares times: N', async () => {
    const { LESSONS } = await import('../src/core/lessons/lessons');
    const words: Record<string, number> = { two: 2, three: 3, four: 4, five: 5 };

    for (const l of LESSONS)
      for (const step of l.tour) {
        const m = /\b(two|three|four|five|\d+) more times\b/i.exec(step.text);
        if (!m) continue;

        expect(step.times, `${l.id}: "${m[0]}"`).toBe(words[m[1].toLowerCase()] ?? Number(m[1]));
      }
  });
});
