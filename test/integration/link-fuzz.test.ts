import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { deflateSync, inflateSync } from 'fflate';
import { decodeLink, encodeLink, type LinkDecoded, type LinkState } from '../../src/core/config/link-codec';
import { importConfig, importEnv, type Imported } from '../../src/core/config/import-file';
import { DEFAULT_CONFIG } from '../../src/core/config/defaults';
import { resolveConfig } from '../../src/core/config/resolve';
import { ENV_PRESETS, ENV_PRESET_NAMES } from '../../src/core/env/presets';
import { ALGORITHM_IDS } from '../../src/core/algo/records';
import { METRICS, X_AXES } from '../../src/core/config/view';

// Permalinks and imported files, fuzzed: random and mutated links and files go to the
// decoder; no exception escapes, every rejection names a field ("field: …"), nothing accepted is
// an invalid experiment, and no input is ever evaluated as code. Fixed seeds keep CI
// deterministic; a failure prints the seed, path and counterexample to replay.

const RUNS = 1000;
const run = <T>(arb: fc.Arbitrary<T>, check: (v: T) => void, seed: number, numRuns = RUNS) =>
  fc.assert(
    fc.property(arb, (v) => {
      check(v);
    }),
    { numRuns, seed },
  );

type Config = Record<string, unknown>;
type Rejection = { field: string; message: string };

/**
 * A rejection names its field: a non-empty name, and a message "field: …".
 * An empty key (`v=1&=3`, or `&=x` after a mutation) is named "(empty key)" (configPath in
 * link-codec.ts), never "".
 */
function expectNamed(r: Rejection, input: string): void {
  const where = `input ${JSON.stringify(input.slice(0, 200))} → ${JSON.stringify(r)}`.slice(0, 600);
  expect(typeof r.field, where).toBe('string');
  expect(r.field.length, where).toBeGreaterThan(0);
  expect(typeof r.message, where).toBe('string');
  expect(r.message.startsWith(`${r.field}: `), where).toBe(true);
  expect(r.message.length, where).toBeGreaterThan(r.field.length + 2);
  // the catch-all for unexpected exceptions: reaching it means some path threw something unplanned
  expect(r.message, where).not.toMatch(/^(link|file): could not be read/);
}

let compressedSeen = 0;

/** decodeLink(input), with everything the codec promises checked; returns the result. */
function checkLink(input: string): LinkDecoded {
  const d = decodeLink(input); // a throw here fails the property with the input
  expect(typeof d.ok).toBe('boolean');
  if (!d.ok) {
    expectNamed(d, input);
    expect(typeof d.future).toBe('boolean');
    if (d.future) expect(d.field).toBe('v');
    return d;
  }
  if (d.compressed) compressedSeen++;
  // never an invalid experiment: the decoded config resolves, to the experiment reported
  expect(resolveConfig(d.state.config)).toEqual(d.exp);
  expect(METRICS).toContain(d.state.view.metric);
  expect(X_AXES).toContain(d.state.view.x);
  expect(typeof d.state.embed).toBe('boolean');
  expect(typeof d.state.exact).toBe('boolean');
  if (d.state.hash) expect(Object.keys(d.state.hash).sort()).toEqual(['app', 'by', 'digest']);
  return d;
}

function checkImport(r: Imported, input: string): void {
  if (!r.ok) return expectNamed(r, input);
  expect(resolveConfig(r.config)).toEqual(r.exp);
}

// ---------------------------------------------------------------------------------------------
// Hostile material

const HOSTILE = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '"><svg onload=alert(1)>',
  '"',
  '\\',
  "'",
  '%',
  '%00',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '%uD800',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '9'.repeat(400),
  '-' + '9'.repeat(330),
  '1e999',
  '-1e-999',
  '0x10',
  '1_000',
  '-0',
  '[' .repeat(100) + ']'.repeat(100),
  '['.repeat(100),
  ']]]]',
  '[1,[2,[3,[4,[5]]]]]',
  '[,,,]',
  '{}',
  '[{}]',
  '{"a":1}',
  '__proto__',
  '"__proto__"',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'Infinity',
  '-Infinity',
  'NaN',
  'null',
  'undefined',
  'true',
  '😀',
  '👩‍👩‍👧‍👦',
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\u202E',
  '&&&',
  '==',
  '=',
  '&',
  '#',
  '?',
  ' ',
  '',
  '"\\u0000"',
  '"\\uD800"',
  '"unterminated',
  'eval(1)',
  'Function("return 1")()',
  '${globalThis}',
];

