// npm test: type check, Node bundles, the unit tier, the integration tier (vitest, two projects of
// vitest.config.ts), then the browser tests (Playwright in Debian Chromium); the time of each step,
// and one closing line "tests: N passed, M failed". docs/testing.md describes the tiers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = 'e2e-artifacts';
mkdirSync(out, { recursive: true });
const reports = { unit: `${out}/vitest-unit.json`, integration: `${out}/vitest-integration.json`, e2e: `${out}/playwright.json` };
for (const f of Object.values(reports)) rmSync(f, { force: true });

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const times = [];
function step(title, cmd, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  times.push([title, (performance.now() - t0) / 1000, r.status === 0]);
  return r.status === 0;
}

let passed = 0;
let failed = 0;
/** Add a vitest JSON report's counts; a tier that ran no test counts as one failure. */
function countVitest(file) {
  if (!existsSync(file)) return false;
  const v = JSON.parse(readFileSync(file, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += (v.numFailedTests ?? 0) + (v.numTotalTests === 0 ? 1 : 0);
  return true;
}

let ok = step('type check', npx, ['tsc', '--noEmit', '-p', 'tsconfig.json']);
ok = step('bundle the CLI', process.execPath, ['scripts/build-node.mjs']) && ok;
for (const tier of ['unit', 'integration']) {
  const ran = step(`${tier} tests (vitest --project ${tier})`, npx, ['vitest', 'run', '--project', tier, '--reporter=default', '--reporter=json', `--outputFile=${reports[tier]}`]);
  ok = ran && ok;
  if (!countVitest(reports[tier]) && !ran) failed += 1;
}
const chromium = step('Chromium for the browser tests', process.execPath, ['scripts/ensure-chromium.mjs']);
ok = chromium && ok;
if (chromium) {
  ok = step('build the app', npx, ['vite', 'build']) && ok;
  const e2e = step('browser tests (Playwright)', npx, ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: reports.e2e });
  ok = e2e && ok;
  if (existsSync(reports.e2e)) {
    const s = JSON.parse(readFileSync(reports.e2e, 'utf8')).stats ?? {};
    passed += s.expected ?? 0;
    failed += (s.unexpected ?? 0) + (s.flaky ?? 0);
  } else if (!e2e) failed += 1;
}
if (!ok && failed === 0) failed = 1; // a failed step that ran no test still fails
console.log('\ntimes:');
for (const [title, s, good] of times) console.log(`  ${good ? '✓' : '✗'} ${title.padEnd(48)} ${s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${s.toFixed(1)} s`}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
