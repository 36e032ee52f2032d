// npm run bench:browser — the tensor executor's ms per iteration in headless Debian Chromium for
// every tfjs backend, tabular and MLP, at 16 and 256 seeds (default experiment otherwise), and
// the CPU executor's for comparison. Per-iteration time = the difference of two runs of
// different lengths (worker start, backend init and the first read cancel out).
import { test } from '@playwright/test';
import { configure, runToEnd, type Settings } from '../../e2e/helpers';

const rows: string[] = [];

async function perIteration(page: import('@playwright/test').Page, s: Settings, short: number, long: number): Promise<number> {
  const times: number[] = [];
  for (const iterations of [short, long]) {
    await page.goto('/');
    await configure(page, { ...s, iterations });
    times.push(await runToEnd(page, iterations, 600_000));
  }
  return ((times[1] - times[0]) * 1000) / (long - short);
}

test('browser benchmark', async ({ page }) => {
  test.setTimeout(1_500_000);
  for (const seeds of [16, 256]) {
    const [short, long] = seeds > 16 ? [1, 3] : [2, 12];
    rows.push(`cpu executor  tabular  ${String(seeds).padStart(4)}  ${(await perIteration(page, { executor: 'cpu', seeds }, short, long)).toFixed(1).padStart(9)}`);
    for (const backend of ['wasm', 'webgl', 'webgpu', 'cpu'] as const)
      for (const policy of ['tabular', 'mlp'] as const) {
        const ms = await perIteration(page, { executor: 'tensor', backend, policy, seeds }, short, long);
        rows.push(`tensor ${backend.padEnd(6)} ${policy.padEnd(8)} ${String(seeds).padStart(4)}  ${ms.toFixed(1).padStart(9)}`);
        console.log(rows[rows.length - 1]);
      }
  }
  console.log('\nms per iteration, default experiment (9 algorithms, sampled lock, G = 8), headless Chromium');
  console.log('executor      policy   seeds  ms/iter');
  for (const r of rows) console.log(r);
});