/** Keys the link format knows (config paths, chart keys), and some it must refuse. */
const REAL_KEYS = [
  'v', 'z', 'version', 'env', 'env.preset', 'env.turns', 'env.vocab', 'env.tokensPerTurn', 'env.contexts', 'env.contextsPerBatch',
  'env.rewards', 'env.rewards.0', 'env.rewards.1', 'env.rewards.0.3', 'env.noise', 'env.noise.kind', 'env.noise.sigma', 'env.noise.0.kind',
  'env.noise.1.sigma', 'env.gamma', 'env.turnRewards', 'env.turnRewards.0', 'env.turnRewards.0.1', 'env.turnRewards.0.0.2', 'seedIndices',
  'seedIndices.0', 'algorithms.0.lr', 'algorithms.3.lr', 'policy', 'policy.kind', 'policy.hidden', 'policy.hidden.0', 'policy.activation', 'policy.initScale', 'policy.shareContexts',
  'mode', 'iterations', 'seeds', 'seed', 'groupSize', 'optimizer', 'optimizer.kind', 'optimizer.lr', 'algorithms', 'algorithms.0',
  'algorithms.0.id', 'algorithms.0.preset', 'algorithms.1.clip', 'algorithms.0.epochs', 'algorithms.2.normalization', 'algorithms.0.order',
  'algorithms.0.rule', 'algorithms.0.advantage', 'algorithms.0.mClip', 'algorithms.0.minibatches', 'algorithms.0.criticLr', 'algorithms.15.clip',
  'algorithms.4096.clip', 'algorithms.4097.clip', 'executor', 'backend', 'mcSamples', 'changes', 'changes.0', 'changes.0.at', 'changes.0.path',
  'changes.0.value', 'changes.1.at', 'view.metric', 'view.x', 'view', 'embed', 'exact', 'hash', 'by', 'app',
];
const HOSTILE_KEYS = [
  '',
  '__proto__', '__proto__.polluted', 'constructor', 'constructor.prototype.polluted', 'prototype', 'toString', 'hasOwnProperty',
  'algorithms.__proto__', 'env.constructor', 'a.b.c.d.e.f.g', 'env..preset', '.iterations', 'iterations.', '0', '0.0', 'algorithms.01.clip',
  'algorithms.-1.clip', 'algorithms.1e3.clip', '<script>', '😀', ' v', 'v ', 'V', 'view.metric.x', 'hash.0', 'z.0', 'x'.repeat(100),
];

const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...REAL_KEYS) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

const realValue = fc.oneof(
  fc.constantFrom(...ENV_PRESET_NAMES, ...ALGORITHM_IDS, ...METRICS, ...X_AXES, 'tabular', 'mlp', 'exact', 'sampled', 'sgd', 'adam'),
  fc.constantFrom('[seeupo,grpo]', '[grpo]', '[]', '[8,4]', '[[0,0.3,1,0]]', '[0,1,0,1]', '[[[0.5,0]]]', '[[0.5,0],[1,0,0,1]]', '[0,2]', '999', 'optimizer.lr', '"algorithms[0].clip"', '0123456789ab', 'cpu', 'tensor-webgl', '0.1.0'),
  fc.integer({ min: -10, max: 5000 }).map(String),
  fc.double({ noNaN: true }).map(String),
  fc.boolean().map(String),
  fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { maxLength: 9 }).map((xs) => `[${xs.join(',')}]`),
);

const value = fc.oneof(
  { weight: 4, arbitrary: realValue },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => JSON.stringify(s)) },
);

/** %-encoding, or the text itself where it holds a lone surrogate (which has no UTF-8 form). */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One `key=value` pair, written raw, %-encoded, without its value, or with extra '='. */
const pair = fc.tuple(key, value, fc.constantFrom('raw', 'raw', 'encoded', 'novalue', 'bareeq', 'doubleeq')).map(([k, v, how]) => {
  if (how === 'encoded') return `${enc(k)}=${enc(v)}`;
  if (how === 'novalue') return k;
  if (how === 'bareeq') return `${k}=`;
  if (how === 'doubleeq') return `${k}==${v}`;
  return `${k}=${v}`;
});

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const deflateText = (text: string) => b64url(deflateSync(new TextEncoder().encode(text)));

