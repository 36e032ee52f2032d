#!/usr/bin/env node
// Make sure a Chromium binary exists for the Playwright tests (Playwright's own download host is
// not reachable here, so tests launch the system Chromium). Installs it with apt when we can.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const HINT =
  'Chromium is needed for the browser tests: run `sudo apt-get install -y chromium` (Debian/Ubuntu) or set CHROMIUM_PATH to a Chromium binary';

if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const isDebian = existsSync('/etc/debian_version');
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;

if (isRoot && isDebian && hasApt) {
  console.error(`${path} not found: installing chromium with apt-get`);
  const run = (args) => spawnSync('apt-get', args, { stdio: 'inherit' }).status === 0;
  if (run(['update']) && run(['install', '-y', '--no-install-recommends', 'chromium']) && existsSync(path)) process.exit(0);
  console.error(`apt-get did not provide ${path}`);
}

console.error(HINT);
process.exit(1);
