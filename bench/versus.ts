// The `versus` rows of `npm run bench` (goal: ≥ 5× a straightforward implementation at every
// size, start-up and the written result included): this project's CLI (`node
// bin/seeupo-explorer.js run CONFIG --out FILE`, its default threads) against the scalar float64
// implementation (`node dist/scalar.mjs CONFIG`, bench/scalar: one run at a time, plain objects
// and arrays, prints a summary) on the default sampled experiment (9 algorithms, 200 iterations,
// G = 8) at 16, 64 and 256 seeds. Whole processes, paired and alternating, median of 5 (wall);
// on Linux also the CPU time of each (user + system, every thread). VERSUS_SEEDS=16,64 and
// VERSUS_REPS=3 shorten it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';

const root = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU seconds of this process's finished children (Linux /proc; null elsewhere). */
function childCpu(): number | null {
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[13]) + Number(f[14])) / 100; // cutime + cstime (fields 16 and 17), in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

export function timeProcess(args: string[], env: NodeJS.ProcessEnv = process.env): { wall: number; cpu: number | null } {
  const c0 = childCpu();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  const c1 = childCpu();
  return { wall, cpu: c0 === null || c1 === null ? null : c1 - c0 };
}

export async function versusRows(): Promise<void> {
  const seedsList = (process.env.VERSUS_SEEDS ?? '16,64,256').split(',').map(Number);
  const reps = Number(process.env.VERSUS_REPS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'seeupo-versus-'));
  console.log(`this project's CLI against the scalar implementation (bench/scalar), whole process, median of ${reps} alternating pairs`);
  console.log(`default sampled experiment: ${DEFAULT_CONFIG.algorithms.length} algorithms × ${DEFAULT_CONFIG.iterations} iterations, G = ${DEFAULT_CONFIG.groupSize}; ratio = scalar wall / project wall`);
  console.log('seeds   project wall s (CPU s)   scalar wall s (CPU s)   ratio');
  try {
    for (const seeds of seedsList) {
      const config = join(dir, `config-${seeds}.json`);
      writeFileSync(config, JSON.stringify({ ...DEFAULT_CONFIG, seeds }));
      const project: ReturnType<typeof timeProcess>[] = [];
      const scalar: ReturnType<typeof timeProcess>[] = [];
      for (let r = 0; r < reps; r++) {
        // alternate which goes first, so drift in the machine's load falls on both
        const p = () => project.push(timeProcess(['bin/seeupo-explorer.js', 'run', config, '--out', join(dir, 'result.json')]));
        const s = () => scalar.push(timeProcess(['dist/scalar.mjs', config]));
        if (r % 2 === 0) (p(), s());
        else (s(), p());
      }
      const cell = (xs: ReturnType<typeof timeProcess>[]) => {
        const cpu = xs.every((x) => x.cpu !== null) ? ` (${median(xs.map((x) => x.cpu!)).toFixed(2)})` : '';
        return `${median(xs.map((x) => x.wall)).toFixed(3)}${cpu}`;
      };
      const ratio = median(scalar.map((x) => x.wall)) / median(project.map((x) => x.wall));
      console.log(`${String(seeds).padStart(5)}   ${cell(project).padEnd(23)}  ${cell(scalar).padEnd(22)}  ${ratio.toFixed(2)}×`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Start-up (goal: ≤ 0.15 s): a 1-iteration, 1-seed run of the default experiment, whole process,
 * default threads, result written, alternating with a bare `node -e 0` (what Node itself costs
 * on this machine), median of `reps` (STARTUP_REPS, default 11). Where the environment names
 * NODE_EXTRA_CA_CERTS, Node 20 reads and parses its bundled root certificates and that file
 * before running any script (about 0.09 s on the 2-core dev machine, ~410 M instructions): the
 * same two rows are then repeated without it, which is what the project's own start-up costs.
 */
export async function startupRows(reps = Number(process.env.STARTUP_REPS ?? 11)): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seeupo-startup-'));
  try {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ ...DEFAULT_CONFIG, iterations: 1, seeds: 1 }));
    const envs: { name: string; env: NodeJS.ProcessEnv }[] = [{ name: '', env: process.env }];
    if (process.env.NODE_EXTRA_CA_CERTS) {
      const { NODE_EXTRA_CA_CERTS: _, ...rest } = process.env;
      envs.push({ name: ', without NODE_EXTRA_CA_CERTS', env: rest });
    }
    const times = envs.map(() => ({ cli: [] as ReturnType<typeof timeProcess>[], bare: [] as ReturnType<typeof timeProcess>[] }));
    for (let r = 0; r < reps; r++)
      envs.forEach(({ env }, i) => {
        times[i]!.bare.push(timeProcess(['-e', '0'], env));
        times[i]!.cli.push(timeProcess(['bin/seeupo-explorer.js', 'run', config, '--out', join(dir, 'result.json')], env));
      });
    const row = (name: string, xs: ReturnType<typeof timeProcess>[]) => {
      const cpu = xs.every((x) => x.cpu !== null) ? median(xs.map((x) => x.cpu!)).toFixed(3).padStart(9) : '        —';
      console.log(`${name.padEnd(76)}${median(xs.map((x) => x.wall)).toFixed(3).padStart(8)}${cpu}`);
    };
    console.log(`start-up, whole process, median of ${reps} alternating pairs`);
    console.log(`${'process'.padEnd(76)}  wall s    CPU s`);
    envs.forEach(({ name }, i) => {
      row(`node -e 0 (Node alone${name})`, times[i]!.bare);
      row(`seeupo-explorer run (1 iteration, 1 seed, --out${name})`, times[i]!.cli);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