/** Joined pairs, usually after v=1, sometimes deflated into z=, sometimes in a full URL. */
const pairLink = fc
  .tuple(
    fc.array(pair, { maxLength: 12 }),
    fc.constantFrom('v=1&', 'v=1&', 'v=1&', '#v=1&', '', 'v=2&', 'v=01&', 'v=&', 'v=1&v=1&'),
    fc.constantFrom('plain', 'plain', 'plain', 'z', 'url'),
  )
  .map(([pairs, head, how]) => {
    const body = pairs.join('&');
    if (how === 'z') return `v=1&z=${deflateText(body)}`;
    if (how === 'url') return `https://example.org/explorer/?q=1#${head}${body}`;
    return head + body;
  });

const randomText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => `v=1&${s}`),
  fc.string({ unit: fc.constantFrom('v', '=', '1', '&', '.', '0', '[', ']', ',', '%', 'z', 'a', '"', '#'), maxLength: 80 }),
  fc.webUrl({ withFragments: true, withQueryParameters: true }),
  fc.tuple(fc.webUrl(), fc.string({ unit: 'binary', maxLength: 60 })).map(([u, f]) => `${u}#v=1&${f}`),
  fc.string({ unit: 'binary', maxLength: 300 }).map((s) => `v=1&z=${s}`),
  fc.uint8Array({ maxLength: 300 }).map((b) => `v=1&z=${b64url(b)}`),
  fc.string({ unit: 'binary', maxLength: 300 }).map((s) => `v=1&z=${deflateText(s)}`),
);

// ---------------------------------------------------------------------------------------------
// Valid configs

/** Doubles that survive JSON and links: finite, and no -0 (links, like JSON, write it as 0). */
const dbl = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Drop the keys whose value is undefined (a config file leaves them out). */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const noiseOne = (bernoulli: boolean) =>
  fc.oneof(
    fc.constant({ kind: 'none' }),
    dbl(0, 100).map((sigma) => ({ kind: 'gaussian', sigma })),
    ...(bernoulli ? [fc.constant({ kind: 'bernoulli' })] : []),
  );
const noiseFor = (contexts: number, bernoulli: boolean) =>
  fc.oneof(noiseOne(bernoulli), fc.array(noiseOne(bernoulli), { minLength: contexts, maxLength: contexts }));

const presetEnv = fc.constantFrom(...ENV_PRESET_NAMES).chain((name) => {
  const def = ENV_PRESETS[name]!;
  const { turns, vocab, tokensPerTurn } = def.allowed;
  return fc
    .record({
      turns: opt(fc.integer({ min: turns.min, max: Math.min(turns.max, turns.min + 1) })),
      vocab: opt(fc.integer({ min: vocab.min, max: Math.min(vocab.max, vocab.min + 2) })),
      tokensPerTurn: opt(fc.integer({ min: tokensPerTurn.min, max: tokensPerTurn.max })),
      contextsPerBatch: opt(fc.integer({ min: 1, max: def.contexts })),
      noise: opt(noiseFor(def.contexts, true)), // every preset's rewards are in [0, 1]
      gamma: opt(dbl(0, 1)),
    })
    .map((r) => defined({ preset: name, ...r }));
});

