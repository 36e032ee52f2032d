import { configErrorOrAccepted } from './support/config-error';
import { describe, expect, it } from 'vitest';
import { checkKeyCounts } from '../src/core/config/key-limit';
import { importConfig } from '../src/core/config/import-file';

// A key given twice in one JSON object: JSON.parse keeps the last and drops the first silently,
// where docs/cli.md refuses an unknown field by name so that no typo is ignored, and a link
// refuses a key given twice. Files are refused naming the key's path (CLI and the page's import).

const errorOf = (text: string): string => configErrorOrAccepted(() => checkKeyCounts(text, 'x.json'));

describe('a key given twice', () => {
  it('is refused naming its path, at the top and nested in lists', () => {
    expect(errorOf('{"version":1,"iterations":3,"iterations":4}')).toBe('iterations: given twice in one object (x.json); JSON keeps only the last, so give it once');
    expect(errorOf('{"algorithms":[{"id":"a"},{"id":"b","clip":1, "clip" :2}]}')).toMatch(/^algorithms\[1\]\.clip: given twice/);
    expect(errorOf('{"env":{"rewards":[[0,1]],"noise":[{"kind":"none"},{"kind":"gaussian","sigma":1,"sigma":2}]}}')).toMatch(/^env\.noise\[1\]\.sigma: given twice/);
  });

  it('the same key in different objects, and colons or quotes inside strings, are not duplicates', () => {
    expect(errorOf('{"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}]}')).toBe('accepted');
    expect(errorOf(JSON.stringify({ label: 'a:b"c', x: 'label:', y: { label: 1 } }))).toBe('accepted');
    expect(errorOf('{"":1,"a":2}')).toBe('accepted');
    expect(errorOf('{"":1,"":2}')).toMatch(/given twice/);
  });

  it("the page's config import refuses it too", () => {
    const r = importConfig('{"version":1,"env":{"preset":"lock"},"seeds":2,"seeds":3}');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^file: seeds: given twice/);
  });
});
