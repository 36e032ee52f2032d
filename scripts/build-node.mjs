// Bundles the Node entry points (CLI, its worker thread, the benchmark) into dist/.
// Runs on `npm ci` (prepare) and before tests, so `npx seeupo-explorer` works with no build step.
import { build } from 'esbuild';

await build({
  entryPoints: {
    cli: 'src/cli/main.ts',
    'cpu-worker': 'src/exec/cpu/node-worker.ts',
    bench: 'bench/bench.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true, // the tensor executor (and tfjs) load only when a run needs them
  external: ['@tensorflow/*'],
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
