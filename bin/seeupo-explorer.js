#!/usr/bin/env node
// Runs the bundled CLI (dist/cli.js, one CommonJS file); builds it first if this checkout has not
// been built yet. Start-up: the bundle is compiled with V8's code cache (dist/cli.js.cache, written
// by the build and again whenever V8 rejects it: another Node version or V8 flags), so a short run
// does not spend its time compiling. SEEUPO_CODE_CACHE=off runs without the cache.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

// Node ≥ 22.1 caches what its own module loaders compile (the worker bundle, tfjs); absent on Node 20
try {
  module.enableCompileCache?.();
} catch {
  // a cache folder that cannot be made: run without it
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  const { execFileSync } = await import('node:child_process');
  execFileSync(process.execPath, ['scripts/build-node.mjs'], { cwd: root, stdio: 'inherit' });
}

const mode = process.env.SEEUPO_CODE_CACHE;
if (mode === 'off') createRequire(import.meta.url)(cli);
else runCached(cli, cli + '.cache', mode === 'write');

/** Run a CommonJS file as require() would, compiled with (and, when missing or rejected, saving) V8's code cache. */
function runCached(file, cacheFile, forceWrite) {
  let cachedData;
  if (!forceWrite) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const source = readFileSync(file, 'utf8');
  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  if (forceWrite || !cachedData || wrapper.cachedDataRejected) {
    // after the run, so the functions it compiled are in the cache; to a temporary name first,
    // so a process starting meanwhile never reads half a file
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, wrapper.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // a read-only install: run without a cache
      }
    });
  }
  const mod = { exports: {}, filename: file, id: file, loaded: false };
  wrapper.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
}
