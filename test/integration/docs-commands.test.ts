import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP } from '../../src/cli/usage';
import { ALLOWED, type Command } from '../../src/cli/args';
import { BIN, ROOT, useCliScratch } from '../helpers/cli';

// The README and docs/ say what a newcomer types; this runs it. The README's npm scripts exist,
// its relative links and every doc's links (and their #anchors) resolve, it stays short; every
// concrete `seeupo-explorer` line in a sh block of README.md and docs/cli.md runs as written
// (exit 0, from a folder holding the repository's docs/), and so does each command's --help example.

const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const README = read('README.md');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

/** Lines inside ``` fences of a language (sh) or, with null, of any. */
function fenced(md: string, lang: string | null): string[] {
  const out: string[] = [];
  let inside: string | null = null;
  for (const line of md.split('\n')) {
    const open = /^```(\w*)/.exec(line);
    if (open) {
      inside = inside === null ? open[1]! : null;
      continue;
    }
    if (inside !== null && (lang === null || inside === lang)) out.push(line);
  }
  return out;
}

/** Prose: the markdown with its code fences removed. */
const prose = (md: string) => md.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6} (.*)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A concrete command line (not a usage line with placeholders), without its trailing comment. */
function recipes(md: string): string[] {
  return fenced(md, 'sh')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => /^(npx )?seeupo-explorer /.test(l))
    .filter((l) => !/\[|\.\.\.|…|\b(CONFIG|INPUT|SWEEP|SHARD|RESULT)\.json\b|'URL'|\bFILE\b|\bCOMMAND\b|\bI\/N\b|\bK$/.test(l));
}

const tmp = useCliScratch();

/** Run shell lines in the scratch folder (docs/ linked in), `seeupo-explorer` being this checkout's bin. */
function shell(line: string): { code: number | null; stdout: string; stderr: string } {
  const bin = join(tmp.dir, 'bin');
  if (!existsSync(join(tmp.dir, 'docs'))) {
    symlinkSync(join(ROOT, 'docs'), join(tmp.dir, 'docs'));
    spawnSync('mkdir', ['-p', bin]);
    writeFileSync(join(bin, 'seeupo-explorer'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'seeupo-explorer'), 0o755);
  }
  const r = spawnSync('sh', ['-c', line.replace(/^npx seeupo-explorer /, 'seeupo-explorer ')], {
    cwd: tmp.dir,
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 << 20,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runsAsWritten(line: string): void {
  const r = shell(line);
  expect(r.code, `${line}\n${r.stderr}`).toBe(0);
  expect(r.stderr, line).not.toMatch(/^error:/m);
}

describe('README.md', () => {
  it('is at most 1,200 words of prose, no line over 200 characters', () => {
    const words = prose(README).split(/\s+/).filter(Boolean).length;
    expect(words).toBeGreaterThan(200); // the count itself reads the README
    expect(words).toBeLessThanOrEqual(1200);
    for (const [i, line] of README.split('\n').entries()) expect(line.length, `README.md:${i + 1}`).toBeLessThanOrEqual(200);
  });

  it('keeps its order: what it is with a screenshot, two commands, a 60-second tour, the CLI in five lines, links', () => {
    const headings = [...README.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Two commands', 'A 60-second tour', 'The CLI in five lines', 'Everything else']);
    expect(README.split('## Two commands')[0]).toMatch(/!\[[^\]]+\]\(docs\/screenshots\/[\w-]+\.png\)/);
    const cli = README.split('## The CLI in five lines')[1]!.split('## ')[0]!;
    expect(fenced(cli, 'sh')).toHaveLength(5);
  });

  it('names only npm scripts that exist (README and docs/)', () => {
    const named = new Set<string>();
    for (const doc of DOCS) for (const m of read(doc).matchAll(/\bnpm (?:run ([\w:-]+)|(start|test))\b/g)) named.add(m[1] ?? m[2]!);
    expect([...named]).toEqual(expect.arrayContaining(['start', 'test', 'test:unit', 'test:integration', 'test:e2e']));
    for (const s of named) expect(Object.keys(pkg.scripts), `npm run ${s}`).toContain(s);
  });

  it('every relative link of README.md and docs/*.md points at a file that exists, and an #anchor at a heading of it', () => {
    let links = 0;
    for (const doc of DOCS) {
      const text = prose(read(doc)).replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        links++;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, doc) : resolve(ROOT, dirname(doc), path);
        expect(existsSync(file), `${doc}: ${target}`).toBe(true);
        if (anchor && file.endsWith('.md')) expect([...anchorsOf(readFileSync(file, 'utf8'))], `${doc}: ${target}`).toContain(anchor);
      }
    }
    expect(links).toBeGreaterThan(30);
  });

  it('every repository file a doc names in code (`test/…`, `src/…`, `scripts/…`, …) exists', () => {
    let named = 0;
    for (const doc of DOCS) {
      for (const code of read(doc).matchAll(/`([^`\n]+)`/g)) {
        for (const m of code[1]!.matchAll(/(?:^|[\s(='"])((?:src|test|e2e|bench|scripts|docs)\/[\w./-]*\.(?:tsx?|mjs|js|sh|json|md|png))(?=$|[\s)'":,])/g)) {
          named++;
          expect(existsSync(join(ROOT, m[1]!)), `${doc}: \`${m[1]}\``).toBe(true);
        }
      }
    }
    expect(named).toBeGreaterThan(20);
  });
});

describe('recipes run as written', () => {
  const readmeRecipes = recipes(README);
  const cliRecipes = recipes(read('docs/cli.md'));

  it('finds them (the checks below cannot pass vacuously)', () => {
    expect(readmeRecipes).toHaveLength(5);
    expect(cliRecipes.length).toBeGreaterThanOrEqual(8);
    expect(cliRecipes.some((l) => l.includes('merge'))).toBe(true);
  });

  it('the README\'s five CLI lines, in order', () => {
    for (const line of readmeRecipes) runsAsWritten(line);
    const merged = readFileSync(join(tmp.dir, 'sweep.json'), 'utf8');
    expect(JSON.parse(merged).cells).toHaveLength(4);
    expect(JSON.parse(readFileSync(join(tmp.dir, 'result.json'), 'utf8')).claims).toHaveLength(5);
  }, 600_000);

  it('docs/cli.md\'s command examples, in order', () => {
    for (const line of cliRecipes) runsAsWritten(line);
    expect(readFileSync(join(tmp.dir, 'merged.json'), 'utf8')).toBe(readFileSync(join(tmp.dir, 'sweep.json'), 'utf8'));
  }, 600_000);
});

describe('seeupo-explorer COMMAND --help', () => {
  const commands = Object.keys(HELP) as Command[];

  it.each(commands)('%s: its own usage, every option it takes and an example', (command) => {
    const r = shell(`seeupo-explorer ${command} --help`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^usage:\\n  seeupo-explorer ${command} `));
    for (const other of commands.filter((c) => c !== command)) expect(r.stdout).not.toContain(`seeupo-explorer ${other} `.replace(/^/, '  '));
    for (const option of ALLOWED[command]) expect(r.stdout, `--${option}`).toContain(`--${option}`);
    expect(r.stdout).toContain(`example:\n  ${HELP[command].example}\n`);
  });

  it.each(commands)('%s: the example runs as written', (command) => {
    if (command === 'merge') runsAsWritten('seeupo-explorer sweep docs/examples/sweep.json --shard 1/2 --out shard-1.json');
    runsAsWritten(HELP[command].example);
  }, 300_000);
});
