#!/usr/bin/env node
// Runs the bundled CLI; builds it first if this checkout has not been built yet.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) execFileSync(process.execPath, ['scripts/build-node.mjs'], { cwd: root, stdio: 'inherit' });
await import(cli.href);
