#!/usr/bin/env node
// Runs the bundled CLI (dist/cli.js, one CommonJS file) compiled with V8's code cache
// (bin/code-cache.js); builds it first if this checkout has not been built yet.
//
// This file is CommonJS (bin/package.json): an ES module entry makes Node start its ES module
// loader, and exposing node:fs to an ES module loads every stream class (fs.ReadStream's getter),
// a cost every run paid before doing anything (docs/architecture.md "Start-up").
'use strict';
const { existsSync } = require('node:fs');
const Module = require('node:module');
const { join } = require('node:path');

// Node ≥ 22.1 caches what its own module loaders compile (tfjs); absent on Node 20
try {
  Module.enableCompileCache?.();
} catch {
  // a cache folder that cannot be made: run without it
}

const root = join(__dirname, '..');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) require('node:child_process').execFileSync(process.execPath, ['scripts/build-node.mjs'], { cwd: root, stdio: 'inherit' });

require('./code-cache.js').runCached(cli);
