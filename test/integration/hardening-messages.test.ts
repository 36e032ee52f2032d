import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ConfigError, escapeControls, formatPath, issueToError, MAX_DEPTH, quote, QUOTE_CHARS, safeText, show, tooDeep } from '../../src/core/config/fields';
import { resolveConfig } from '../../src/core/config/resolve';
import { importConfig, importEnv } from '../../src/core/config/import-file';
import { readJson } from '../../src/cli/inputs';
import { InputError } from '../../src/cli/errors';
import { cli, useCliScratch } from '../helpers/cli';

// Whatever a config carries, a message about it is one short line with no raw
// control characters: a bad value is quoted as a short escaped prefix, deep nesting is refused
// (naming the limit) before anything recursive walks it, and `version` says what it must be.

/** Characters a message must never carry raw (C0/C1 controls, DEL, line separators, bidi overrides, BOM). */
const RAW_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
/** A lone surrogate (not part of a pair). */
const LONE = /(^|[^\ud800-\udbff])[\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])/;
/** The longest message the properties accept (a real message is a few hundred characters). */
const MAX_MESSAGE = 600;

function expectSafeLine(message: string, where = ''): void {
  const ctx = `${where} → ${JSON.stringify(message.slice(0, 300))}`;
  expect(RAW_UNSAFE.test(message), ctx).toBe(false);
  expect(LONE.test(message), ctx).toBe(false);
  expect(message.length, ctx).toBeLessThanOrEqual(MAX_MESSAGE);
}

/** resolveConfig's refusal (it must refuse, with a ConfigError). */
function refusalOf(config: unknown): ConfigError {
  try {
    resolveConfig(config);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw new Error(`expected a ConfigError, got ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : String(e)}`);
  }
  throw new Error('expected a refusal, the config resolved');
}

// ---------------------------------------------------------------------------------------------
// Hostile strings

const CONTROL = fc.constantFrom('\u001b', '\u001b[31m', '\u001b]0;pwned\u0007', '\r', '\n', '\t', '\u0000', '\u007f', '\u009b', '\u0085', '\u2028', '\u2029', '\u202e', '\u2066', '\ufeff', '\ud800', '\udfff', '"', '\\', '😀');
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.array(fc.oneof(CONTROL, fc.string({ maxLength: 5 })), { maxLength: 20 }).map((a) => a.join('')),
  fc.tuple(fc.integer({ min: 41, max: 200_000 }), CONTROL).map(([n, c]) => c + 'x'.repeat(n) + c), // long
);

/** Places in a config a string value (or key) reaches a message. */
const PLACES: ((s: string) => unknown)[] = [
  (s) => ({ version: s }),
  (s) => ({ version: 1, env: { preset: 'lock' }, [s]: 1 }),
  (s) => ({ version: 1, env: { preset: 'lock', [s]: 1 } }),
  (s) => ({ version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp', [s]: 1 } }),
  (s) => ({ version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'grpo', [s]: 1, [s + 'b']: 2, [s + 'c']: 3, [s + 'd']: 4, [s + 'e']: 5 }] }),
  (s) => ({ version: 1, env: { preset: s } }),
  (s) => ({ version: 1, env: { preset: 'lock' }, mode: s }),
  (s) => ({ version: 1, env: { preset: 'lock' }, algorithms: [{ id: s }] }),
  (s) => ({ version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'x', preset: s }] }),
  (s) => ({ version: 1, env: { preset: 'lock' }, changes: [{ at: 0, path: s, value: 1 }] }),
  (s) => ({ version: 1, env: { preset: 'lock', noise: { kind: s } } }),
  (s) => ({ version: 1, env: { preset: 'lock' }, iterations: s }),
  (s) => ({ version: 1, env: { preset: 'lock' }, optimizer: { kind: 'sgd', lr: s } }),
  (s) => ({ version: 1, env: { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, s]] } }),
];

