import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config/resolve';
import { LESSONS } from '../../src/core/lessons/lessons';
import { cli, ensureBuilt } from '../helpers/cli';

// `seeupo-explorer lessons`: every lesson with its config (as `run` reads it), the verdict it
// declares and the variants it holds under (docs/cli.md "`lessons`"), so anyone can re-run it.

beforeAll(() => ensureBuilt(), 120_000);

describe('seeupo-explorer lessons', () => {
  it('prints {"lessons": [{id, claim, expect, title, config, holdsUnder}]}, the lessons of the page, in order', () => {
    const r = cli('lessons');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { lessons: { id: string; claim: number; expect: string; title: string; config: Record<string, unknown>; holdsUnder: unknown[] }[] };
    expect(out.lessons.map((l) => l.id)).toEqual(LESSONS.map((l) => l.id));
    for (const l of out.lessons) {
      const mine = LESSONS.find((x) => x.id === l.id)!;
      // "part" only where the declared verdict is a part's (claim 4's c)
      expect(Object.keys(l).sort(), l.id).toEqual(['claim', 'config', 'expect', 'holdsUnder', 'id', ...(mine.part ? ['part'] : []), 'title']);
      expect(l.config, l.id).toEqual(mine.config);
      expect(l.holdsUnder, l.id).toEqual(mine.holdsUnder);
      expect(() => resolveConfig(l.config), l.id).not.toThrow();
      expect(l.holdsUnder.length, l.id).toBeGreaterThanOrEqual(2);
    }
  });

  it('takes no file: an extra argument is invalid input (exit 2, one line naming it)', () => {
    const r = cli('lessons', 'x.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lessons takes no file');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
