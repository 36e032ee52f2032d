import { describe, expect, it } from 'vitest';
import { RunClock } from '../src/ui/run-clock';

// The progress line's clock on a clock the test sets: paused time is left out, the rate is
// measured over the last two seconds, and a short span keeps the previous rate.

function rig() {
  let t = 0;
  return { clock: new RunClock(() => t), at: (ms: number) => void (t = ms) };
}

describe('RunClock', () => {
  it('counts running time only, across pauses, until reset', () => {
    const { clock, at } = rig();
    expect(clock.sample(0).elapsed).toBe(0);
    clock.start();
    at(1500);
    expect(clock.sample(10).elapsed).toBe(1.5);
    clock.stop();
    at(10_000);
    expect(clock.sample(10).elapsed).toBe(1.5);
    clock.start();
    clock.start(); // a second start within a stretch does not restart it
    at(10_500);
    expect(clock.sample(12).elapsed).toBe(2);
    clock.reset();
    expect(clock.running).toBe(false);
    expect(clock.sample(0).elapsed).toBe(0);
  });

  it('iterations per second over the last two seconds; undefined until the samples span 200 ms', () => {
    const { clock, at } = rig();
    clock.start();
    expect(clock.sample(0).itPerSec).toBeUndefined();
    at(100);
    expect(clock.sample(5).itPerSec).toBeUndefined();
    at(1000);
    expect(clock.sample(50).itPerSec).toBe(50); // (50 − 0) over 1 s
    at(5000);
    clock.sample(100);
    at(6000);
    // samples older than 2 s are dropped: (200 − 100) over the last 1 s
    expect(clock.sample(200).itPerSec).toBe(100);
  });

  it('a new stretch measures its rate afresh; stopped, nothing is sampled', () => {
    const { clock, at } = rig();
    clock.start();
    clock.sample(0);
    at(1000);
    expect(clock.sample(10).itPerSec).toBe(10);
    clock.stop();
    at(2000);
    expect(clock.sample(10).itPerSec).toBe(10); // the stretch's samples stay until the next start
    clock.start();
    at(2100);
    expect(clock.sample(11).itPerSec).toBeUndefined();
  });
});
