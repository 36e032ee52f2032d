import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The page's state lives in the store (src/ui/state.ts) or in named objects with their own tests
// (session-slot.ts, latest-only.ts, history-entries.ts, ...), never in a module's own variables:
// no `let` or `var` at the top level of a file of src/ui.

const UI = 'src/ui';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

/** The top-level `let`/`var` declarations of a source text (the code is formatted: top level is column 0). */
function moduleLets(text: string): string[] {
  return [...text.matchAll(/^(?:export\s+)?(?:let|var)\s+[^\n]*/gm)].map((m) => m[0]);
}

describe('module-level state in src/ui', () => {
  it('the scan finds a module-level let and ignores one inside a function', () => {
    expect(moduleLets('const a = 1;\nlet b = 2;\nexport let c = 3;\nfunction f() {\n  let d = 4;\n}\n')).toEqual(['let b = 2;', 'export let c = 3;']);
    expect(files(UI).length).toBeGreaterThan(40);
  });

  it('no file of src/ui declares a module-level let or var', () => {
    const found = files(UI).flatMap((f) => moduleLets(readFileSync(f, 'utf8')).map((l) => `${relative('.', f)}: ${l}`));
    expect(found).toEqual([]);
  });
});
