// Bundles the Node entry points into dist/: the CLI and its worker thread as one CommonJS file
// each (dist/cli.js, dist/cpu-worker-bundle.js, which dist/cpu-worker.js runs; dist/package.json
// says they are CommonJS), the benchmark
// as ES modules (dist/bench.mjs and its chunks). Runs on `npm ci` (prepare) and before tests, so
// `npx seeupo-explorer` works with no build step.
//
// Why one CommonJS file for the CLI: start-up. The ES module loader resolves, stats and links every
// chunk, and Node 20 has no compile cache for modules (module.enableCompileCache is Node ≥ 22.1);
// bin/code-cache.js compiles each through node:vm with V8's code cache (dist/cli.js.cache and
// dist/cpu-worker-bundle.js.cache, made below by 1-iteration runs), so they are not compiled again
// each time.
// tfjs stays external and is required only when the tensor executor runs (esbuild inlines the
// dynamic import as a lazily initialized module).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// the bare 'fflate' (src/core/config/link-compress.ts) becomes src/cli/lazy-fflate.ts, which loads
// fflate's plain build on first use (its tables cost every start-up otherwise)
const lazyFflate = {
  name: 'lazy-fflate',
  setup(b) {
    b.onResolve({ filter: /^fflate$/ }, () => ({ path: fileURLToPath(new URL('../src/cli/lazy-fflate.ts', import.meta.url)) }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  external: ['@tensorflow/*'],
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [lazyFflate],
};

await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts', 'cpu-worker-bundle': 'src/exec/cpu/node-worker.ts' },
  outdir: 'dist',
  format: 'cjs',
  // less to parse and cache; stack traces map back through the source map (--enable-source-maps);
  // SEEUPO_MINIFY=0 keeps the names, for a readable node --cpu-prof profile
  minify: process.env.SEEUPO_MINIFY !== '0',
  // the sources locate the worker bundle from their own URL, made when first asked for (node:url
  // is not loaded by a run on one thread)
  define: { 'import.meta.url': '__seeupo_meta.url' },
  banner: { js: "var __seeupo_meta = { get url() { return require('url').pathToFileURL(__filename).href; } };" },
});
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
// the worker thread's entry: the worker bundle compiled with its code cache, as the CLI is (a
// worker's start-up is part of what a second thread must pay for, src/exec/cpu/work.ts)
writeFileSync(
  'dist/cpu-worker.js',
  "// made by scripts/build-node.mjs: runs cpu-worker-bundle.js with V8's code cache (bin/code-cache.js)\n" +
    "require('../bin/code-cache.js').runCached(require('node:path').join(__dirname, 'cpu-worker-bundle.js'), 'now');\n",
);


await build({
  ...common,
  entryPoints: { bench: 'bench/bench.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  splitting: true, // the tensor executor (and tfjs) load only when a section needs them
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

// the scalar implementation the benchmark compares with (bench/scalar), one file of its own
await build({ ...common, entryPoints: { scalar: 'bench/scalar/main.ts' }, outdir: 'dist', outExtension: { '.js': '.mjs' }, format: 'esm', plugins: [], alias: { fflate: 'fflate/browser' } });

// V8's code cache for the CLI and its worker thread, from short real runs (so the functions a
// run compiles are in it): on one thread for the CLI's, on two for the worker's
rmSync('dist/cli.js.cache', { force: true });
rmSync('dist/cpu-worker-bundle.js.cache', { force: true });
const dir = mkdtempSync(join(tmpdir(), 'seeupo-build-'));
try {
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ version: 1, env: { preset: 'lock' }, iterations: 1, seeds: 1 }));
  for (const threads of ['2', '1'])
    execFileSync(process.execPath, ['bin/seeupo-explorer.js', 'run', config, '--threads', threads, '--out', join(dir, 'result.json')], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, SEEUPO_CODE_CACHE: 'write' },
    });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