/** A custom table; `big` ones are long enough to travel deflated. */
const customEnv = (big: boolean) =>
  fc
    .record({
      turns: big ? fc.constant(2) : fc.integer({ min: 1, max: 3 }),
      vocab: big ? fc.constant(3) : fc.integer({ min: 2, max: 3 }),
      tokensPerTurn: big ? fc.constant(2) : fc.integer({ min: 1, max: 1 }),
      contexts: fc.integer({ min: big ? 2 : 1, max: 3 }),
      bernoulli: fc.boolean(),
    })
    .chain(({ turns, vocab, tokensPerTurn, contexts, bernoulli }) => {
      const cells = vocab ** (turns * tokensPerTurn);
      const cell = bernoulli ? dbl(0, 1) : fc.oneof(dbl(-1e6, 1e6), dbl(-1, 1), fc.integer({ min: -5, max: 5 }));
      return fc
        .record({
          rewards: fc.array(fc.array(cell, { minLength: cells, maxLength: cells }), { minLength: contexts, maxLength: contexts }),
          // per-turn rewards (T − 1 tables of V^(t·L) per context); noise applies to the terminal table only
          turnRewards: opt(
            fc.array(
              fc.tuple(...Array.from({ length: turns - 1 }, (_, t) => {
                const n = vocab ** ((t + 1) * tokensPerTurn);
                return fc.array(cell, { minLength: n, maxLength: n });
              })),
              { minLength: contexts, maxLength: contexts },
            ),
          ),
          writeContexts: fc.boolean(),
          contextsPerBatch: opt(fc.integer({ min: 1, max: contexts })),
          noise: opt(noiseFor(contexts, bernoulli)),
          gamma: opt(dbl(0, 1)),
        })
        .map(({ writeContexts, ...r }) => defined({ turns, vocab, tokensPerTurn, contexts: writeContexts ? contexts : undefined, ...r }));
    });

const policy = fc.oneof(
  fc.record({ kind: fc.constant('tabular' as const), initScale: opt(dbl(0, 10)) }).map(defined),
  fc
    .record({
      kind: fc.constant('mlp' as const),
      hidden: opt(fc.array(fc.integer({ min: 1, max: 16 }), { maxLength: 2 })),
      activation: opt(fc.constantFrom('tanh', 'relu')),
      initScale: opt(dbl(0, 10)),
    })
    .map(defined),
);

const algorithmEntry = (id: string) =>
  fc
    .record({
      clip: opt(fc.oneof(dbl(1e-6, 10), fc.constantFrom(0.1, 0.2, 0.3))),
      epochs: opt(fc.integer({ min: 1, max: 8 })),
      normalization: opt(fc.constantFrom('none', 'group', 'batch')),
      order: opt(fc.constantFrom('reverse', 'forward', 'random')),
      turnRatio: opt(fc.constantFrom('product', 'geomean')),
      mCorrection: opt(fc.boolean()),
      mClip: opt(fc.oneof(fc.constant(null), dbl(1e-6, 0.999))),
      lr: opt(fc.oneof(fc.constant(null), dbl(1e-6, 1000), fc.constant(0.5))),
    })
    .map((r) => defined({ id, ...r }));

const customAlgorithm = fc
  .tuple(fc.constantFrom('mine', 'x.y+z', '9lives', 'true', 'Infinity', 'A_1'), fc.constantFrom(...ALGORITHM_IDS))
  .chain(([id, preset]) => algorithmEntry(id).map((e) => ({ ...e, preset })));

const algorithms = fc
  .tuple(fc.shuffledSubarray([...ALGORITHM_IDS], { minLength: 1, maxLength: 5 }), opt(customAlgorithm))
  .chain(([ids, custom]) => fc.tuple(...ids.map(algorithmEntry)).map((list) => (custom ? [...list, custom] : list)));

const validConfig = (env: fc.Arbitrary<Config>): fc.Arbitrary<Config> =>
  fc
    .record({
      env,
      policy: opt(policy),
      mode: opt(fc.constantFrom('exact', 'sampled')),
      iterations: fc.integer({ min: 1, max: 30 }),
      seeds: opt(fc.integer({ min: 1, max: 3 })),
      seedIndices: opt(fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 })),
      seed: opt(fc.oneof(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constant(0))),
      groupSize: opt(fc.integer({ min: 2, max: 16 })),
      optimizer: opt(fc.record({ kind: fc.constantFrom('sgd', 'adam'), lr: fc.oneof(dbl(1e-6, 1000), fc.constant(0.3)) })),
      algorithms: opt(algorithms),
      executor: opt(fc.constantFrom('auto', 'tensor', 'cpu')),
      backend: opt(fc.constantFrom('webgpu', 'webgl', 'wasm', 'cpu')),
      mcSamples: opt(fc.integer({ min: 16, max: 100_000 })),
      changes: opt(
        fc.array(fc.record({ at: fc.nat(), lr: fc.boolean(), i: fc.nat(), value: fc.oneof(dbl(1e-6, 10), fc.constant(0.3)) }), { maxLength: 4 }),
      ),
    })
    .map(({ changes, seedIndices, ...c }) => {
      const config: Config = defined({ version: 1, ...c });
      // seed indices below the experiment's seeds (16 by default)
      if (seedIndices) config.seedIndices = seedIndices.filter((i) => i < (c.seeds ?? 16)).concat(seedIndices.some((i) => i < (c.seeds ?? 16)) ? [] : [0]);
      if ((c.policy as { kind?: string } | undefined)?.kind === 'mlp' && c.executor === 'cpu') config.executor = 'tensor';
      const n = (c.algorithms ?? ALGORITHM_IDS).length;
      if (changes)
        config.changes = changes.map((ch) => ({ at: ch.at % c.iterations, path: ch.lr ? 'optimizer.lr' : `algorithms[${ch.i % n}].clip`, value: ch.value }));
      return config;
    });

