// npm test: type check, Node bundles, unit tests (vitest), browser tests (Playwright in
// Debian Chromium), then one closing line "tests: N passed, M failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = 'e2e-artifacts';
mkdirSync(out, { recursive: true });
const vitestJson = `${out}/vitest.json`;
const playwrightJson = `${out}/playwright.json`;
for (const f of [vitestJson, playwrightJson]) rmSync(f, { force: true });

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
function step(title, cmd, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

let passed = 0;
let failed = 0;
let ok = step('type check', npx, ['tsc', '--noEmit', '-p', 'tsconfig.json']);
ok = step('bundle the CLI', process.execPath, ['scripts/build-node.mjs']) && ok;
ok = step('unit tests (vitest)', npx, ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${vitestJson}`]) && ok;
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += (v.numFailedTests ?? 0) + (v.numTotalTests === 0 ? 1 : 0);
}
const chromium = step('Chromium for the browser tests', process.execPath, ['scripts/ensure-chromium.mjs']);
ok = chromium && ok;
if (chromium) {
  ok = step('build the app', npx, ['vite', 'build']) && ok;
  const e2e = step('browser tests (Playwright)', npx, ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson });
  ok = e2e && ok;
  if (existsSync(playwrightJson)) {
    const s = JSON.parse(readFileSync(playwrightJson, 'utf8')).stats ?? {};
    passed += s.expected ?? 0;
    failed += (s.unexpected ?? 0) + (s.flaky ?? 0);
  } else if (!e2e) failed += 1;
}
if (!ok && failed === 0) failed = 1; // a failed step that ran no test still fails
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
