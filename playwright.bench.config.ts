import { defineConfig } from '@playwright/test';

// `npm run bench:browser`: the browser benchmark (not part of npm test), on its own port.
export default defineConfig({
  testDir: 'bench/browser',
  workers: 1,
  timeout: 1_500_000,
  reporter: 'list',
  use: { baseURL: 'http://localhost:4174', video: 'off', launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--enable-unsafe-webgpu'] } },
  // BENCH_DIST: serve another build than dist-web (e.g. to compare two builds)
  webServer: {
    command: `npx vite preview --port 4174 --strictPort${process.env.BENCH_DIST ? ` --outDir ${process.env.BENCH_DIST}` : ''}`,
    url: 'http://localhost:4174',
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
