import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Tests read well: no two tests of a file share a title, so a failure names one test.
// Titles written as plain string literals are compared ('…' or "…"); generated ones (template
// literals in loops) carry their loop values and are left to the runner.

const TITLE = /\b(?:it|test)(?:\.(?:skip|only|fails))?\(\s*(['"])((?:\\.|(?!\1).)*)\1/g;

function titles(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(TITLE)].map((m) => m[2]!);
}

const files = ['test', 'test/integration', 'e2e'].flatMap((dir) => readdirSync(dir).filter((f) => /\.(test|spec)\.ts$/.test(f)).map((f) => join(dir, f)));

describe('test titles', () => {
  it('finds the test files and their titles (the scan works)', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(titles('test/test-names.test.ts')).toContain('finds the test files and their titles (the scan works)');
  });

  it('no file has two tests with the same title', () => {
    const dupes: string[] = [];
    for (const f of files) {
      const seen = new Set<string>();
      for (const t of titles(f)) {
        if (seen.has(t)) dupes.push(`${f}: "${t}"`);
        seen.add(t);
      }
    }
    expect(dupes).toEqual([]);
  });
});
