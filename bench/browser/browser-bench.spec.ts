// npm run bench:browser — in headless Chromium, for the default experiment (lock, sampled, 16 seeds,
// 9 algorithms, G = 8, 200 iterations):
// 1. responsiveness over BENCH_RUNS (default 5) runs on fresh pages: ms from the click on Run to
//    the first points on the return chart, and main-thread long tasks (> 50 ms) until the end;
// 2. ms per iteration on every executor and tfjs backend the page offers (the tabular default,
//    and an MLP policy on the tensor executor): the difference of two runs of different lengths,
//    so worker start, backend init and the first read cancel out. A backend the browser cannot
//    give (the run fell back to another) is listed as unavailable, with the badge's reason.
// BENCH_SPEED=0 skips part 2; BENCH_DIST (playwright.bench.config.ts) serves another build.
import { loadavg } from 'node:os';
import { test, type Page } from '@playwright/test';
import { configure, type Settings } from '../../e2e/helpers';
import { median, table, timedRun, watchRun, type Responsiveness } from './measure';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ITERATIONS = 200;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

async function freshPage(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByTestId('chart-heatmap').waitFor(); // every chart mounted
  await page.waitForTimeout(500);
}

interface Speed {
  what: string;
  ms: number | null;
  runs: string;
  note: string;
}

async function perIteration(page: Page, s: Settings, what: string): Promise<Speed> {
  const run = async (iterations: number) => {
    await freshPage(page);
    await configure(page, { ...s, iterations });
    return timedRun(page, iterations);
  };
  const short = await run(2);
  if (s.executor === 'tensor' && short.backend !== s.backend)
    return { what, ms: null, runs: '', note: `unavailable: ran on ${short.backend} instead (${short.why.trim()})` };
  const mid = await run(12);
  // a last run of about 6 s of iterations when the estimate allows it
  const estimate = Math.max(0.05, (mid.ms - short.ms) / 10);
  const n = Math.min(ITERATIONS, Math.max(12, Math.round(6000 / estimate)));
  const long = n >= 24 ? await run(n) : mid;
  const iterations = n >= 24 ? n : 12;
  return { what, ms: (long.ms - short.ms) / (iterations - 2), runs: `2, ${iterations}`, note: long.label.trim() };
}

async function measureSpeeds(page: Page, speeds: Speed[]): Promise<void> {
  await freshPage(page);
  const backends = (await page.getByTestId('field-backend').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter(
    (v) => v !== 'auto',
  );
  speeds.push(await perIteration(page, { executor: 'cpu' }, 'CPU executor · tabular'));
  console.log(`${speeds[0].what}: ${speeds[0].ms?.toFixed(2)} ms/iteration`);
  for (const policy of ['tabular', 'mlp'] as const)
    for (const backend of backends as NonNullable<Settings['backend']>[]) {
      speeds.push(await perIteration(page, { executor: 'tensor', backend, policy }, `tensor ${backend} · ${policy}`));
      const s = speeds[speeds.length - 1];
      console.log(`${s.what}: ${s.ms === null ? s.note : `${s.ms.toFixed(2)} ms/iteration`}`);
    }
}

test('browser benchmark', async ({ page }) => {
  test.setTimeout(1_500_000);
  const loadBefore = load();

  const watched: Responsiveness[] = [];
  for (let r = 0; r < RUNS; r++) {
    await freshPage(page);
    watched.push(await watchRun(page, ITERATIONS));
    const w = watched[watched.length - 1];
    console.log(`responsiveness run ${r + 1}: first points ${w.first.toFixed(0)} ms, long tasks ${JSON.stringify(w.tasks)}`);
  }

  const speeds: Speed[] = [];
  if (process.env.BENCH_SPEED !== '0') await measureSpeeds(page, speeds);

  const longest = watched.map((w) => w.tasks.reduce((m, [, d]) => Math.max(m, d), 0));
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '—');
  console.log(`\nBrowser benchmark, headless Chromium (${RUNS} runs; load average before ${loadBefore}, after ${load()})\n`);
  console.log('Responsiveness: press Run on a fresh page (default experiment, 200 iterations)');
  console.log(
    table(
      ['run', 'first points ms', 'first segment ms', 'run ms', 'long tasks', 'longest task ms'],
      [
        ...watched.map((w, i) => [String(i + 1), f(w.first), f(w.firstLine), f(w.done), w.tasks.length, f(longest[i])]),
        ['median', f(median(watched.map((w) => w.first))), f(median(watched.map((w) => w.firstLine))), f(median(watched.map((w) => w.done))),
          median(watched.map((w) => w.tasks.length)), f(median(longest))],
        ['max', f(Math.max(...watched.map((w) => w.first))), f(Math.max(...watched.map((w) => w.firstLine))), f(Math.max(...watched.map((w) => w.done))),
          Math.max(...watched.map((w) => w.tasks.length)), f(Math.max(...longest))],
      ],
    ),
  );
  if (speeds.length === 0) return;
  console.log('\nSpeed: ms per iteration (default experiment; the MLP rows change only the policy)');
  console.log(table(['executor · backend · policy', 'ms/iteration', 'runs (iterations)', 'ran on / note'], speeds.map((s) => [s.what, s.ms === null ? '—' : s.ms.toFixed(2), s.runs, s.note]), [0, 3]));
});
