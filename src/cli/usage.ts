import type { Command } from './args';

// What `seeupo-explorer --help` and `seeupo-explorer COMMAND --help` print: one entry per command,
// with its usage lines, what it does, its options and an example that runs as written from the
// repository (test/integration/docs-commands.test.ts runs them). docs/cli.md says the same at length.

export interface CommandHelp {
  usage: readonly string[];
  /** One sentence: what the command does and prints. */
  does: string;
  /** [flag with its value, what it does]; --debug and --help are added to every command. */
  options: readonly (readonly [string, string])[];
  example: string;
}

const RUN_OPTIONS = [
  ['--out FILE', 'write the JSON to FILE instead of stdout (its folder must exist; checked before the run)'],
  ['--link URL', "run the experiment a permalink encodes instead of CONFIG.json; stderr says the results hash and whether it was reproduced"],
  ['--threads N', 'worker threads of the CPU executor, 1 to 256 (default: every core); the numbers do not depend on N'],
  ['--executor auto|cpu|tensor|webgpu', "sets the config's executor (webgpu runs in the browser only: refused here with exit 2)"],
  ['--backend wasm|cpu', "sets the config's tfjs backend (the tensor executor)"],
] as const;

export const HELP: Readonly<Record<Command, CommandHelp>> = {
  run: {
    usage: ['seeupo-explorer run CONFIG.json [--out FILE] [--threads N] [--executor auto|cpu|tensor|webgpu] [--backend wasm|cpu]', "seeupo-explorer run --link 'URL' [same options]"],
    does: 'Runs the experiment of a config file (or a permalink) and prints the result JSON: curves, summaries, the five verdicts and the results hash.',
    options: RUN_OPTIONS,
    example: 'seeupo-explorer run docs/examples/config.json --out result.json',
  },
  claims: {
    usage: ["seeupo-explorer claims CONFIG.json|--link 'URL' [same options as run]"],
    does: 'Runs the experiment like run and prints only the verdicts on the paper\'s five claims: {"claimsRules": 1, "claims": [...]}.',
    options: RUN_OPTIONS,
    example: "seeupo-explorer claims --link '#v=1&lesson=reverse-escapes-the-exit'",
  },
  advantages: {
    usage: ['seeupo-explorer advantages INPUT.json'],
    does: 'Prints {"advantages": [...]} for the rewards, groups, estimator and normalization of INPUT.json, in float64 as the engine computes them.',
    options: [],
    example: 'seeupo-explorer advantages docs/examples/advantages.json',
  },
  sweep: {
    usage: ['seeupo-explorer sweep SWEEP.json [--shard I/N] [--out FILE [--resume]] [--threads N]', 'seeupo-explorer sweep SWEEP.json --cell K'],
    does: 'Runs a grid of experiments (docs/sweeps.md) and prints the sweep output; --cell prints one cell\'s experiment config instead.',
    options: [
      ['--shard I/N', 'run only cells I, I+N, I+2N, … (I is 0-based: 0 to N−1; N up to 4096); merge joins the shards'],
      ['--cell K', "print cell K's experiment config (K is 0-based), to run it on its own with run"],
      ['--out FILE', 'write the output to FILE instead of stdout; finished cells go to FILE.journal as they end'],
      ['--resume', 'with --out: after an interruption, run only the cells FILE.journal lacks; the same bytes as an uninterrupted run'],
      ['--threads N', 'worker threads, 1 to 256 (default: every core)'],
    ],
    example: 'seeupo-explorer sweep docs/examples/sweep.json --shard 0/2 --out shard-0.json',
  },
  merge: {
    usage: ['seeupo-explorer merge SHARD.json ... [--out FILE]'],
    does: "Joins the outputs of every shard of one sweep into exactly what the unsharded sweep prints, byte for byte.",
    options: [['--out FILE', 'write the merged output to FILE instead of stdout']],
    example: 'seeupo-explorer merge shard-0.json shard-1.json --out sweep.json',
  },
  lessons: {
    usage: ['seeupo-explorer lessons [--out FILE]'],
    does: 'Prints {"lessons": [...]}: every lesson of the page with its experiment config (as run reads it), the claim and verdict it declares, and the variants its verdict holds under (docs/lessons.md).',
    options: [['--out FILE', 'write the JSON to FILE instead of stdout']],
    example: 'seeupo-explorer lessons',
  },
};

const COMMON = [
  ['--debug', 'print the stack trace of an unexpected failure'],
  ['-h, --help', 'print this help'],
] as const;

const EXITS = 'Exit codes: 0 success, 2 invalid input (one line on stderr naming the field), 1 any other failure.';

/** `seeupo-explorer COMMAND --help`: its usage, options and an example. */
export function commandHelp(command: Command): string {
  const h = HELP[command];
  const options = [...h.options, ...COMMON];
  const width = Math.max(...options.map(([f]) => f.length));
  return [
    'usage:',
    ...h.usage.map((u) => `  ${u}`),
    '',
    h.does,
    '',
    'options:',
    ...options.map(([f, what]) => `  ${f.padEnd(width)}  ${what}`),
    '',
    'example:',
    `  ${h.example}`,
    '',
    `${EXITS} More: docs/cli.md.`,
  ].join('\n');
}

/** `seeupo-explorer --help`: every command's usage. */
export function usage(): string {
  const commands = Object.keys(HELP) as Command[];
  return [
    'usage:',
    ...commands.flatMap((c) => HELP[c].usage.map((u) => `  ${u}`)),
    '',
    'seeupo-explorer COMMAND --help shows a command\'s options and an example.',
    EXITS,
  ].join('\n');
}
