import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { computeAdvantages } from '../core/algo/advantages';
import { ConfigError } from '../core/config/fields';
import { resolveConfig } from '../core/config/resolve';
import { chooseExecutor } from '../core/run/choose';
import { inThisThread, runOnCpu } from '../exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../exec/cpu/node-pool';
import { parseArgs } from './args';
import { InputError } from './errors';
import { parseAdvantagesInput, readJson } from './inputs';
import { progressBar } from './progress';

const USAGE = `usage:
  seeupo-explorer run CONFIG.json [--out RESULT.json] [--threads N] [--executor auto|cpu|tensor] [--backend wasm|cpu] [--debug]
  seeupo-explorer advantages INPUT.json
Exit codes: 0 success, 2 invalid input (one line on stderr), 1 any other failure.`;

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [command, file] = args.positional;
  if (args.flags.has('help') || !command) {
    process.stdout.write(USAGE + '\n');
    return command || args.flags.has('help') ? 0 : 2;
  }
  if (command === 'advantages') {
    if (!file) throw new InputError('advantages: give the input file: seeupo-explorer advantages INPUT.json');
    const input = parseAdvantagesInput(readJson(file));
    const advantages = computeAdvantages(input.rewards, input.groups, input.estimator, input.normalization);
    process.stdout.write(JSON.stringify({ advantages }) + '\n');
    return 0;
  }
  if (command !== 'run') throw new InputError(`unknown command "${command}"; the commands are run and advantages`);
  if (args.flags.has('link')) throw new InputError('--link: permalinks are not implemented yet in this version');
  if (!file) throw new InputError('run: give the config file: seeupo-explorer run CONFIG.json');
  const raw = readJson(file) as Record<string, unknown>;
  for (const flag of ['executor', 'backend'] as const) {
    const value = args.flags.get(flag);
    if (value === undefined) continue;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('', 'the config must be a JSON object');
    raw[flag] = value;
  }
  const exp = resolveConfig(raw);
  for (const w of exp.warnings) process.stderr.write(`warning: ${w}\n`);
  const choice = chooseExecutor(exp);
  const bar = progressBar(process.stderr, 'running');
  let result;
  if (choice.executor === 'tensor') {
    if (args.flags.has('threads')) process.stderr.write('warning: --threads is ignored by the tensor executor (one thread drives the tfjs backend)\n');
    const { runTensorInNode } = await import('../exec/tensor/node-run');
    result = await runTensorInNode(exp, choice.reason, (p) => bar.update(p));
  } else {
    const threadsFlag = args.flags.get('threads');
    const threads = threadsFlag === undefined ? availableParallelism() : Number(threadsFlag);
    if (!Number.isInteger(threads) || threads < 1 || threads > 256) throw new InputError(`--threads: must be an integer from 1 to 256, got ${String(threadsFlag)}`);
    const launch = threads === 1 ? inThisThread : nodeThreadLauncher(new URL('./cpu-worker.js', import.meta.url));
    result = await runOnCpu(exp, raw, { threads, launch, onProgress: (p) => bar.update(p) });
  }
  bar.end();
  const text = JSON.stringify(result);
  const out = args.flags.get('out');
  if (typeof out === 'string') writeFileSync(out, text + '\n');
  else process.stdout.write(text + '\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof InputError || e instanceof ConfigError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exit(2);
    }
    if (process.argv.includes('--debug')) console.error(e);
    else process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)} (run with --debug for details)\n`);
    process.exit(1);
  },
);
