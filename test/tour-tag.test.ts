import { describe, expect, it } from 'vitest';
import { placeTag, type Rect } from '../src/ui/tour-tag';

// The tour's "step n" tag beside the element a step points at: on screen, and over no control.

const within = (r: Rect, vp: { width: number; height: number }) => r.left >= 0 && r.top >= 0 && r.left + r.width <= vp.width && r.top + r.height <= vp.height;
const hits = (a: Rect, b: Rect) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('placeTag', () => {
  const vp = { width: 1366, height: 768 };
  const tag = { width: 110, height: 28 };
  const ring = { left: 10, top: 176, width: 840, height: 350 };
  const at = (p: { left: number; top: number }) => ({ left: ring.left + p.left, top: ring.top + p.top, ...tag });

  it('goes above the element, at its left, when nothing is there', () => {
    const p = placeTag(ring, tag, [], vp);
    expect(p).toEqual({ left: 12, top: -38, above: true });
  });

  it('never covers a control when a free place exists: the Run button above the tree moves it', () => {
    const run = { left: 28, top: 124, width: 134, height: 46 };
    const others = [run, { left: 170, top: 124, width: 440, height: 46 }, { left: 690, top: 140, width: 130, height: 14 }];
    const p = placeTag(ring, tag, others, vp);
    const r = at(p);
    expect(within(r, vp)).toBe(true);
    for (const c of others) expect(hits(r, c)).toBe(false);
  });

  it('stays on screen: an element at the top of the page gets its tag inside or below', () => {
    const top = { left: 0, top: 0, width: 400, height: 200 };
    const p = placeTag(top, tag, [], vp);
    expect(p.top).toBeGreaterThanOrEqual(0);
    expect(within({ left: top.left + p.left, top: top.top + p.top, ...tag }, vp)).toBe(true);
  });

  it('when every place covers something, the least covered one', () => {
    const everywhere = [{ left: 0, top: 0, width: 1366, height: 768 }];
    const p = placeTag(ring, tag, everywhere, vp);
    expect(within(at(p), vp)).toBe(true);
  });
});

describe('placeTag with boxes better left clear', () => {
  it('covers a progress bar (soft) rather than a button', () => {
    const vp = { width: 1366, height: 768 };
    const tag = { width: 80, height: 20 };
    // a button in a row of buttons, a progress bar right below: every place covers something
    const ring = { left: 300, top: 180, width: 160, height: 60 };
    const buttons = [{ left: 20, top: 140, width: 1000, height: 30 }, { left: 230, top: 185, width: 60, height: 50 }, { left: 470, top: 185, width: 60, height: 50 }, { left: 306, top: 186, width: 148, height: 48 }];
    const progress = [{ left: 20, top: 245, width: 1100, height: 14 }];
    const p = placeTag(ring, tag, buttons, vp, progress);
    const r = { left: ring.left + p.left, top: ring.top + p.top, ...tag };
    for (const b of buttons) expect(hits(r, b), JSON.stringify(b)).toBe(false);
  });
});
