import { describe, expect, it } from 'vitest';
import { ShownSlots, type Shown } from '../src/ui/shown-slots';
import type { Live } from '../src/ui/live';

// The slots' own clock and timers: a queue run in time order, so the test says when each part shows what.
function fakeClock() {
  let t = 0;
  let queue: { at: number; f: () => void; id: number }[] = [];
  let ids = 0;
  return {
    now: () => t,
    later: (f: () => void, ms: number) => {
      const id = ++ids;
      queue.push({ at: t + ms, f, id });
      return id;
    },
    cancel: (id: unknown) => {
      queue = queue.filter((q) => q.id !== id);
    },
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        queue.sort((a, b) => a.at - b.at || a.id - b.id);
        const next = queue[0];
        if (!next || next.at > end) break;
        queue.shift();
        t = next.at;
        next.f();
      }
      t = end;
    },
  };
}

const liveAt = (iteration: number): Live => ({ iteration }) as unknown as Live;

function setup(count = 3) {
  const clock = fakeClock();
  let store: Shown = { version: 0, live: null };
  const slots = new ShownSlots(count, () => store, { slotMs: 12, pace: 8, ...clock });
  const set = (s: Shown) => (store = s);
  return { clock, slots, set };
}

describe('ShownSlots', () => {
  it('hands a version to slot k at k × 12 ms; every part shows the latest only once the last slot has it', () => {
    const { clock, slots, set } = setup();
    expect(slots.allShown()).toBe(true);
    const live = liveAt(0);
    set({ version: 1, live });
    expect(slots.allShown()).toBe(false); // the store moved, the slots have not
    slots.publish();
    clock.advance(0);
    expect(slots.shownIn(0)).toEqual({ version: 1, live });
    expect(slots.shownIn(1).version).toBe(0);
    clock.advance(12);
    expect(slots.shownIn(1).version).toBe(1);
    expect(slots.allShown()).toBe(false);
    clock.advance(12);
    expect(slots.shownIn(2).version).toBe(1);
    expect(slots.allShown()).toBe(true);
  });

  it('a costly slot waits 8 × its cost while a run streams; a run’s end reaches it at its turn at once', () => {
    const { clock, slots, set } = setup(2);
    const live = liveAt(1);
    set({ version: 1, live });
    slots.changed(live, false); // the first segment: urgent
    slots.publish();
    clock.advance(12);
    expect(slots.allShown()).toBe(true);
    slots.took(1, 40); // slot 1's update cost 40 ms: its next waits until 12 + 320
    set({ version: 2, live });
    expect(slots.changed(live, false)).toBe(false);
    slots.publish();
    clock.advance(100);
    expect(slots.shownIn(0).version).toBe(2);
    expect(slots.shownIn(1).version).toBe(1);
    set({ version: 3, live });
    expect(slots.changed(live, true)).toBe(true); // the run ended
    slots.publish();
    clock.advance(12);
    expect(slots.shownIn(1).version).toBe(3);
    expect(slots.allShown()).toBe(true);
  });

  it('at a run’s end the slots named first take the first turns (the verdicts before the charts); other publishes keep the order', () => {
    const clock = fakeClock();
    let store: Shown = { version: 0, live: null };
    const slots = new ShownSlots(3, () => store, { slotMs: 12, pace: 8, ...clock }, [2]);
    const live = liveAt(1);
    store = { version: 1, live };
    slots.changed(live, false); // the first segment: urgent, in the usual order
    slots.publish();
    clock.advance(0);
    expect([0, 1, 2].map((k) => slots.shownIn(k).version)).toEqual([1, 0, 0]);
    clock.advance(24);
    store = { version: 2, live };
    slots.changed(live, true); // the run ended
    slots.publish();
    clock.advance(0);
    expect([0, 1, 2].map((k) => slots.shownIn(k).version)).toEqual([1, 1, 2]);
    clock.advance(12);
    expect([0, 1, 2].map((k) => slots.shownIn(k).version)).toEqual([2, 1, 2]);
    clock.advance(12);
    expect(slots.allShown()).toBe(true);
  });

  it('a publish of an unchanged store changes nothing; listeners hear each slot they watch', () => {
    const { clock, slots, set } = setup(2);
    const heard: string[] = [];
    const off = slots.subscribe(1, () => heard.push('one'));
    const offAll = slots.subscribeAll(() => heard.push('all'));
    slots.publish();
    clock.advance(100);
    expect(heard).toEqual([]);
    set({ version: 1, live: liveAt(0) });
    slots.publish();
    clock.advance(100);
    expect(heard).toEqual(['all', 'one', 'all']);
    off();
    offAll();
    set({ version: 2, live: liveAt(0) });
    slots.publish();
    clock.advance(100);
    expect(heard.length).toBe(3);
  });

  it('numbers runs in the order they are first shown, the same number every time', () => {
    const { slots } = setup();
    const a = liveAt(0);
    const b = liveAt(0);
    expect(slots.runNumber(a)).toBe(1);
    expect(slots.runNumber(b)).toBe(2);
    expect(slots.runNumber(a)).toBe(1);
  });
});
