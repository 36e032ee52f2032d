import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseArgs } from '../../src/cli/args';
import { InputError } from '../../src/cli/errors';
import { advantagesOf, parseAdvantagesInput } from '../../src/cli/inputs';
import { computeAdvantages } from '../../src/core/algo/advantages';
import { cli, ensureBuilt, scratchDir, type CliResult } from '../helpers/cli';

// The command line is parsed strictly (node:util parseArgs, strict): an
// unknown option, an option without its value, an option twice, a value given to a switch or an
// extra argument is exit 2 with one line naming it and the usage hint, never silently ignored.
// And `advantages` whose results overflow float64 is exit 2, not a list of nulls.

const HINT = '(seeupo-explorer --help shows the usage)';

// ---------------------------------------------------------------------------------------------
// A reference model of the grammar, written independently of src/cli/args.ts

const STRING_OPTS = ['out', 'threads', 'executor', 'backend', 'link'];
const BOOL_OPTS = ['debug', 'help'];
const FOR_ADVANTAGES = ['debug', 'help'];

type Expected = { ok: true; command: string | null; file: string | null; values: Record<string, string | true> } | { ok: false; names: string };

function reference(argv: string[]): Expected {
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  const set = (name: string, v: string | true, raw: string): Expected | null => {
    if (name in values) return { ok: false, names: `--${name}` };
    values[name] = v;
    void raw;
    return null;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      if (BOOL_OPTS.includes(name)) {
        if (eq >= 0) return { ok: false, names: a.slice(0, eq) };
        const r = set(name, true, a);
        if (r) return r;
      } else if (STRING_OPTS.includes(name)) {
        let v: string;
        if (eq >= 0) v = a.slice(eq + 1);
        else {
          const next = argv[i + 1];
          if (next === undefined || (next.startsWith('-') && next.length > 1)) return { ok: false, names: `--${name}` };
          v = next;
          i++;
        }
        const r = set(name, v, a);
        if (r) return r;
      } else return { ok: false, names: eq < 0 ? a : a.slice(0, eq) };
    } else if (a === '-h') {
      const r = set('help', true, a);
      if (r) return r;
    } else if (a.startsWith('-') && a.length > 1) return { ok: false, names: a.slice(0, 2) };
    else positionals.push(a);
  }
  const [command, file, extra] = positionals;
  if (command === undefined) return { ok: true, command: null, file: null, values };
  if (!['run', 'claims', 'advantages'].includes(command)) return { ok: false, names: command };
  if (extra !== undefined) return { ok: false, names: extra };
  if (command === 'advantages') for (const k of Object.keys(values)) if (!FOR_ADVANTAGES.includes(k)) return { ok: false, names: `--${k}` };
  return { ok: true, command, file: file ?? null, values };
}

