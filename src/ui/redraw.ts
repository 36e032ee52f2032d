// The charts' one redraw throttle. Both halves of it read this constant: the store
// bumps `version` (what the charts follow) at most this often while a run streams, the progress
// bar following every frame (session-actions.ts publish); and the charts follow a throttled copy
// of `version`, so that a burst of forced bumps (Step pressed quickly, a run ending just after a
// redraw) redraws them at most this often too, the last version always shown (charts/common.tsx).

/** Charts redraw at most once per this many milliseconds (a chart render is far costlier than the progress bar). */
export const CHART_REDRAW_MS = 250;

/**
 * `run` at most once per `gapMs`: a poke runs it at once when it last ran `gapMs` ago or more, else
 * once at the end of that interval (pokes meanwhile join it), so the last poke is always followed
 * by a run. An `urgent` poke runs it at once whatever the interval (the first points of a new run,
 * a run's end: what the reader waits for); one already waiting still runs at its time. `now` and
 * `later` are the clock and the timer (tests pass their own).
 */
export function throttle(
  run: () => void,
  gapMs: number,
  now: () => number = () => performance.now(),
  later: (f: () => void, ms: number) => unknown = setTimeout,
): (urgent?: boolean) => void {
  let last = -Infinity;
  let pending = false;
  const fire = () => {
    pending = false;
    last = now();
    run();
  };
  return (urgent = false) => {
    if (urgent) {
      last = now();
      run();
      return;
    }
    if (pending) return;
    const wait = last + gapMs - now();
    if (wait <= 0) fire();
    else {
      pending = true;
      later(fire, wait);
    }
  };
}

/** `run` on the next animation frame; requests before it runs join it (no animation frames, as in Node: a 16 ms timer). */
export function oncePerFrame(run: () => void, raf: (f: () => void) => unknown = defaultRaf): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    raf(() => {
      pending = false;
      run();
    });
  };
}

const defaultRaf = (f: () => void): unknown => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => f()) : setTimeout(f, 16));

/** True when `gapMs` have passed since it last said true (or when forced, which restarts the interval). */
export function intervalGate(gapMs: number): (now: number, force?: boolean) => boolean {
  let last = -Infinity;
  return (now, force = false) => {
    if (!force && now - last < gapMs) return false;
    last = now;
    return true;
  };
}
