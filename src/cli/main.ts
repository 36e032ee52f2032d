import { availableParallelism } from 'node:os';
import { ConfigError, quote, safeText } from '../core/config/fields';
import { resolveConfig } from '../core/config/resolve';
import { inThisThread } from '../exec/cpu/run-experiment';
import { runInNode } from './run-node';
import { nodeThreadLauncher } from '../exec/cpu/node-pool';
import { estimateWorkMs, threadsForWork } from '../exec/cpu/work';
import { parseArgs, type Args } from './args';
import type { ExperimentResult } from '../core/run/result';
import type { LinkState } from '../core/config/link-codec';
import { explainMismatch, type ResultsHash } from '../core/metrics/results-hash';
import { InputError } from './errors';
import { advantagesOf, parseAdvantagesInput, readJson } from './inputs';
import { writeJson } from './write-json';
import { progressBar } from './progress';
import { commandHelp, usage } from './usage';
import { checkOutFile, writeJsonAtomically } from './sweep-out';


async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.help) {
    await writeOut((args.command ? commandHelp(args.command) : usage()) + '\n');
    return 0;
  }
  const command = args.command;
  if (!command) throw new InputError('give a command: run, claims, advantages, sweep, merge or lessons (seeupo-explorer --help shows the usage)');
  if (command === 'advantages') {
    if (!args.file) throw new InputError('advantages: give the input file: seeupo-explorer advantages INPUT.json');
    const advantages = advantagesOf(parseAdvantagesInput(readJson(args.file)));
    await writeJson({ advantages }, process.stdout);
    return 0;
  }
  const out = args.out;
  if (out === '') throw new InputError(`--out: give the file to write: seeupo-explorer ${command} CONFIG.json --out FILE`);
  if (out !== undefined) checkOutFile(out);
  const threads = args.threads === undefined ? undefined : parseThreads(args.threads);
  let value: unknown;
  // the sweep, the lessons and the permalink codec are loaded by the commands that use them: a
  // module's top-level work (schemas, tables) is a cost every run's start-up would pay
  // (docs/architecture.md "Start-up")
  if (command === 'sweep') {
    const { sweepCommand } = await import('./sweep');
    value = await sweepCommand(args, threads ?? availableParallelism(), new URL('./', import.meta.url));
    if (value === null) return 0; // written to --out by the sweep's own durable writer
  }
  else if (command === 'merge') value = (await import('./sweep')).mergeCommand(args);
  else if (command === 'lessons') value = (await import('./lessons')).lessonsCommand();
  else {
    const result = await runFromArgs(command, args, threads);
    // `claims` prints only the verdicts (docs/cli.md "claims"); `run` the whole result,
    // as a stream: the text of a large result is longer than the longest string V8 can make
    value = command === 'claims' ? { claimsRules: result.claimsRules, claims: result.claims } : result;
  }
  if (out !== undefined) await writeJsonAtomically(value, out);
  else await writeJson(value, process.stdout);
  return 0;
}

/** --threads N: an integer from 1 to 256, written as plain digits. */
function parseThreads(value: string): number {
  const n = /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new InputError(`--threads: must be an integer from 1 to 256, got ${quote(value)}`);
  return n;
}

/** The experiment a config file or a permalink names, run on the executor it chooses. */
async function runFromArgs(command: string, args: Args, threadsFlag: number | undefined): Promise<ExperimentResult> {
  const { link, file } = args;
  if (link !== undefined && file) throw new InputError(`${command}: give either CONFIG.json or --link URL, not both`);
  if (link === undefined && !file) throw new InputError(`${command}: give the config file: seeupo-explorer ${command} CONFIG.json (or --link 'URL')`);
  const opened = link === undefined ? null : await openLink(link);
  const raw = opened ? opened.config : (readJson(file!) as Record<string, unknown>);
  for (const flag of ['executor', 'backend'] as const) {
    const value = args[flag];
    if (value === undefined) continue;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('', 'the config must be a JSON object');
    raw[flag] = value;
  }
  const exp = resolveConfig(raw);
  for (const w of exp.warnings) process.stderr.write(`warning: ${safeText(w, 1000)}\n`);
  const bar = progressBar('running');
  // without --threads: as many threads as the estimated work pays for (a short run stays on this thread)
  const threads = threadsFlag ?? threadsForWork(estimateWorkMs(exp), availableParallelism(), exp.algorithms.length * exp.seedIndices.length);
  const launch = threads === 1 ? inThisThread : nodeThreadLauncher(new URL('./cpu-worker.js', import.meta.url));
  const result = await runInNode(exp, raw, { threads, launch, threadsAsked: threadsFlag !== undefined, onProgress: (p) => bar.update(p) });
  bar.end();
  if (opened) reportHash(opened, result.resultsHash);
  return result;
}

/** Write (a short text) to stdout and wait until it is flushed: process.exit() would cut a piped result short. */
function writeOut(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (e) => (e ? reject(e) : resolve())));
}

/** A permalink's config, and the hash it carries (a bad link is an input error naming the field). */
async function openLink(link: string): Promise<LinkState> {
  const [{ decodeLink }, { isSweepLink }] = await Promise.all([import('../core/config/link-codec'), import('../core/sweep/link')]);
  // the Sweep view's address is a link too, but to a grid of experiments (docs/sweeps.md "Link")
  if (isSweepLink(link)) throw new InputError("--link: this is a sweep's link (sweep=…), not an experiment's: run and claims read one experiment; on the page, open a cell of the sweep and copy its link");
  const d = decodeLink(link);
  if (!d.ok) throw new InputError(`--link: ${safeText(d.message, 300)}`); // the codec's message may echo parts of the link
  if (d.empty) throw new InputError('--link: the link has no #v=1&… fragment (copy it with the page\'s "Copy link")');
  if (!d.state.exact) process.stderr.write('warning: the run this link comes from had more learning-rate or clip changes than a link carries; it is not reproducible: this runs the settings the link holds, without the changes it could not carry\n');
  return d.state;
}

function reportHash(state: LinkState, got: ResultsHash): void {
  process.stderr.write(`results hash: ${got.digest} (${got.by}, version ${got.app})\n`);
  if (!state.hash) return;
  const why = explainMismatch(state.hash, got);
  process.stderr.write(why ? `not reproduced: ${safeText(why, 300)}\n` : 'reproduced ✓ (the link carries the same hash)\n');
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    // one line, short, no raw control characters, whatever the message carries
    if (e instanceof InputError || e instanceof ConfigError) {
      process.stderr.write(`error: ${safeText(e.message, 2000)}\n`);
      process.exit(2);
    }
    if (process.argv.includes('--debug')) console.error(e);
    else process.stderr.write(`error: ${safeText(e instanceof Error ? e.message : String(e), 2000)} (run with --debug for details)\n`);
    process.exit(1);
  },
);