const linkState = (config: fc.Arbitrary<Config>): fc.Arbitrary<LinkState> =>
  fc.record({
    config,
    view: fc.record({ metric: fc.constantFrom(...METRICS), x: fc.constantFrom(...X_AXES) }),
    hash: fc.oneof(
      fc.constant(null),
      fc.record({
        digest: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 }),
        by: fc.constantFrom('cpu', 'tensor-webgpu', 'tensor-webgl', 'tensor-wasm', 'tensor-cpu'),
        app: fc.tuple(fc.nat(9999), fc.nat(9999), fc.nat(9999)).map((v) => v.join('.')),
      }),
    ),
    embed: fc.boolean(),
    exact: fc.boolean(),
  });

const smallState = linkState(validConfig(fc.oneof(presetEnv, customEnv(false))));
const bigState = linkState(validConfig(customEnv(true)));

// ---------------------------------------------------------------------------------------------
// Mutations

const MUTATIONS = ['delete', 'insert', 'replace', 'swap', 'duplicate', 'truncate', 'zbyte', 'zinner', 'encode', 'hostile'] as const;
type Mutation = { op: (typeof MUTATIONS)[number]; at: number; at2: number; text: string; byte: number };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom(...MUTATIONS),
  at: fc.nat(),
  at2: fc.nat(),
  text: fc.oneof(
    fc.constantFrom('&', '=', '%', '[', ']', ',', '"', '.', '0', '9', '-', 'e', 'z', '\\', '#', ' ', '\u0000', '😀', '\uD800', 'v=1', 'z=', '&&'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
    fc.constantFrom(...HOSTILE),
  ),
  byte: fc.integer({ min: 1, max: 255 }),
});

function mutateText(s: string, m: Mutation): string {
  const i = m.at % (s.length + 1);
  switch (m.op) {
    case 'delete':
      return s.slice(0, i) + s.slice(i + 1);
    case 'replace':
      return s.slice(0, i) + m.text + s.slice(i + 1);
    case 'truncate':
      return s.slice(0, i);
    default:
      return s.slice(0, i) + m.text + s.slice(i);
  }
}

const Z = /(^|&)z=([^&]*)/;

function mutate(s: string, m: Mutation): string {
  const parts = s.split('&');
  const p = m.at % parts.length;
  const q = m.at2 % parts.length;
  switch (m.op) {
    case 'swap':
      [parts[p], parts[q]] = [parts[q]!, parts[p]!];
      return parts.join('&');
    case 'duplicate':
      parts.splice(q, 0, parts[p]!);
      return parts.join('&');
    case 'encode': {
      const part = parts[p]!;
      const eq = part.indexOf('=');
      parts[p] = eq < 0 ? enc(part) : `${part.slice(0, eq + 1)}${enc(part.slice(eq + 1))}`;
      return parts.join('&');
    }
    case 'hostile': {
      const part = parts[p]!;
      const eq = part.indexOf('=');
      parts[p] = eq < 0 ? `${part}=${m.text}` : m.at2 % 2 ? `${m.text}${part.slice(eq)}` : `${part.slice(0, eq + 1)}${m.text}`;
      return parts.join('&');
    }
    case 'zbyte':
    case 'zinner': {
      const z = Z.exec(s);
      if (!z) return mutateText(s, { ...m, op: 'insert' });
      const bytes = new Uint8Array(Buffer.from(z[2]!, 'base64url'));
      let next: Uint8Array = bytes;
      if (m.op === 'zbyte') {
        if (bytes.length) bytes[m.at % bytes.length]! ^= m.byte;
      } else {
        let inner: string;
        try {
          inner = new TextDecoder().decode(inflateSync(bytes));
        } catch {
          inner = '';
        }
        next = deflateSync(new TextEncoder().encode(mutate(inner, { ...m, op: MUTATIONS[m.byte % 6]! })));
      }
      return s.replace(Z, `$1z=${b64url(next)}`);
    }
    default:
      return mutateText(s, m);
  }
}

