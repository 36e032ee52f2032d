import { defineConfig } from '@playwright/test';

// `npm run bench:browser`: the browser benchmark (not part of npm test), on its own port.
export default defineConfig({
  testDir: 'bench/browser',
  workers: 1,
  timeout: 1_500_000,
  reporter: 'list',
  use: { baseURL: 'http://localhost:4174', video: 'off', launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--enable-unsafe-webgpu'] } },
  webServer: { command: 'npx vite preview --port 4174 --strictPort', url: 'http://localhost:4174', reuseExistingServer: false, timeout: 60_000 },
});
