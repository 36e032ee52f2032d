// node scripts/iteration-ab.mjs [--ref REF] [--against REF|.] [--config default|lesson] [--seeds N] [--reps N] [--instructions W]
//
// Paired A/B of the CPU executor's iteration on one thread (docs/architecture.md "Iteration A/B"):
// bundles CpuShard (src/exec/cpu/shard.ts) from a git ref (A, default 9e3ebb8, through a temporary
// `git worktree add`, removed after) and from the working tree (B, or another ref with --against),
// runs each whole experiment in this one process, A and B alternating (ABBA…) so that load on the
// machine falls on both alike, and prints the CPU time (process.cpuUsage: user + system) per
// run-iteration of each, the paired A/B ratios (median, range) and whether the two give the same
// bytes (a digest of every run's series).
//
// --instructions W (W ≥ 1; needs valgrind): instead of timing, counts the instructions of one whole
// run of the experiment after W runs that warm the JIT, each side in its own process under
// callgrind (node --single-threaded, so no compiler thread runs beside it), per run-iteration.
// Deterministic to a few in 10⁵ where CPU time on a loaded machine moves by tens of percent; slow
// (about a minute per side at --seeds 2).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repo = resolve(new URL('..', import.meta.url).pathname);
const opts = { ref: '9e3ebb8', against: '.', config: 'default', seeds: 16, reps: 15, instructions: 0 };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const key = args[i].replace(/^--/, '');
  if (!(key in opts) || args[i + 1] === undefined) {
    console.error(`usage: node scripts/iteration-ab.mjs [--ref REF] [--against REF|.] [--config default|lesson] [--seeds N] [--reps N] [--instructions W] (bad argument: ${args[i]})`);
    process.exit(2);
  }
  opts[key] = typeof opts[key] === 'number' ? Number(args[++i]) : args[++i];
}
for (const k of ['seeds', 'reps', 'instructions'])
  if (!Number.isInteger(opts[k]) || opts[k] < (k === 'instructions' ? 0 : 1)) {
    console.error(`--${k} must be a whole number ≥ ${k === 'instructions' ? 0 : 1}`);
    process.exit(2);
  }

const nine = ['reinforce', 'rloo', 'grpo', 'ppo-grae', 'gspo', 'ppo-gae', 'seeupo', 'seeupo-forward', 'seeupo-random'].map((id) => ({ id }));
const CONFIGS = {
  // the default experiment (src/core/config/defaults.ts): 9 algorithms, sampled lock, G = 8, 200 iterations
  default: { version: 1, env: { preset: 'lock' }, seeds: opts.seeds, iterations: 200, algorithms: nine },
  // a lesson-sized exact-mode experiment: 2 algorithms of 20 epochs each, 30 iterations
  lesson: {
    version: 1,
    env: { preset: 'lock' },
    policy: { kind: 'tabular', initScale: 2 },
    mode: 'exact',
    iterations: 30,
    seeds: opts.seeds,
    optimizer: { kind: 'sgd', lr: 100 },
    algorithms: [
      { id: 'ppo-grae', epochs: 20 },
      { id: 'ppo-gae', normalization: 'none', epochs: 20 },
    ],
  },
};
const config = CONFIGS[opts.config];
if (!config) {
  console.error(`--config must be one of ${Object.keys(CONFIGS).join(', ')}`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'iteration-ab-'));
const worktrees = [];
const git = (...a) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8' }).trim();

