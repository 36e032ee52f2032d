// Runs a bundled CommonJS file (dist/cli.js, dist/cpu-worker-bundle.js) as require() would, but
// compiled with V8's code cache (FILE.cache beside it): a short run does not spend its time
// compiling. The cache is written by the build (scripts/build-node.mjs, a short real run with
// SEEUPO_CODE_CACHE=write) and again whenever V8 rejects it (another Node version, other V8
// flags); SEEUPO_CODE_CACHE=off runs without it.
'use strict';
const { isAscii } = require('node:buffer');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname } = require('node:path');
const { Script } = require('node:vm');

/**
 * Run `file`. `writeAt`: when a missing or rejected cache (or SEEUPO_CODE_CACHE=write) is
 * written, "exit" (after the process's work, so the functions it compiled are in the cache) or
 * "now" (right after the file ran: a worker thread, whose work is done by then and which its
 * parent ends without an exit event).
 */
function runCached(file, writeAt = 'exit') {
  const mode = process.env.SEEUPO_CODE_CACHE;
  if (mode === 'off') return void require(file);
  const cacheFile = file + '.cache';
  const forceWrite = mode === 'write';
  let cachedData;
  if (!forceWrite) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // a bundle is ASCII (esbuild escapes the rest; an unminified one keeps comments as written):
  // then latin1 reads it exactly, straight into a one-byte string
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.latin1Slice() : bytes.toString('utf8');
  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const save = () => {
    // to a temporary name first, so a process starting meanwhile never reads half a file
    try {
      const tmp = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(tmp, wrapper.createCachedData());
      renameSync(tmp, cacheFile);
    } catch {
      // a read-only install: run without a cache
    }
  };
  const write = forceWrite || !cachedData || wrapper.cachedDataRejected;
  if (write && writeAt === 'exit') process.once('exit', save);
  const mod = { exports: {}, filename: file, id: file, loaded: false };
  wrapper.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  if (write && writeAt === 'now') save();
}

module.exports = { runCached };