const argToken = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('run', 'claims', 'advantages', 'cfg.json', 'in.json', 'frob', 'x.json') },
  { weight: 4, arbitrary: fc.constantFrom('--out', '--threads', '--executor', '--backend', '--link', '--debug', '--help', '-h') },
  { weight: 2, arbitrary: fc.constantFrom('--out=r.json', '--threads=2', '--threads=', '--debug=1', '--help=yes', '--link=#v=1', '--executor=cpu', '--out=-x') },
  { weight: 2, arbitrary: fc.constantFrom('--ouput', '--thread', '--OUT', '---out', '-x', '-o', '--', '-', '--quiet', '--out-file', '--Link') },
  { weight: 2, arbitrary: fc.constantFrom('2', '0', '-1', 'cpu', 'wasm', "#v=1&iterations=3", 'r.json', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

describe('strict arguments', () => {
  it('property: parseArgs agrees with a reference model of the grammar; every refusal is one line with the hint naming the argument (3,000 command lines)', () => {
    fc.assert(
      fc.property(fc.array(argToken, { maxLength: 7 }), (argv) => {
        const want = reference(argv);
        let got: ReturnType<typeof parseArgs> | InputError;
        try {
          got = parseArgs(argv);
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          got = e;
        }
        const where = JSON.stringify(argv);
        if (!want.ok) {
          expect(got, where).toBeInstanceOf(InputError);
          const m = (got as InputError).message;
          expect(m, where).not.toMatch(/[\n\r\u001b]/);
          expect(m.endsWith(HINT), where).toBe(true);
          expect(m.length, where).toBeLessThan(300);
          // it names the offending argument (as given, or quoted and escaped)
          if (/^[\x21-\x7e]+$/.test(want.names) && !want.names.includes('"')) expect(m, where).toContain(want.names);
          return;
        }
        expect(got, `${where}: ${(got as Error).message}`).not.toBeInstanceOf(InputError);
        const a = got as ReturnType<typeof parseArgs>;
        expect(a.command, where).toBe(want.command);
        expect(a.file, where).toBe(want.file);
        for (const k of STRING_OPTS) expect(a[k as 'out'], `${where} ${k}`).toBe(want.values[k]);
        expect(a.debug, where).toBe(want.values.debug === true);
        expect(a.help, where).toBe(want.values.help === true);
      }),
      { numRuns: 3000, seed: 0x16_51 },
    );
  });

  it('examples of arguments refused', () => {
    const refused = (argv: string[], ...mentions: string[]) => {
      expect(() => parseArgs(argv)).toThrow(InputError);
      try {
        parseArgs(argv);
      } catch (e) {
        for (const m of mentions) expect((e as Error).message).toContain(m);
        expect((e as Error).message.endsWith(HINT)).toBe(true);
      }
    };
    refused(['run', 'c.json', '--ouput', 'x'], '--ouput: unknown option');
    refused(['run', 'c.json', '--out'], '--out: give a value');
    refused(['run', 'c.json', '--threads'], '--threads: give a value');
    refused(['run', 'c.json', '--out', '--threads', '2'], '--out: give a value', '--threads follows it');
    refused(['run', 'a.json', 'b.json'], 'unexpected argument b.json');
    refused(['claims', 'a.json', 'b.json', 'c.json'], 'unexpected argument b.json (and 1 more)');
    refused(['advantages', 'in.json', '--threads', '2'], '--threads: not an option of advantages');
    refused(['run', 'c.json', '--debug=1'], '--debug: takes no value');
    refused(['run', 'c.json', '--out', 'a', '--out', 'b'], '--out: given twice');
    expect(parseArgs(['run', 'c.json', '--out=-weird.json']).out).toBe('-weird.json');
    expect(parseArgs(['run', '--', '-c.json']).file).toBe('-c.json');
  });
});

// ---------------------------------------------------------------------------------------------
// advantages: overflow

const group = fc.constantFrom('a', 'b', 'c');
const reward = fc.oneof(
  fc.double({ min: -10, max: 10, noNaN: true }),
  fc.double({ min: 1e150, max: 1.7e308, noNaN: true }).chain((m) => fc.constantFrom(m, -m)),
  fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, 1e154, -1e154, 1.4e154, 5e-324),
);
const advInput = fc
  .record({
    n: fc.integer({ min: 2, max: 12 }),
    estimator: fc.constantFrom('grae', 'rloo'),
    normalization: fc.constantFrom('none', 'group', 'batch'),
  })
  .chain(({ n, estimator, normalization }) =>
    fc.record({
      rewards: fc.array(reward, { minLength: 2 * n, maxLength: 2 * n }),
      groups: fc.array(group, { minLength: n, maxLength: n }).map((g) => [...g, ...g]), // every label at least twice
      estimator: fc.constant(estimator),
      normalization: fc.constant(normalization),
    }),
  );

describe('advantages never print non-finite values', () => {
  it('property: finite advantages equal to the engine\'s, or exit-2 input errors naming rewards; no group silently flattened by an overflowed std (2,000 inputs)', () => {
    let refused = 0;
    fc.assert(
      fc.property(advInput, (raw) => {
        const input = parseAdvantagesInput(raw);
        const engine = computeAdvantages(input.rewards, input.groups, input.estimator, input.normalization);
        let out: number[];
        try {
          out = advantagesOf(input);
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
          expect((e as Error).message).toMatch(/^rewards: the advantages overflow float64/);
          refused++;
          return;
        }
        expect(out.every(Number.isFinite)).toBe(true);
        expect(out).toEqual(engine);
        if (input.normalization === 'group') {
          // a group whose rewards spread by ≥ 1 has non-zero normalized advantages (an infinite std would make them all 0)
          for (const g of new Set(input.groups)) {
            const idx = input.groups.map((x, i) => (x === g ? i : -1)).filter((i) => i >= 0);
            const rs = idx.map((i) => input.rewards[i]!);
            if (Math.max(...rs) - Math.min(...rs) >= 1) expect(idx.some((i) => out[i] !== 0), JSON.stringify(raw)).toBe(true);
          }
        }
      }),
      { numRuns: 2000, seed: 0x16_52 },
    );
    expect(refused).toBeGreaterThan(50);
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI: the examples

describe('the CLI (regressions)', () => {
  let tmp: ReturnType<typeof scratchDir>;
  const TINY = { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 2, seeds: 1, algorithms: [{ id: 'seeupo' }] };
  beforeAll(() => {
    ensureBuilt();
    tmp = scratchDir();
  }, 120_000);
  afterAll(() => tmp?.cleanup());

  const refusedWith = (r: CliResult, ...mentions: string[]) => {
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines, r.stderr).toHaveLength(2); // one line and its newline
    expect(lines[0]!.endsWith(HINT), r.stderr).toBe(true);
    for (const m of mentions) expect(lines[0]).toContain(m);
  };

  it('--ouput x, --out alone, --threads without a value, an extra argument: exit 2 naming it, nothing run', () => {
    const f = tmp.file('tiny.json', TINY);
    refusedWith(cli('run', f, '--ouput', 'x'), '--ouput');
    refusedWith(cli('run', f, '--out'), '--out');
    refusedWith(cli('run', f, '--threads'), '--threads');
    refusedWith(cli('run', f, '--threads', '--debug'), '--threads');
    refusedWith(cli('run', f, f), 'unexpected argument');
    refusedWith(cli('claims', '--link', '#v=1', f, f), 'unexpected argument');
    refusedWith(cli('advantages', f, '--out', 'r.json'), '--out: not an option of advantages');
    const help = cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage:');
  });

  it('advantages whose results overflow exit 2 instead of printing nulls', () => {
    const huge = cli('advantages', tmp.file('adv-huge.json', { rewards: [1e308, 1e308, -1e308, 5], groups: ['a', 'a', 'b', 'b'], estimator: 'grae', normalization: 'none' }));
    expect(huge.code).toBe(2);
    expect(huge.stdout).toBe('');
    expect(huge.stderr).toMatch(/^error: rewards: the advantages overflow float64 to non-finite values .*\n$/);
    const squares = cli('advantages', tmp.file('adv-sq.json', { rewards: [1e200, -1e200, 1, 5], groups: ['a', 'a', 'b', 'b'], estimator: 'rloo', normalization: 'group' }));
    expect(squares.code).toBe(2);
    const fine = cli('advantages', tmp.file('adv-ok.json', { rewards: [1e100, -1e100, 1, 5], groups: ['a', 'a', 'b', 'b'], estimator: 'grae', normalization: 'group' }));
    expect(fine.code, fine.stderr).toBe(0);
    expect(JSON.parse(fine.stdout).advantages.every((x: unknown) => typeof x === 'number')).toBe(true);
  });
});
