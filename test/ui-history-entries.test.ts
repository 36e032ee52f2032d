import { describe, expect, it } from 'vitest';
import { HistoryEntries } from '../src/ui/history-entries';

// The address bar's history: one entry per committed change; a drag or a typed number is one edit.

describe('HistoryEntries', () => {
  it('each committed change pushes an entry; the address already shown writes nothing', () => {
    const h = new HistoryEntries();
    expect(h.write('#a')).toBe('push');
    expect(h.write('#a')).toBeNull();
    expect(h.write('#b')).toBe('push');
  });

  it('an address shown later is computed at the next write (or settle), once, and then writes nothing', () => {
    const h = new HistoryEntries();
    h.write('#before');
    let computed = 0;
    h.shownLater(() => (computed++, '#opened'));
    expect(computed).toBe(0);
    expect(h.write('#opened')).toBeNull();
    expect(computed).toBe(1);
    expect(h.write('#next')).toBe('push');
    h.shownLater(() => '#other');
    h.settle();
    h.settle();
    expect(h.write('#other')).toBeNull();
    h.shownLater(() => null); // no address: the one shown stays
    expect(h.write('#other')).toBeNull();
  });

  it('a slider drag is one entry: pushed at the first move, replaced while held, closed on release', () => {
    const h = new HistoryEntries();
    h.write('#start');
    h.slideStart();
    expect(h.write('#lr=1')).toBe('push');
    expect(h.write('#lr=2')).toBe('replace');
    expect(h.write('#lr=3')).toBe('replace');
    h.slideEnd();
    expect(h.write('#seeds=2')).toBe('push');
    expect(h.write('#seeds=3')).toBe('push');
  });

  it('after the release, the next change starts an entry of its own', () => {
    const h = new HistoryEntries();
    h.slideStart();
    h.write('#x=1');
    h.slideEnd();
    h.slideEnd(); // a second pointerup without a drag changes nothing
    expect(h.write('#x=2')).toBe('push');
  });

  it('typing is one edit until the field loses focus or Enter commits it', () => {
    const h = new HistoryEntries();
    h.typingStart();
    expect(h.write('#i=1')).toBe('push');
    expect(h.write('#i=12')).toBe('replace');
    h.commit();
    expect(h.write('#i=123')).toBe('push'); // still typing: a new edit, kept open
    expect(h.write('#i=1234')).toBe('replace');
    h.typingEnd();
    expect(h.write('#j=1')).toBe('push');
    expect(h.write('#j=2')).toBe('push');
  });

  it('Enter outside a typed field commits nothing', () => {
    const h = new HistoryEntries();
    h.slideStart();
    h.write('#a');
    h.commit();
    expect(h.write('#b')).toBe('replace');
  });

  it('Back/Forward close the open entry; opening a link writes nothing and records what the address shows', () => {
    const h = new HistoryEntries();
    h.slideStart();
    h.write('#a');
    h.moved();
    let during: ReturnType<HistoryEntries['write']> | undefined;
    h.opened(() => {
      expect(h.isOpening).toBe(true);
      during = h.write('#opened');
    });
    expect(during).toBeNull();
    expect(h.isOpening).toBe(false);
    h.shown('#opened');
    expect(h.write('#opened')).toBeNull();
    h.slideEnd();
    expect(h.write('#b')).toBe('push');
  });

  it('a link that fails to open still ends the opening', () => {
    const h = new HistoryEntries();
    expect(() => h.opened(() => { throw new Error('bad link'); })).toThrow('bad link');
    expect(h.isOpening).toBe(false);
    expect(h.write('#a')).toBe('push');
  });
});