// ---------------------------------------------------------------------------------------------

describe('decodeLink on random text', () => {
  it('random strings, URLs and z payloads: never throws, every rejection names a field', () => {
    run(randomText, checkLink, 0x5eed01);
  });

  it('key=value joins of real keys and hostile values: never throws, every rejection names a field', () => {
    run(pairLink, checkLink, 0x5eed02);
  });

  it('no prototype is polluted by the keys it read', () => {
    run(pairLink, (link) => void decodeLink(link), 0x5eed03);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Array.prototype).not.toHaveProperty('polluted');
  });
});

describe('decodeLink on valid links and their mutations', () => {
  function roundTrip(s: LinkState): string {
    const link = encodeLink(s);
    const d = checkLink(link);
    expect(d.ok, `${link.slice(0, 300)} → ${d.ok ? '' : d.message}`).toBe(true);
    if (d.ok) {
      // the experiment, field for field; its warnings are compared in their own test below
      const { warnings: _, ...want } = resolveConfig(s.config);
      expect({ ...d.exp, warnings: undefined }).toEqual({ ...want, warnings: undefined }); // checkLink: d.exp is resolveConfig(d.state.config)
      expect(d.state.view).toEqual(s.view);
      expect(d.state.hash).toEqual(s.hash);
      expect(d.state.embed).toBe(s.embed);
      expect(d.state.exact).toBe(s.exact);
      // the link of a decoded link (its pairs may come in another order) is the same experiment again
      const again = decodeLink(encodeLink(d.state));
      expect(again.ok && again.exp).toEqual(d.exp);
    }
    return link;
  }

  it('every generated config is valid (the generator is sound)', () => {
    run(smallState, (s) => void resolveConfig(s.config), 0x5eed10);
  });

  it('decode(encode(c)) gives the same experiment', () => {
    run(smallState, (s) => void roundTrip(s), 0x5eed11);
  });

  it('the decoded experiment has the same warnings', () => {
    // A field the rule ignores stays in the link even when it equals the preset's value
    // ({id: 'rloo', mClip: null} → `algorithms.0.mClip=null`), so the warning it raises
    // ("mClip ignored by the reinforce rule") comes back when the link is opened.
    run(smallState, (s) => {
      const d = decodeLink(encodeLink(s));
      expect(d.ok && d.exp.warnings).toEqual(resolveConfig(s.config).warnings);
    }, 0x5eed15);
  });

  it('deflated links (custom tables) round-trip bit for bit', () => {
    compressedSeen = 0;
    run(bigState, (s) => void roundTrip(s), 0x5eed12);
    expect(compressedSeen).toBe(RUNS);
  });

  it('mutated links: never throws, every rejection names a field', () => {
    run(
      fc.tuple(smallState, fc.array(mutation, { minLength: 1, maxLength: 4 })),
      ([s, ms]) => void checkLink(ms.reduce(mutate, encodeLink(s))),
      0x5eed13,
    );
  });

  it('mutated deflated links (bytes of z, the text inside z): never throws, every rejection names a field', () => {
    const zMutation = mutation.map((m) => ({ ...m, op: m.byte % 3 ? ('zinner' as const) : ('zbyte' as const) }));
    run(
      fc.tuple(bigState, fc.array(fc.oneof(zMutation, mutation), { minLength: 1, maxLength: 3 })),
      ([s, ms]) => void checkLink(ms.reduce(mutate, encodeLink(s))),
      0x5eed14,
    );
  });
});