/** The source root of `ref`: the working tree for '.', else a temporary worktree of that commit. */
function rootOf(ref, name) {
  if (ref === '.') return repo;
  const dir = join(work, name);
  git('worktree', 'add', '--detach', '--quiet', dir, git('rev-parse', '--verify', `${ref}^{commit}`));
  worktrees.push(dir);
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Bundles a small entry over `root`'s CpuShard into one ES module and imports it. */
async function load(root, name) {
  const src = (p) => JSON.stringify(join(root, 'src', p));
  const entry = join(work, `${name}-entry.ts`);
  writeFileSync(
    entry,
    `import { resolveConfig } from ${src('core/config/resolve')};
import { allRuns } from ${src('core/run/partition')};
import { CpuShard } from ${src('exec/cpu/shard')};
export function makeShard(config: unknown) { const exp = resolveConfig(config as never); return new CpuShard(exp, allRuns(exp)); }
`,
  );
  const outfile = join(work, `${name}.mjs`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', external: ['@tensorflow/*'], logLevel: 'warning', outfile });
  return { lib: await import(pathToFileURL(outfile).href), outfile };
}

/** Instructions of one run of the experiment after `warm` runs, in a process of its own under callgrind. */
function instructionsOf(outfile, name, warm) {
  const child = join(work, 'instructions.mjs');
  writeFileSync(
    child,
    `const lib = await import(process.argv[2]);
const config = JSON.parse(process.argv[3]);
for (let r = 0; r < Number(process.argv[4]); r++) { const s = lib.makeShard(config); while (!s.done) s.step(); }
const s = lib.makeShard(config);
process.cpuUsage(); // callgrind dumps its counts before this call and before the next: the second dump is the run alone
while (!s.done) s.step();
process.cpuUsage();
`,
  );
  const out = join(work, `${name}.callgrind`);
  execFileSync('valgrind', ['--tool=callgrind', '--dump-before=node::CPUUsage*', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', child, pathToFileURL(outfile).href, JSON.stringify(config), String(warm)], { stdio: 'ignore' });
  const dump = `${out}.2`;
  if (!existsSync(dump)) throw new Error('callgrind made no dump at process.cpuUsage (node::CPUUsage): another Node build?');
  const m = /^summary:\s+(\d+)/m.exec(readFileSync(dump, 'utf8'));
  if (!m) throw new Error(`no summary line in ${dump}`);
  return Number(m[1]);
}

/** A digest of every run's series: the bytes of each stored metric. */
function digest(shard) {
  const h = createHash('sha256');
  for (const s of shard.series) {
    h.update(JSON.stringify([s.algoIndex, s.seedIndex, s.diverged]));
    const arrays = [s.J, s.entropy, s.kl, s.clipFraction, s.zeroVarianceGroups, s.gradNorm, ...s.optimalTokenProb, ...s.Jcontext, ...(s.Jgamma ? [s.Jgamma] : [])];
    for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  return h.digest('hex').slice(0, 16);
}

/** CPU ms of one whole experiment (construction excluded). */
function once(lib, keep) {
  const shard = lib.makeShard(config);
  const t0 = process.cpuUsage();
  while (!shard.done) shard.step();
  const u = process.cpuUsage(t0);
  if (keep) keep.digest = digest(shard);
  return (u.user + u.system) / 1000;
}

function cleanUp() {
  for (const dir of worktrees.splice(0)) git('worktree', 'remove', '--force', dir);
  if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

const med = (x) => [...x].sort((a, b) => a - b)[x.length >> 1];
try {
  const describe = (ref) => (ref === '.' ? `working tree (${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src') ? ' + changes' : ''})` : `${ref} (${git('rev-parse', '--short', `${ref}^{commit}`)})`);
  const [nameA, nameB] = [describe(opts.ref), describe(opts.against)];
  const { lib: A, outfile: fileA } = await load(rootOf(opts.ref, 'a'), 'a');
  const { lib: B, outfile: fileB } = await load(rootOf(opts.against, 'b'), 'b');
  const runIterations = config.algorithms.length * config.seeds * config.iterations;
  if (opts.instructions > 0) {
    const [ia, ib] = [instructionsOf(fileA, 'a', opts.instructions), instructionsOf(fileB, 'b', opts.instructions)];
    const per = (n) => Math.round(n / runIterations).toLocaleString('en-US');
    console.log(`${opts.config} experiment: ${runIterations / config.iterations} runs × ${config.iterations} iterations, one run after ${opts.instructions} warm-up runs, callgrind`);
    console.log(`A ${nameA}: ${per(ia)} instructions per run-iteration`);
    console.log(`B ${nameB}: ${per(ib)} instructions per run-iteration`);
    console.log(`A/B ${(ia / ib).toFixed(3)}`);
  } else timed(A, B, nameA, nameB);
} finally {
  cleanUp();
}

/** The paired CPU-time comparison. */
function timed(A, B, nameA, nameB) {
  const da = {};
  const db = {};
  once(A, da); // warm-up (JIT), and the results compared
  once(B, db);
  const ta = [];
  const tb = [];
  for (let r = 0; r < opts.reps; r++) {
    if (r % 2) {
      tb.push(once(B));
      ta.push(once(A));
    } else {
      ta.push(once(A));
      tb.push(once(B));
    }
  }
  const runs = config.algorithms.length * config.seeds;
  const perRunIteration = (ms) => (ms * 1000) / (runs * config.iterations);
  const ratios = ta.map((a, i) => a / tb[i]);
  const us = (ms) => perRunIteration(ms).toFixed(2);
  console.log(`${opts.config} experiment: ${runs} runs × ${config.iterations} iterations, ${opts.reps} pairs (alternating, one process, one thread), CPU time`);
  console.log(`A ${nameA}: median ${us(med(ta))} µs per run-iteration (range ${us(Math.min(...ta))}–${us(Math.max(...ta))})`);
  console.log(`B ${nameB}: median ${us(med(tb))} µs per run-iteration (range ${us(Math.min(...tb))}–${us(Math.max(...tb))})`);
  console.log(`A/B paired median ratio ${med(ratios).toFixed(3)} (range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`);
  console.log(`results: ${da.digest === db.digest ? `identical (digest ${da.digest})` : `DIFFER (A ${da.digest}, B ${db.digest})`}`);
  if (da.digest !== db.digest) process.exitCode = 1;
}
