import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The page's derived parts follow the store's version in slots (charts/common.tsx): each in a task
// of its own, a costly one paced to its cost while a run streams; a run's end reaches every slot at once.

describe('slots', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    vi.resetModules();
  });
  afterEach(() => vi.useRealTimers());

  it('a slot whose update cost 40 ms waits 8 × 40 ms before the next; the cheap ones do not; the run’s end brings it forward', async () => {
    const { useApp } = await import('../src/ui/store');
    const { SLOTS, shownIn, slotTook } = await import('../src/ui/components/charts/common');
    const bump = () => useApp.setState({ version: useApp.getState().version + 1 });
    useApp.setState({ status: 'running' });
    await vi.advanceTimersByTimeAsync(1000);
    bump(); // published at once (t = 0), the claims' slot shows it at its turn (5 × 12 ms)
    const v1 = useApp.getState().version;
    await vi.advanceTimersByTimeAsync(100);
    expect(shownIn(SLOTS.return).version).toBe(v1);
    expect(shownIn(SLOTS.claims).version).toBe(v1);
    slotTook(SLOTS.claims, 40);
    bump(); // published at t = 250 (the charts' interval): slot k at 250 + 12k; the claims' also wait for 60 + 8 × 40 = 380 → 440
    const v2 = useApp.getState().version;
    await vi.advanceTimersByTimeAsync(250); // t = 350
    expect(shownIn(SLOTS.return).version).toBe(v2);
    expect(shownIn(SLOTS.summary).version).toBe(v2);
    expect(shownIn(SLOTS.claims).version).toBe(v1);
    await vi.advanceTimersByTimeAsync(100); // t = 450
    expect(shownIn(SLOTS.claims).version).toBe(v2);
    // the next version waits for the pace again, until the run ends: then every slot at its turn
    bump();
    await vi.advanceTimersByTimeAsync(250);
    bump();
    const v4 = useApp.getState().version;
    await vi.advanceTimersByTimeAsync(5);
    expect(shownIn(SLOTS.claims).version).toBeLessThan(v4);
    useApp.setState({ status: 'done' });
    await vi.advanceTimersByTimeAsync(8 * 12 + 1);
    for (const slot of Object.values(SLOTS)) expect(shownIn(slot).version).toBe(v4);
  });
});
