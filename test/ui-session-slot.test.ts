import { describe, expect, it } from 'vitest';
import { PendingTrees, SessionSlot, TurnHold } from '../src/ui/session-slot';

// What the page's session actions keep between presses (src/ui/session-slot.ts): the session its
// commands go to, the turn-by-turn hold, and the policy trees waiting for their next draw.

class FakeSession {
  closed = 0;
  finished = false;
  close(): void {
    this.closed++;
  }
}

describe('SessionSlot', () => {
  it('holds no session at first; a replaced session is no longer the one held, and clear closes and forgets it', () => {
    const slot = new SessionSlot<FakeSession>();
    expect(slot.current).toBeNull();
    expect(slot.active).toBe(false);
    const a = new FakeSession(), b = new FakeSession();
    slot.replace(a);
    expect(slot.holds(a)).toBe(true);
    expect(slot.active).toBe(true);
    // a new session: the old one's workers close first, it stays current until the new one is named
    slot.closeWorkers();
    expect(a.closed).toBe(1);
    expect(slot.current).toBe(a);
    slot.replace(b);
    expect(slot.holds(a)).toBe(false);
    expect(slot.holds(b)).toBe(true);
    expect(a.closed).toBe(1); // replace closes nothing itself
    slot.clear();
    expect(b.closed).toBe(1);
    expect(slot.current).toBeNull();
    expect(slot.holds(b)).toBe(false);
    slot.clear(); // nothing to close
    slot.closeWorkers();
    expect(b.closed).toBe(1);
  });

  it('a session whose runs all ended is held but not active (no command goes to it)', () => {
    const slot = new SessionSlot<FakeSession>();
    const s = new FakeSession();
    slot.replace(s);
    s.finished = true;
    expect(slot.holds(s)).toBe(true);
    expect(slot.active).toBe(false);
  });
});

describe('TurnHold', () => {
  it('stops the charts at the held iteration until the last turn is shown, keeping the records until release', () => {
    const hold = new TurnHold<{ iteration: number }>();
    expect(hold.holding).toBe(false);
    expect(hold.shown(7)).toBe(7);
    hold.hold(3);
    expect(hold.holding).toBe(true);
    expect(hold.records).toBeNull(); // recorded when the workers answer
    expect(hold.shown(5)).toBe(3); // the workers are ahead: the charts stay at the stepped iteration
    expect(hold.shown(2)).toBe(2); // not there yet: the charts show where the workers are
    hold.recorded({ iteration: 3 });
    expect(hold.records).toEqual({ iteration: 3 });
    hold.lastTurnShown();
    expect(hold.holding).toBe(false);
    expect(hold.shown(5)).toBe(5);
    expect(hold.records).toEqual({ iteration: 3 });
    hold.hold(4);
    hold.release();
    expect(hold.holding).toBe(false);
    expect(hold.records).toBeNull();
  });
});

describe('PendingTrees', () => {
  type Tree = { run: number; v: number };
  // a newer tree of a run replaces its older one, as mergeTrees does
  const merge = (held: readonly Tree[], incoming: readonly Tree[]) => [...new Map([...held, ...incoming].map((t) => [t.run, t])).values()];

  it('merges the trees of one session until taken; another session’s trees replace them; drop forgets them', () => {
    const due = new PendingTrees<string, Tree>(merge);
    expect(due.take()).toBeNull();
    due.add('a', [{ run: 0, v: 1 }, { run: 1, v: 1 }]);
    due.add('a', [{ run: 0, v: 2 }]);
    expect(due.take()).toEqual({ s: 'a', trees: [{ run: 0, v: 2 }, { run: 1, v: 1 }] });
    expect(due.take()).toBeNull(); // taken once
    due.add('a', [{ run: 1, v: 3 }]);
    due.add('b', [{ run: 0, v: 4 }]);
    expect(due.take()).toEqual({ s: 'b', trees: [{ run: 0, v: 4 }] });
    due.add('b', [{ run: 0, v: 5 }]);
    due.drop();
    expect(due.take()).toBeNull();
  });
});