describe('imported files', () => {
  const baseConfig = fc.oneof(fc.constant(DEFAULT_CONFIG as Config), validConfig(presetEnv));

  it('random JSON and text: never throws, every rejection names a field', () => {
    const text = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.anything({ maxDepth: 3 }).map((v) => {
        try {
          return JSON.stringify(v) ?? 'undefined';
        } catch {
          return '{';
        }
      }),
      fc.string({ unit: 'binary', maxLength: 100 }),
      fc.dictionary(fc.constantFrom(...REAL_KEYS, ...HOSTILE_KEYS), fc.jsonValue({ maxDepth: 2 })).map((o) => JSON.stringify({ version: 1, ...o })),
    );
    run(fc.tuple(text, baseConfig), ([t, base]) => {
      checkImport(importConfig(t), t);
      checkImport(importEnv(t, base), t);
    }, 0x5eed20);
  });

  /** Replace, remove or add one field somewhere inside `root`. */
  const jsonEdit = fc.record({ at: fc.nat(), how: fc.constantFrom('replace', 'remove', 'add'), key: fc.constantFrom(...REAL_KEYS, ...HOSTILE_KEYS, 'kind', 'sigma', 'id'), value: fc.jsonValue({ maxDepth: 2 }) });
  function editJson(root: unknown, e: { at: number; how: string; key: string; value: unknown }): unknown {
    const copy = structuredClone(root);
    const nodes: [Record<string, unknown> | unknown[], string | number][] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach((x, i) => (nodes.push([v, i]), walk(x)));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (nodes.push([v as Record<string, unknown>, k]), walk(x));
    };
    walk(copy);
    if (nodes.length === 0) return e.value;
    const [parent, k] = nodes[e.at % nodes.length]!;
    if (e.how === 'replace') (parent as Record<string | number, unknown>)[k] = e.value;
    else if (e.how === 'remove') Array.isArray(parent) ? parent.splice(k as number, 1) : delete parent[k as string];
    else if (!Array.isArray(parent)) Object.defineProperty(parent, e.key, { value: e.value, enumerable: true, configurable: true, writable: true });
    return copy;
  }

  it('mutated valid config files: never throws, every rejection names a field', () => {
    run(
      fc.tuple(validConfig(fc.oneof(presetEnv, customEnv(false))), fc.array(jsonEdit, { maxLength: 3 }), fc.array(mutation, { maxLength: 2 }), fc.boolean()),
      ([config, edits, ms, pretty]) => {
        const json = JSON.stringify(edits.reduce(editJson, config), null, pretty ? 2 : 0);
        const text = ms.reduce((s, m) => mutateText(s, m), json);
        const r = importConfig(text);
        checkImport(r, text);
        if (edits.length === 0 && ms.length === 0) expect(r.ok).toBe(true);
      },
      0x5eed21,
    );
  });

  it('mutated env files: never throws, every rejection names a field', () => {
    run(
      fc.tuple(customEnv(false), baseConfig, fc.array(jsonEdit, { maxLength: 3 }), fc.array(mutation, { maxLength: 2 })),
      ([env, base, edits, ms]) => {
        const text = ms.reduce((s, m) => mutateText(s, m), JSON.stringify(edits.reduce(editJson, env)));
        const r = importEnv(text, base);
        checkImport(r, text);
        if (edits.length === 0 && ms.length === 0) expect(r.ok).toBe(true);
      },
      0x5eed22,
    );
  });
});