describe('quoting and escaping', () => {
  it('property: quote / show / safeText / escapeControls never emit raw control characters, and stay short (2,000 strings)', () => {
    fc.assert(
      fc.property(hostileString, (s) => {
        for (const out of [quote(s), show(s), safeText(s), escapeControls(s.slice(0, 500)), formatPath(['a', s, 0])]) {
          expect(RAW_UNSAFE.test(out)).toBe(false);
          expect(LONE.test(out)).toBe(false);
        }
        // a quote is the escaped prefix: at most QUOTE_CHARS characters of s (a pair kept whole), plus quotes, escapes and "…"
        expect(quote(s).length).toBeLessThanOrEqual(2 + QUOTE_CHARS * 6 + 1);
        expect(safeText(s).length).toBeLessThanOrEqual(200 * 6 + 1);
        // JSON-style escapes round-trip: the quote parses back to the prefix (up to the ellipsis)
        const back = JSON.parse(quote(s).replace(/…"$/, '"')) as string;
        expect(s.startsWith(back)).toBe(true);
        expect(back.length).toBeGreaterThanOrEqual(Math.min(s.length, QUOTE_CHARS - 1));
      }),
      { numRuns: 2000, seed: 0x16_41 },
    );
  });

  it('examples: ESC becomes \\u001b, a newline \\n, a long value a 40-character prefix', () => {
    expect(quote('\u001b[31mred')).toBe('"\\u001b[31mred"');
    expect(safeText('a\nb\u001bc')).toBe('a b\\u001bc');
    expect(show('x'.repeat(7_000_000))).toBe(`"${'x'.repeat(40)}…"`);
    expect(quote('😀'.repeat(30))).toBe(`"${'😀'.repeat(20)}…"`);
    expect(quote('a' + '😀'.repeat(30))).toBe(`"a${'😀'.repeat(19)}…"`); // 40 units would split a pair: 39 units
    expect(formatPath(['env', 'preset'])).toBe('env.preset');
    expect(formatPath(['algorithms', 0, 'clip'])).toBe('algorithms[0].clip');
    expect(formatPath(['\u001b[2J'])).toBe('["\\u001b[2J"]');
  });
});

describe('config messages', () => {
  it('property: hostile strings in 14 places give one short, escaped line naming a field (14 × 300 configs)', () => {
    fc.assert(
      fc.property(hostileString, fc.integer({ min: 0, max: PLACES.length - 1 }), (s, place) => {
        let e: ConfigError | null = null;
        try {
          resolveConfig(PLACES[place]!(s));
        } catch (x) {
          if (!(x instanceof ConfigError)) throw x;
          e = x;
        }
        if (e === null) return; // e.g. an id that happens to be valid
        expectSafeLine(e.message, `place ${place}`);
        expect(e.message.startsWith(e.path ? `${e.path}: ` : '')).toBe(true);
        // the page's import reports the same, escaped
        const imported = importConfig(JSON.stringify(PLACES[place]!(s)));
        if (!imported.ok) expectSafeLine(imported.message, `import, place ${place}`);
      }),
      { numRuns: PLACES.length * 300, seed: 0x16_42 },
    );
  });

  it('property: nesting deeper than 64 levels, anywhere, is refused naming the limit; never a stack overflow (300 configs, depths 65–200,000)', () => {
    const field = fc.constantFrom('version', 'env', 'policy', 'iterations', 'algorithms', 'changes', 'mcSamples', 'foo', 'env.rewards', 'env.noise', 'env.turnRewards', 'algorithms.0', 'policy.hidden');
    fc.assert(
      fc.property(field, fc.oneof(fc.integer({ min: MAX_DEPTH, max: 300 }), fc.integer({ min: 300, max: 200_000 })), fc.boolean(), (at, depth, objects) => {
        let deep: unknown = 0;
        for (let i = 0; i < depth; i++) deep = objects && i % 2 ? { k: deep } : [deep];
        const config: Record<string, unknown> = { version: 1, env: { preset: 'lock' } };
        const [top, sub] = at.split('.');
        if (sub === undefined) config[top!] = deep;
        else if (top === 'algorithms') config.algorithms = [deep];
        else config[top!] = { ...(top === 'env' ? { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1]] } : { kind: 'mlp' }), [sub]: deep };
        const e = refusalOf(config);
        expectSafeLine(e.message, `${at} at depth ${depth}`);
        expect(e.message).toContain(`deeper than ${MAX_DEPTH} levels`);
        expect(e.message).toContain(`the limit is ${MAX_DEPTH}`);
        expect(e.path).toBe(top);
      }),
      { numRuns: 300, seed: 0x16_43 },
    );
  });

  it('property: tooDeep is exact: depth ≤ 64 passes, 65 is caught at the right path (200 shapes)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.array(fc.constantFrom('a', 'b', 0, 1), { minLength: 80, maxLength: 80 }), (depth, keys) => {
        let v: unknown = 1;
        for (let i = depth - 1; i >= 0; i--) v = typeof keys[i] === 'number' ? [0, v] : { [keys[i] as string]: v };
        const path = tooDeep({ wrap: v });
        if (depth + 1 <= MAX_DEPTH) expect(path).toBeNull();
        else expect(path).toHaveLength(MAX_DEPTH);
      }),
      { numRuns: 200, seed: 0x16_44 },
    );
  });

  it('property: version says what it must be; "newer version" only for whole numbers above 1 (500 values)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 2, max: 2 ** 40 }), fc.double(), fc.integer({ min: -5, max: 1 }), fc.string(), fc.constant(null), fc.boolean(), fc.array(fc.integer())), (v) => {
        if (v === 1) return;
        const e = refusalOf({ version: v, env: { preset: 'lock' } });
        expect(e.path).toBe('version');
        expectSafeLine(e.message);
        if (typeof v === 'number' && Number.isInteger(v) && v > 1) expect(e.message).toContain('from a newer version of the explorer; this one reads version 1');
        else {
          expect(e.message).toMatch(/^version: must be 1, got /);
          expect(e.message).not.toContain('newer');
        }
      }),
      { numRuns: 500, seed: 0x16_45 },
    );
  });

  it('unknown fields: at most three more names, each escaped and short', () => {
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`\u001b[${i}m${'k'.repeat(100)}`, i]));
    const e = refusalOf({ version: 1, env: { preset: 'lock' }, ...keys });
    expectSafeLine(e.message);
    expect(e.message).toMatch(/: unknown field \(also: .*, .*, .* and 99,996 more\)$/);
    // a plain name stays plain
    expect(refusalOf({ version: 1, env: { preset: 'lock' }, foo: 1 }).message).toBe('foo: unknown field');
    expect(issueToError({ code: 'unrecognized_keys', keys: ['bar'], path: ['env'], message: '', input: {} } as never).message).toBe('env.bar: unknown field');
  });

  it('the page\'s imports: the same escaping, the same depth limit', () => {
    const r = importEnv(JSON.stringify({ turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1]], ['\u001b]0;x\u0007' + 'y'.repeat(1000)]: 1 }));
    expect(r.ok).toBe(false);
    if (!r.ok) expectSafeLine(r.message);
    const bad = importConfig('{"version": \u001b[31m1}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expectSafeLine(bad.message);
      expect(bad.message).toContain('\\u001b');
    }
    for (const text of ['['.repeat(20_000) + ']'.repeat(20_000), `{"version":1,"env":${'['.repeat(70)}${']'.repeat(70)}}`]) {
      for (const imported of [importConfig(text), importEnv(text)]) {
        expect(imported.ok).toBe(false);
        if (!imported.ok) expect(imported.message).toMatch(/^file: the (config|environment) nests lists and objects deeper than 64 levels .*the limit is 64$/);
      }
    }
  });
});

