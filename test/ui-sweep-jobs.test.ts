import { describe, expect, it } from 'vitest';
import { CellCheckSlot, RunSlot, type CellCheck } from '../src/ui/sweep-jobs';
import type { Sweep } from '../src/core/sweep/cells';

// The Sweep view's jobs with fake workers: one cell check at a time (a newer sweep ends the older
// check, whose late answer is dropped), the answer kept for its sweep; one sweep run at a time.

function rig() {
  const started: { sweep: Sweep; end: (s: CellCheck) => void; terminated: boolean }[] = [];
  let ended = 0;
  const slot = new CellCheckSlot(
    (sweep, end) => {
      const job = { sweep, end, terminated: false };
      started.push(job);
      return { terminate: () => void (job.terminated = true) };
    },
    () => void ended++,
  );
  return { slot, started, ended: () => ended };
}
const sweepA = { cells: 2 } as unknown as Sweep;
const sweepB = { cells: 3 } as unknown as Sweep;
const work = { runs: 1 } as never;

describe('CellCheckSlot', () => {
  it('starts one check per sweep, answers "checking" until it ends, then keeps its answer', () => {
    const { slot, started, ended } = rig();
    expect(slot.status(sweepA)).toEqual({ state: 'checking' });
    expect(slot.status(sweepA)).toEqual({ state: 'checking' });
    expect(started).toHaveLength(1);
    started[0]!.end({ state: 'ok', work });
    expect(started[0]!.terminated).toBe(true);
    expect(ended()).toBe(1);
    expect(slot.status(sweepA)).toEqual({ state: 'ok', work });
    expect(started).toHaveLength(1); // not checked again
  });

  it('a newer sweep ends the check in flight; the old answer, arriving late, changes nothing', () => {
    const { slot, started, ended } = rig();
    slot.status(sweepA);
    slot.status(sweepB);
    expect(started.map((s) => s.terminated)).toEqual([true, false]);
    started[0]!.end({ state: 'error', message: 'late' });
    expect(ended()).toBe(0);
    expect(slot.status(sweepB)).toEqual({ state: 'checking' });
    started[1]!.end({ state: 'error', message: 'cells[1]: bad' });
    started[1]!.end({ state: 'ok', work }); // a second answer from the same worker is ignored
    expect(ended()).toBe(1);
    expect(slot.status(sweepB)).toEqual({ state: 'error', message: 'cells[1]: bad' });
    // back to A: checked anew (only the latest sweep's answer is kept)
    expect(slot.status(sweepA)).toEqual({ state: 'checking' });
    expect(started).toHaveLength(3);
  });

  it('an answer given before start returns is kept and its worker ended', () => {
    let terminated = 0;
    const slot = new CellCheckSlot((_, end) => {
      end({ state: 'ok', work });
      return { terminate: () => void terminated++ };
    }, () => undefined);
    expect(slot.status(sweepA)).toEqual({ state: 'ok', work });
    expect(terminated).toBe(1);
  });
});

describe('RunSlot', () => {
  it('holds one run; cancel ends it once; its own end frees the slot without cancelling', () => {
    const slot = new RunSlot<{ cancel(): void }>();
    let cancels = 0;
    expect(slot.busy).toBe(false);
    expect(slot.cancel()).toBe(false);
    slot.start({ cancel: () => void cancels++ });
    expect(slot.busy).toBe(true);
    expect(slot.cancel()).toBe(true);
    expect(slot.cancel()).toBe(false);
    expect(cancels).toBe(1);
    slot.start({ cancel: () => void cancels++ });
    slot.end();
    expect(slot.busy).toBe(false);
    expect(slot.cancel()).toBe(false);
    expect(cancels).toBe(1);
  });
});
