import { statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { computeAdvantages } from '../core/algo/advantages';
import { ConfigError } from '../core/config/fields';
import { resolveConfig } from '../core/config/resolve';
import { chooseExecutor } from '../core/run/choose';
import { inThisThread, runOnCpu } from '../exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../exec/cpu/node-pool';
import { parseArgs, type Args } from './args';
import type { ExperimentResult } from '../core/run/result';
import { decodeLink, type LinkState } from '../core/config/link-codec';
import { explainMismatch, type ResultsHash } from '../core/metrics/results-hash';
import { InputError } from './errors';
import { parseAdvantagesInput, readJson } from './inputs';
import { progressBar } from './progress';

const USAGE = `usage:
  seeupo-explorer run CONFIG.json [--out RESULT.json] [--threads N] [--executor auto|cpu|tensor] [--backend wasm|cpu] [--debug]
  seeupo-explorer run --link 'URL' [same options]   (a permalink from the page; prints the result and its hash)
  seeupo-explorer claims CONFIG.json|--link 'URL' [same options]   (runs it; prints only the paper's five claims, verdicts with evidence)
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
    await writeOut(JSON.stringify({ advantages }) + '\n');
    return 0;
  }
  if (command !== 'run' && command !== 'claims') throw new InputError(`unknown command "${command}"; the commands are run, claims and advantages`);
  const out = args.flags.get('out');
  if (out === true) throw new InputError(`--out: give the file to write: seeupo-explorer ${command} CONFIG.json --out FILE`);
  if (typeof out === 'string') checkWritableFolder(out);
  const result = await runFromArgs(command, file, args);
  // `claims` prints only the verdicts (cli-contract.md "Claims in results"); `run` the whole result.
  const text = command === 'claims' ? JSON.stringify({ claimsRules: result.claimsRules, claims: result.claims }) : JSON.stringify(result);
  if (typeof out === 'string') writeFileSync(out, text + '\n');
  else await writeOut(text + '\n');
  return 0;
}

/** The experiment a config file or a permalink names, run on the executor it chooses. */
async function runFromArgs(command: string, file: string | undefined, args: Args): Promise<ExperimentResult> {
  const link = args.flags.get('link');
  if (link === true) throw new InputError(`--link: give the permalink: seeupo-explorer ${command} --link 'URL'`);
  if (link !== undefined && file) throw new InputError(`${command}: give either CONFIG.json or --link URL, not both`);
  if (link === undefined && !file) throw new InputError(`${command}: give the config file: seeupo-explorer ${command} CONFIG.json (or --link 'URL')`);
  const opened = link === undefined ? null : openLink(link);
  const raw = opened ? opened.config : (readJson(file!) as Record<string, unknown>);
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
  let result: ExperimentResult;
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
  if (opened) reportHash(opened, result.resultsHash);
  return result;
}

/** --out's folder must exist before the run starts (a long run must not end in a lost result). */
function checkWritableFolder(path: string): void {
  const folder = dirname(resolve(path));
  let ok = false;
  try {
    ok = statSync(folder).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new InputError(`--out: the folder ${JSON.stringify(folder.length > 80 ? '…' + folder.slice(-80) : folder)} does not exist`);
}

/** Write to stdout and wait until it is flushed: process.exit() would cut a piped result short. */
function writeOut(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (e) => (e ? reject(e) : resolve())));
}

/** A permalink's config, and the hash it carries (a bad link is an input error naming the field). */
function openLink(link: string): LinkState {
  const d = decodeLink(link);
  if (!d.ok) throw new InputError(`--link: ${d.message}`);
  if (d.empty) throw new InputError('--link: the link has no #v=1&… fragment (copy it with the page\'s "Copy link")');
  if (!d.state.exact) process.stderr.write('warning: the run this link comes from had more learning-rate or clip changes than a link carries; it is not reproducible, this runs its starting settings\n');
  return d.state;
}

function reportHash(state: LinkState, got: ResultsHash): void {
  process.stderr.write(`results hash: ${got.digest} (${got.by}, version ${got.app})\n`);
  if (!state.hash) return;
  const why = explainMismatch(state.hash, got);
  process.stderr.write(why ? `not reproduced: ${why}\n` : 'reproduced ✓ (the link carries the same hash)\n');
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
