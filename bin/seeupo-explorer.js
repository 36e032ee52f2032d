#!/usr/bin/env node
// Runs the bundled CLI (dist/cli.js, one CommonJS file); builds it first if this checkout has not
// been built yet. Start-up: the bundle is compiled with V8's code cache (dist/cli.js.cache, written
// by the build and again whenever V8 rejects it: another Node version or V8 flags), so a short run
// does not spend its time compiling. SEEUPO_CODE_CACHE=off runs without the cache.
//
// This file is CommonJS (bin/package.json): an ES module entry makes Node start its ES module
// loader, and exposing node:fs to an ES module loads every stream class (fs.ReadStream's getter),
// a cost every run paid before doing anything (docs/architecture.md "Start-up").
'use strict';
const { existsSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

// Node ≥ 22.1 caches what its own module loaders compile (the worker bundle, tfjs); absent on Node 20
try {
  Module.enableCompileCache?.();
} catch {
  // a cache folder that cannot be made: run without it
}

const root = join(__dirname, '..');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) require('node:child_process').execFileSync(process.execPath, ['scripts/build-node.mjs'], { cwd: root, stdio: 'inherit' });

const mode = process.env.SEEUPO_CODE_CACHE;
if (mode === 'off') require(cli);
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
  wrapper.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dirname(file));
}
