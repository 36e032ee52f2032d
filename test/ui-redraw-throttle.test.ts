import { describe, expect, it } from 'vitest';
import { intervalGate, oncePerFrame, throttle } from '../src/ui/redraw';

// The charts' redraw throttle on a clock the test moves: at most one run per gap, the last poke
// always followed by a run.

function rig(gap: number) {
  let t = 0;
  const timers: { at: number; f: () => void }[] = [];
  const runs: number[] = [];
  const poke = throttle(() => runs.push(t), gap, () => t, (f, ms) => timers.push({ at: t + ms, f }));
  const advance = (to: number) => {
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > to) break;
      timers.shift();
      t = next.at;
      next.f();
    }
    t = to;
  };
  return { poke, advance, runs, timers };
}

describe('throttle', () => {
  it('runs the first poke at once, and at once again after a quiet gap', () => {
    const r = rig(250);
    r.poke();
    expect(r.runs).toEqual([0]);
    r.advance(300);
    r.poke();
    expect(r.runs).toEqual([0, 300]);
    expect(r.timers).toHaveLength(0);
  });

  it('a burst within the gap gives one run at its end, with one timer', () => {
    const r = rig(250);
    r.poke();
    r.advance(10);
    r.poke();
    r.advance(20);
    r.poke();
    r.poke();
    expect(r.runs).toEqual([0]);
    expect(r.timers).toHaveLength(1);
    r.advance(1000);
    expect(r.runs).toEqual([0, 250]);
  });

  it('a steady stream runs once per gap, never more often', () => {
    const r = rig(250);
    for (let t = 0; t <= 1000; t += 16) {
      r.advance(t);
      r.poke();
    }
    r.advance(2000);
    const gaps = r.runs.slice(1).map((x, i) => x - r.runs[i]!);
    expect(r.runs.length).toBe(5);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(250);
    expect(r.runs.at(-1)).toBeGreaterThanOrEqual(992); // the last poke (t = 992) was followed by a run
  });
});

describe('throttle, urgent', () => {
  it('an urgent poke runs at once inside the gap; a poke already waiting still runs at its time', () => {
    const r = rig(250);
    r.poke();
    r.advance(10);
    r.poke(); // waits for t = 250
    r.advance(100);
    r.poke(true);
    expect(r.runs).toEqual([0, 100]);
    r.advance(1000);
    expect(r.runs).toEqual([0, 100, 250]);
  });
});

describe('oncePerFrame', () => {
  it('requests before the frame join it; the next request after it asks for a new frame', () => {
    const frames: (() => void)[] = [];
    let runs = 0;
    const request = oncePerFrame(() => runs++, (f) => frames.push(f));
    request();
    request();
    request();
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(runs).toBe(1);
    request();
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(runs).toBe(2);
  });
});

describe('intervalGate', () => {
  it('opens once per gap; a forced opening restarts the interval', () => {
    const due = intervalGate(250);
    expect(due(0)).toBe(true);
    expect(due(100)).toBe(false);
    expect(due(249)).toBe(false);
    expect(due(250)).toBe(true);
    expect(due(300, true)).toBe(true);
    expect(due(500)).toBe(false); // 200 ms after the forced one
    expect(due(550)).toBe(true);
  });
});
