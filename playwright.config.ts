import { defineConfig } from '@playwright/test';

// Browser tests run against the built page (`vite build` first, see the test:e2e script) served by
// `vite preview`. Chromium comes from the system (scripts/ensure-chromium.mjs); never `playwright install`.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// PW_PORT lets two checkouts run their browser tests at once without sharing a preview server.
const port = Number(process.env.PW_PORT ?? 4173);

// One spec file at a time by default (PW_WORKERS=2 runs two): two workers were not reliably
// faster on a 2-core machine (docs/testing.md has the numbers).
const workers = Number(process.env.PW_WORKERS ?? 1);

export default defineConfig({
  testDir: 'e2e',
  workers,
  retries: 0,
  // Caps, never waits: every assertion waits on the page's state and returns as soon as it holds.
  // A loaded 2-core machine (two `npm test` at once) makes a first Step take seconds, so an
  // assertion may wait up to 30 s (Playwright's default is 5 s) and a test up to 4 minutes.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  outputDir: 'test-results',
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: `http://localhost:${port}`,
    video: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      // WebGPU on: without a GPU, Chromium gives SwiftShader's software adapter.
      name: 'webgpu',
      testIgnore: /no-webgpu\.spec\.ts$/,
      use: { launchOptions: { executablePath, args: ['--enable-unsafe-webgpu'] } },
    },
    {
      // Chromium without the flag: navigator.gpu exists but returns no adapter.
      name: 'no-webgpu',
      testMatch: /no-webgpu\.spec\.ts$/,
      use: { launchOptions: { executablePath, args: [] } },
    },
  ],
  webServer: {
    command: `npx vite preview --port ${port} --strictPort`,
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
