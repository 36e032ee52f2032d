import { parseArgs as nodeParseArgs } from 'node:util';
import { quote } from '../core/config/fields';
import { InputError } from './errors';

// The command line, parsed strictly: an unknown option (--ouput), an option
// without its value (--out at the end, or followed by another option), an option given twice, a
// value given to a switch (--debug=1) or an extra argument is invalid input, exit 2 with one line
// naming it; never ignored.

export type Command = 'run' | 'claims' | 'advantages' | 'sweep' | 'merge' | 'lessons';

export interface Args {
  /** null: no command (with --help: print the usage). */
  command: Command | null;
  /** The input file (CONFIG.json, INPUT.json or SWEEP.json), if given. */
  file: string | null;
  /** merge: every input file (SHARD.json ...); the other commands: `file` alone, if given. */
  files: string[];
  out?: string;
  threads?: string;
  executor?: string;
  backend?: string;
  link?: string;
  /** sweep: "I/N", run cells I, I + N, … only. */
  shard?: string;
  /** sweep: print cell K's experiment config instead of running. */
  cell?: string;
  /** sweep: continue from the journal beside --out (sweep-journal.ts). */
  resume: boolean;
  debug: boolean;
  help: boolean;
}

const HINT = '(seeupo-explorer --help shows the usage)';
const COMMANDS: readonly Command[] = ['run', 'claims', 'advantages', 'sweep', 'merge', 'lessons'];

const OPTIONS = {
  out: { type: 'string' },
  threads: { type: 'string' },
  executor: { type: 'string' },
  backend: { type: 'string' },
  link: { type: 'string' },
  shard: { type: 'string' },
  cell: { type: 'string' },
  resume: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = keyof typeof OPTIONS;

/** The options each command takes (--help and --debug: every command). */
export const ALLOWED: Record<Command, readonly OptionName[]> = {
  run: ['out', 'threads', 'executor', 'backend', 'link', 'debug', 'help'],
  claims: ['out', 'threads', 'executor', 'backend', 'link', 'debug', 'help'],
  advantages: ['debug', 'help'],
  sweep: ['out', 'threads', 'shard', 'cell', 'resume', 'debug', 'help'],
  merge: ['out', 'debug', 'help'],
  lessons: ['out', 'debug', 'help'],
};

const VALUE_HINT: Record<string, string> = {
  out: 'FILE',
  threads: 'N',
  executor: 'auto|cpu|tensor|webgpu',
  backend: 'wasm|cpu',
  link: "'URL'",
  shard: 'I/N',
  cell: 'K',
};

const bad = (what: string) => new InputError(`${what} ${HINT}`);
const shownArg = (a: string) => (/^[\x21-\x7e]{1,40}$/.test(a) && !a.includes('"') ? a : quote(a));

/** Parse argv (without node and the script) strictly; throws an InputError (exit 2) naming the offending argument. */
export function parseArgs(argv: string[]): Args {
  // A first pass that does not throw gives the tokens, so every complaint is our own single line;
  // the strict pass below then must agree (it is the authority: anything it still refuses is refused).
  const { tokens } = nodeParseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const seen = new Set<string>();
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') {
      positionals.push(t.value);
      continue;
    }
    if (t.kind === 'option-terminator') continue;
    const name = t.name;
    const raw = shownArg(t.rawName);
    if (!Object.hasOwn(OPTIONS, name)) throw bad(`${raw}: unknown option; the options are --out, --threads, --executor, --backend, --link, --shard, --cell, --resume, --debug, --help`);
    const spec = OPTIONS[name as OptionName];
    if (spec.type === 'boolean') {
      if (t.value !== undefined) throw bad(`${raw}: takes no value, got ${quote(t.value)}`);
    } else {
      const usage = `--${name} ${VALUE_HINT[name]}`;
      if (t.value === undefined) throw bad(`--${name}: give a value: ${usage}`);
      if (!t.inlineValue && t.value.startsWith('-') && t.value.length > 1)
        throw bad(`--${name}: give a value: ${usage} (${shownArg(t.value)} follows it, which reads as an option; a value that starts with "-" is written --${name}=VALUE)`);
    }
    if (seen.has(name)) throw bad(`--${name}: given twice; give it once`);
    seen.add(name);
  }
  // the authority: Node's strict parser
  let values: Record<string, string | boolean | undefined>;
  try {
    values = nodeParseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    const first = (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
    throw bad(`invalid arguments: ${first.slice(0, 160)}`);
  }
  const str = (k: OptionName) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const options = {
    out: str('out'),
    threads: str('threads'),
    executor: str('executor'),
    backend: str('backend'),
    link: str('link'),
    shard: str('shard'),
    cell: str('cell'),
    resume: values.resume === true,
    debug: values.debug === true,
    help: values.help === true,
  };
  const [command, file, ...extra] = positionals;
  if (command === undefined) return { command: null, file: null, files: [], ...options };
  if (!(COMMANDS as readonly string[]).includes(command)) throw bad(`unknown command ${quote(command)}; the commands are run, claims, advantages, sweep, merge and lessons`);
  const cmd = command as Command;
  const takes = cmd === 'advantages' ? 'INPUT.json' : cmd === 'sweep' ? 'SWEEP.json' : 'CONFIG.json';
  if (cmd === 'lessons' && file !== undefined) throw bad(`lessons: unexpected argument ${shownArg(file)}; lessons takes no file`);
  if (extra.length && cmd !== 'merge') throw bad(`${cmd}: unexpected argument ${shownArg(extra[0]!)}${extra.length > 1 ? ` (and ${extra.length - 1} more)` : ''}; ${cmd} takes one ${takes}`);
  for (const name of seen)
    if (!ALLOWED[cmd].includes(name as OptionName)) throw bad(`--${name}: not an option of ${cmd}${cmd === 'advantages' ? ' (it takes INPUT.json only)' : ''}`);
  return { command: cmd, file: file ?? null, files: file === undefined ? [] : [file, ...extra], ...options };
}
