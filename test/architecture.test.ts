import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The lanes of docs/architecture.md, checked on the import statements of src/:
// no import cycles; src/core imports nothing outside it; the page (src/ui) imports no executor;
// the workers import nothing of the page; an executor imports no other executor.

const SRC = resolve('src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

/** Relative imports of a file (static, re-exports and dynamic), resolved to files of src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.[^']+)'/gm)) {
    const base = resolve(dirname(file), m[1]!.replace(/\?.*$/, ''));
    const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
    if (hit && hit.startsWith(SRC)) out.push(hit);
  }
  return out;
}

const all = files(SRC);
const graph = new Map(all.map((f) => [f, importsOf(f)]));
const rel = (f: string) => relative(SRC, f).replace(/\\/g, '/');

/** Strongly connected components with more than one file (Tarjan). */
function cycles(): string[][] {
  let index = 0;
  const idx = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>(), out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(rel(w));
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of all) if (!idx.has(v)) visit(v);
  return out;
}

/** Every import from a file under `from` to a file under `to` (folders relative to src/). */
function crossings(from: string, to: (target: string) => boolean): string[] {
  const out: string[] = [];
  for (const [f, deps] of graph) if (rel(f).startsWith(from)) for (const d of deps) if (to(rel(d))) out.push(`${rel(f)} → ${rel(d)}`);
  return out;
}

/** The executor of a file under src/exec ('host' is the code they share), or null. */
const executorOf = (f: string): string | null => /^exec\/([\w-]+)\//.exec(f)?.[1] ?? null;

describe('architecture', () => {
  it('the scan sees the project (the checks below cannot pass vacuously)', () => {
    expect(all.length).toBeGreaterThan(150);
    expect(graph.get(join(SRC, 'ui/store.ts'))!.map(rel)).toContain('ui/session-actions.ts');
  });

  it('there are no import cycles', () => {
    expect(cycles()).toEqual([]);
  });

  it('src/core imports nothing outside src/core', () => {
    expect(crossings('core/', (t) => !t.startsWith('core/'))).toEqual([]);
  });

  it('the page imports no executor, the workers nothing of the page', () => {
    expect(crossings('ui/', (t) => t.startsWith('exec/'))).toEqual([]);
    expect(crossings('worker/', (t) => t.startsWith('ui/'))).toEqual([]);
  });

  it('an executor imports no other executor; their shared host code (src/exec/host) imports none', () => {
    const across = crossings('exec/', (t) => t.startsWith('exec/'))
      .map((c) => c.split(' → ').map(executorOf) as [string, string])
      .filter(([from, to]) => from !== to && to !== 'host');
    expect(across).toEqual([]);
    expect(crossings('exec/host/', (t) => t.startsWith('exec/') && !t.startsWith('exec/host/'))).toEqual([]);
    expect(crossings('exec/tensor/', (t) => t.startsWith('exec/host/')).length).toBeGreaterThan(0); // the check sees the shared code in use
  });
});
