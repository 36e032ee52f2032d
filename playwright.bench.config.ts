import { defineConfig } from '@playwright/test';

// PW_PORT (default 4174) lets two checkouts run benchmarks at once without sharing a preview server.
const port = Number(process.env.PW_PORT ?? 4174);

// `npm run bench:browser`: the browser benchmark (not part of npm test), on its own port.
export default defineConfig({
  testDir: 'bench/browser',
  workers: 1,
  timeout: 1_500_000,
  reporter: 'list',
  use: { baseURL: `http://localhost:${port}`, video: 'off', launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--enable-unsafe-webgpu'] } },
  // BENCH_DIST: serve another build than dist-web (e.g. to compare two builds)
  webServer: {
    command: `npx vite preview --port ${port} --strictPort${process.env.BENCH_DIST ? ` --outDir ${process.env.BENCH_DIST}` : ''}`,
    url: `http://localhost:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
