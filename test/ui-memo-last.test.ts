import { describe, expect, it } from 'vitest';
import { memoLast, once } from '../src/ui/memo-last';

describe('memoLast', () => {
  it('computes once per distinct key, by identity, remembering only the last', () => {
    let calls = 0;
    const a = { n: 1 }, b = { n: 2 };
    const f = memoLast((x: { o: { n: number }; k: number }) => [x.o, x.k], (x) => (calls++, x.o.n * 10 + x.k));
    expect(f({ o: a, k: 1 })).toBe(11);
    expect(f({ o: a, k: 1 })).toBe(11);
    expect(calls).toBe(1);
    expect(f({ o: { n: 1 }, k: 1 })).toBe(11); // equal but not identical: computed again
    expect(calls).toBe(2);
    expect(f({ o: b, k: 1 })).toBe(21);
    expect(f({ o: b, k: 2 })).toBe(22);
    expect(calls).toBe(4);
    expect(f({ o: b, k: 1 })).toBe(21); // only the last answer is kept
    expect(calls).toBe(5);
  });

  it('keys of different lengths never match', () => {
    let calls = 0;
    const f = memoLast((k: unknown[]) => k, () => ++calls);
    f([1]);
    f([1, undefined]);
    expect(calls).toBe(2);
  });

  it('remembers a null answer too', () => {
    let calls = 0;
    const f = memoLast((k: number) => [k], () => (calls++, null));
    f(1);
    f(1);
    expect(calls).toBe(1);
  });
});

describe('once', () => {
  it('computes on the first call only, a null answer included', () => {
    let calls = 0;
    const made = once(() => (calls++, null));
    expect(calls).toBe(0); // nothing until first used
    expect(made()).toBeNull();
    expect(made()).toBeNull();
    expect(calls).toBe(1);
    const box = once(() => ({ n: ++calls }));
    expect(box()).toBe(box());
    expect(calls).toBe(2);
  });
});