describe('nothing from a link or a file is evaluated', () => {
  const CANARY = 'Canary7xq';
  /** Links that reach the schema with the canary in keys and values (policy, noise, algorithms: the parsers zod builds per call). */
  const canaryLinks = fc
    .tuple(fc.constantFrom('policy', 'env.noise', 'algorithms.0', 'optimizer', ''), fc.constantFrom(...HOSTILE, CANARY), pairLink)
    .map(([where, hostile, rest]) => {
      const value = JSON.stringify(`${hostile}${CANARY}`);
      const at = where ? `${where}.` : '';
      const head = where === 'policy' ? 'policy.kind=mlp&' : where === 'env.noise' ? 'env.preset=lock&env.noise.kind=gaussian&env.noise.sigma=1&' : where === 'algorithms.0' ? 'algorithms=[grpo]&' : '';
      return [`v=1&${head}${at}${CANARY}=${enc(value)}`, `v=1&${head}${at}kind=${enc(value)}`, rest, `${rest}&${CANARY}=${value}`];
    });
  const batch = fc.sample(fc.oneof(canaryLinks, randomText.map((t) => [t])), { numRuns: RUNS, seed: 0x5eed30 }).flat();
  const files = fc
    .sample(fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...HOSTILE)), { numRuns: 200, seed: 0x5eed31 })
    .map(([v, h]) => JSON.stringify({ version: 1, env: { preset: 'lock', noise: { kind: `${h}${CANARY}` } }, policy: { kind: 'mlp', [CANARY]: v }, [CANARY]: v }));
  const decodeAll = () => {
    const out = batch.map((l) => decodeLink(l));
    for (const f of files) out.push(importConfig(f) as never, importEnv(f) as never);
    return out;
  };

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('eval is never called', () => {
    const spy = vi.spyOn(globalThis, 'eval');
    decodeAll();
    expect(spy).not.toHaveBeenCalled();
  });

  it('Function never compiles text from a link or a file', () => {
    // zod 4 compiles each object schema's parser with `new Function` (its JIT), from the schema's
    // own keys. Whatever it compiles must never contain anything the input brought.
    const Real = globalThis.Function;
    const compiled: string[] = [];
    const spy = new Proxy(Real, {
      construct: (t, args) => (compiled.push(args.map(String).join('\n')), Reflect.construct(t, args)),
      apply: (t, self, args) => (compiled.push(args.map(String).join('\n')), Reflect.apply(t, self, args)),
    });
    globalThis.Function = spy;
    let results;
    try {
      results = decodeAll();
    } finally {
      globalThis.Function = Real;
    }
    expect(results.length).toBeGreaterThan(RUNS);
    for (const code of compiled) for (const marker of [CANARY, '__pwned', 'alert(', '<script', '<img', 'javascript:', 'onerror']) expect(code).not.toContain(marker);
  });

  it('Function is never called while decoding', () => {
    // zod 4 would compile its object parsers at run time (generateFastpass) unless configured
    // jitless, which src/core/config/fields.ts does; this test keeps it that way.
    const Real = globalThis.Function;
    const calls: string[] = [];
    const trap = new Proxy(Real, {
      construct: (_t, args) => {
        calls.push(args.map(String).join('\n').slice(0, 300));
        throw new EvalError('Function is not to be called while decoding');
      },
      apply: (_t, _self, args) => {
        calls.push(args.map(String).join('\n').slice(0, 300));
        throw new EvalError('Function is not to be called while decoding');
      },
    });
    globalThis.Function = trap;
    try {
      decodeAll();
    } finally {
      globalThis.Function = Real;
    }
    expect(calls.length, `Function was called ${calls.length} times, first with:\n${calls[0]}`).toBe(0);
  });

  it('the source has no eval, no Function constructor and no raw HTML', () => {
    const root = join(import.meta.dirname, '..', '..', 'src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|tsx|js|mjs)$/.test(name)) files.push(path);
      }
    };
    walk(root);
    const scanned = files.map((f) => relative(root, f));
    for (const dir of ['core/', 'ui/', 'cli/', 'worker/']) expect(scanned.some((f) => f.startsWith(dir)), dir).toBe(true);
    const FORBIDDEN: [string, RegExp][] = [
      ['eval(', /(^|[^\w$.])eval\s*\(/],
      ['new Function', /\bnew\s+Function\b/],
      ['Function(', /(^|[^\w$.])Function\s*\(/],
      ['dangerouslySetInnerHTML', /dangerouslySetInnerHTML/],
      ['innerHTML', /\binnerHTML\b/],
      ['outerHTML', /\bouterHTML\b/],
      ['insertAdjacentHTML', /insertAdjacentHTML/],
      ['document.write', /document\.write/],
      ['createContextualFragment', /createContextualFragment/],
      ['setTimeout/setInterval with a string', /set(Timeout|Interval)\s*\(\s*['"`]/],
    ];
    const found: string[] = [];
    for (const f of files) {
      const lines = readFileSync(f, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const [what, re] of FORBIDDEN) if (re.test(line)) found.push(`${relative(root, f)}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
