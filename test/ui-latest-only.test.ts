import { describe, expect, it } from 'vitest';
import { LatestOnly } from '../src/ui/latest-only';

// Links opened from the history one after another: only the last one started may still load.

describe('LatestOnly', () => {
  it('starting a job makes every job started before it stale, for good', () => {
    const jobs = new LatestOnly();
    const first = jobs.start();
    expect(first()).toBe(true);
    const second = jobs.start();
    expect(first()).toBe(false);
    expect(second()).toBe(true);
    const third = jobs.start();
    expect([first(), second(), third()]).toEqual([false, false, true]);
    // two slots are independent
    const other = new LatestOnly().start();
    expect(other()).toBe(true);
    expect(third()).toBe(true);
  });
});