describe('the CLI: regressions', () => {
  const tmp = useCliScratch();

  const oneLine = (stderr: string) => {
    expect(stderr.endsWith('\n')).toBe(true);
    const line = stderr.slice(0, -1);
    expect(line).not.toContain('\n');
    expectSafeLine(line);
    return line;
  };

  it('a 7 MB version string: exit 2, a short line quoting a 40-character prefix', () => {
    const r = cli('run', tmp.file('huge-version.json', { version: 'v'.repeat(7_000_000), env: { preset: 'lock' } }));
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(`error: version: must be 1, got "${'v'.repeat(40)}…"`);
  });

  it('20,000 levels of nesting: exit 2 naming the limit (was exit 1, "Maximum call stack size exceeded")', () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    for (const text of [`{"version":${deep}}`, `{"version":1,"env":{"preset":"lock"},"algorithms":${deep}}`]) {
      const r = cli('run', tmp.file('deep.json', text));
      expect(r.code).toBe(2);
      const line = oneLine(r.stderr);
      expect(line).toContain(`deeper than ${MAX_DEPTH} levels`);
      expect(line).not.toMatch(/call stack/i);
    }
    const adv = cli('advantages', tmp.file('deep-adv.json', `{"rewards":${deep}}`));
    expect(adv.code).toBe(2);
    expect(oneLine(adv.stderr)).toContain(`the limit is ${MAX_DEPTH}`);
  });

  it('raw ESC bytes from a file are never echoed to the terminal', () => {
    const files = {
      'esc-json.json': '{"version": \u001b[31m1}',
      'esc-key.json': JSON.stringify({ version: 1, env: { preset: 'lock' }, '\u001b[2J\u001b[31mred': 1 }),
      'esc-value.json': JSON.stringify({ version: 1, env: { preset: 'lock' }, mode: '\u001b]0;owned\u0007' }),
      'esc-version.json': JSON.stringify({ version: '\u001b[5m1' }),
    };
    for (const [name, text] of Object.entries(files)) {
      const r = cli('run', tmp.file(name, text));
      expect(r.code, name).toBe(2);
      const line = oneLine(r.stderr);
      expect(line, name).not.toContain('\u001b');
      expect(line, name).toContain('\\u001b');
    }
    // the file name too
    const weird = join(tmp.dir, 'a\u001b[31mb.json');
    writeFileSync(weird, '{');
    const r = cli('run', weird);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toContain('a\\u001b[31mb.json');
  });

  it('version 1.5 is "must be 1", not "from a newer version"; version 2 is newer', () => {
    const half = cli('run', tmp.file('v15.json', { version: 1.5, env: { preset: 'lock' } }));
    expect(half.code).toBe(2);
    expect(oneLine(half.stderr)).toBe('error: version: must be 1, got 1.5');
    const two = cli('run', tmp.file('v2.json', { version: 2, env: { preset: 'lock' } }));
    expect(oneLine(two.stderr)).toContain('this config is version 2, from a newer version of the explorer');
  });

  it('readJson: a huge malformed file gives a short escaped line', () => {
    const f = tmp.file('bad-huge.json', `{"version": "${'\u001b'.repeat(10)}${'z'.repeat(1_000_000)}`);
    let e: unknown;
    try {
      readJson(f);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InputError);
    expectSafeLine((e as Error).message);
  });
});
