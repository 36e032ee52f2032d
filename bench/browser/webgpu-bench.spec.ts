import { test, type Page } from '@playwright/test';
import { median, table, timedRun } from './measure';

// `npm run bench:browser` (part 3, BENCH_WEBGPU=0 skips it): ms per iteration of the WebGPU
// executor (whole exact-mode iterations in WGSL), the tfjs tensor executor on webgpu and the CPU
// executor, in the same browser session, on exact-mode `lock` with 144, 2,304 and 16,384 runs
// (8 or 16 algorithms the WebGPU executor runs × seeds). Each figure is (t(n) − t(2)) / (n − 2)
// from two runs to the end, so start-up (workers, device, pipeline) drops out.

const PRESETS = ['reinforce', 'rloo', 'grpo', 'ppo-grae', 'gspo', 'seeupo', 'seeupo-forward', 'grpo'];

/** A permalink for `algorithms` algorithms (copies named by preset) × `seeds` seeds on exact `lock`. */
function link(algorithms: number, seeds: number, executor: string, backend?: string): string {
  const pairs = [`env.preset=lock`, `mode=exact`, `seeds=${seeds}`, `executor=${executor}`];
  if (backend) pairs.push(`backend=${backend}`);
  for (let i = 0; i < algorithms; i++) {
    const preset = PRESETS[i % PRESETS.length]!;
    pairs.push(`algorithms.${i}.id=${preset}-${i}`, `algorithms.${i}.preset=${preset}`);
  }
  return pairs.join('&');
}

async function timed(page: Page, base: string, iterations: number) {
  await page.goto(`/#v=1&${base}&iterations=${iterations}`);
  await page.getByTestId('run').waitFor();
  return timedRun(page, iterations, 1_200_000);
}

async function perIteration(page: Page, base: string, n: number): Promise<{ ms: number; label: string }> {
  const short = await timed(page, base, 2);
  const long = await timed(page, base, n);
  return { ms: (long.ms - short.ms) / (n - 2), label: long.label.trim() };
}

test('WebGPU executor: the default sampled experiment', async ({ page }) => {
  test.skip(process.env.BENCH_WEBGPU === '0', 'BENCH_WEBGPU=0');
  test.setTimeout(1_200_000);
  // paired: each pair times both executors back to back in this browser session (the order
  // alternating), so a change of the machine's load between pairs affects both sides of a ratio
  const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
  const rows: (string | number)[][] = [];
  const ratios: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const ms: Record<string, { ms: number; label: string }> = {};
    for (const executor of i % 2 === 0 ? ['webgpu', 'cpu'] : ['cpu', 'webgpu']) ms[executor] = await perIteration(page, `executor=${executor}`, 402);
    ratios.push(ms.webgpu!.ms / ms.cpu!.ms);
    rows.push([String(i + 1), ms.webgpu!.ms.toFixed(2), ms.cpu!.ms.toFixed(2), ratios[i]!.toFixed(2)]);
    console.log(`pair ${i + 1}: WebGPU ${ms.webgpu!.ms.toFixed(2)}, CPU ${ms.cpu!.ms.toFixed(2)} ms/iteration (${ms.webgpu!.label}; ${ms.cpu!.label})`);
  }
  console.log(`\nThe default experiment (sampled lock, 9 algorithms × 16 seeds, G = 8): ms per iteration, ${PAIRS} pairs`);
  console.log(table(['pair', 'WebGPU executor', 'CPU executor', 'WebGPU / CPU'], rows));
  console.log(`WebGPU / CPU, median of ${PAIRS} pairs: ${median(ratios).toFixed(2)}× (range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; target on SwiftShader: within 2×)`);
});

test('WebGPU executor benchmark', async ({ page }) => {
  test.skip(process.env.BENCH_WEBGPU === '0', 'BENCH_WEBGPU=0');
  test.setTimeout(3_000_000);
  const rows: (string | number)[][] = [];
  const sizes: [number, number][] = [[8, 18], [8, 288], [16, 1024]];
  let tensorSlow = false;
  for (const [algorithms, seeds] of sizes) {
    const runs = algorithms * seeds;
    for (const [what, executor, backend] of [['WebGPU executor (WGSL)', 'webgpu'], ['tensor executor · tfjs webgpu', 'tensor', 'webgpu'], ['CPU executor (workers)', 'cpu']] as const) {
      if (executor === 'tensor' && tensorSlow) {
        rows.push([runs.toLocaleString('en-US'), what, '—', 'skipped: over 2 s per iteration at the size before']);
        continue;
      }
      const n = executor === 'tensor' ? 6 : runs > 4000 ? 22 : runs < 1000 ? 402 : 42; // more iterations where one is short: the difference must stand out of start-up noise
      const r = await perIteration(page, link(algorithms, seeds, executor, backend), n);
      if (executor === 'tensor' && r.ms > 2000) tensorSlow = true;
      rows.push([runs.toLocaleString('en-US'), what, r.ms.toFixed(2), r.label]);
      console.log(`${runs} runs, ${what}: ${r.ms.toFixed(2)} ms/iteration (${r.label})`);
    }
  }
  console.log('\nWebGPU executor: ms per iteration, exact-mode lock (3 turns, V = 3), same browser session');
  console.log(table(['runs', 'executor', 'ms/iteration', 'ran on'], rows, [1, 3]));
  console.log('Dispatches and read backs: one of each per dispatch of K iterations, K sized to about 100 ms (READBACK_MS; test/webgpu-shard.test.ts bounds them).');
});

test('WebGPU executor: the shared MLP', async ({ page }) => {
  test.skip(process.env.BENCH_WEBGPU === '0', 'BENCH_WEBGPU=0');
  test.setTimeout(1_800_000);
  const rows: (string | number)[][] = [];
  // sampled lock with the default MLP (one layer of 32, tanh): 9 algorithms × 16 seeds, then × 256 seeds
  let tfjsWebgpuSlow = false;
  for (const seeds of [16, 256]) {
    for (const [what, executor, backend] of [['WebGPU executor (WGSL)', 'webgpu'], ['tensor executor · tfjs wasm', 'tensor', 'wasm'], ['tensor executor · tfjs webgpu', 'tensor', 'webgpu']] as const) {
      if (backend === 'webgpu' && tfjsWebgpuSlow) {
        rows.push([(9 * seeds).toLocaleString('en-US'), what, '—', 'skipped: over 2 s per iteration at the size before (SwiftShader: 3.2 s at 144 runs, 45.8 s at 2,304)']);
        continue;
      }
      const base = `policy.kind=mlp&seeds=${seeds}&executor=${executor}${backend ? `&backend=${backend}` : ''}`;
      const n = backend === 'webgpu' ? 7 : seeds > 16 ? 12 : 62; // enough iterations that the difference stands out of start-up noise
      const r = await perIteration(page, base, n);
      if (backend === 'webgpu' && r.ms > 2000) tfjsWebgpuSlow = true;
      rows.push([(9 * seeds).toLocaleString('en-US'), what, r.ms.toFixed(2), r.label]);
      console.log(`MLP, ${9 * seeds} runs, ${what}: ${r.ms.toFixed(2)} ms/iteration (${r.label})`);
    }
  }
  console.log('\nThe shared MLP (sampled lock, [32] tanh, G = 8): ms per iteration, same browser session');
  console.log(table(['runs', 'executor', 'ms/iteration', 'ran on'], rows, [1, 3]));
});
