// node scripts/iteration-ab.mjs [--ref REF] [--against REF|.] [--config default|lesson] [--seeds N] [--reps N]
//
// Paired A/B of the CPU executor's iteration on one thread (docs/architecture.md "Iteration A/B"):
// bundles CpuShard (src/exec/cpu/shard.ts) from a git ref (A, default 9e3ebb8, through a temporary
// `git worktree add`, removed after) and from the working tree (B, or another ref with --against),
// runs each whole experiment in this one process, A and B alternating (ABBA…) so that load on the
// machine falls on both alike, and prints the CPU time (process.cpuUsage: user + system) per
// run-iteration of each, the paired A/B ratios (median, range) and whether the two give the same
// bytes (a digest of every run's series).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repo = resolve(new URL('..', import.meta.url).pathname);
const opts = { ref: '9e3ebb8', against: '.', config: 'default', seeds: 16, reps: 15 };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const key = args[i].replace(/^--/, '');
  if (!(key in opts) || args[i + 1] === undefined) {
    console.error(`usage: node scripts/iteration-ab.mjs [--ref REF] [--against REF|.] [--config default|lesson] [--seeds N] [--reps N] (bad argument: ${args[i]})`);
    process.exit(2);
  }
  opts[key] = typeof opts[key] === 'number' ? Number(args[++i]) : args[++i];
}
for (const k of ['seeds', 'reps'])
  if (!Number.isInteger(opts[k]) || opts[k] < 1) {
    console.error(`--${k} must be a whole number ≥ 1`);
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
  return import(pathToFileURL(outfile).href);
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
  const A = await load(rootOf(opts.ref, 'a'), 'a');
  const B = await load(rootOf(opts.against, 'b'), 'b');
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
} finally {
  cleanUp();
}
