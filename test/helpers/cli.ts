import { afterAll, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the CLI runs with this as its working directory). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'seeupo-explorer.js');
const DIST_CLI = join(ROOT, 'dist', 'cli.js');

function newestMtime(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, name.name);
    t = Math.max(t, name.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Build dist/ (scripts/build-node.mjs) when dist/cli.js is missing or older than src/. */
export function ensureBuilt(): void {
  if (existsSync(DIST_CLI) && statSync(DIST_CLI).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  const r = spawnSync(process.execPath, ['scripts/build-node.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node scripts/build-node.mjs failed (${r.status}): ${r.stderr}`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/seeupo-explorer.js ...args` from the repository root. */
export function cli(...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 << 20,
    // no TTY, no colours: the progress bar stays silent
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A scratch directory for input and output files. */
export function scratchDir(): { dir: string; file(name: string, content: unknown): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'seeupo-cli-test-'));
  return {
    dir,
    file(name, content) {
      const p = join(dir, name);
      writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
      return p;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * In a describe block (or a file): build the CLI once and give the tests a scratch folder,
 * removed afterwards. The returned object reads the current folder, so it is used like scratchDir's.
 */
export function useCliScratch(): { readonly dir: string; file(name: string, content: unknown): string } {
  let tmp: ReturnType<typeof scratchDir> | undefined;
  beforeAll(() => {
    ensureBuilt();
    tmp = scratchDir();
  }, 120_000);
  afterAll(() => tmp?.cleanup());
  return {
    get dir() {
      return tmp!.dir;
    },
    file: (name, content) => tmp!.file(name, content),
  };
}
