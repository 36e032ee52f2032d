import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import { COMPRESS_OVER, decodeLink, encodeLink, fragmentOf, MAX_LINK_CHARS, type LinkDecoded, type LinkState } from '../src/core/config/link-codec';
import { MAX_INFLATED_BYTES } from '../src/core/config/link-compress';
import { LiteralError, MAX_LITERAL_DEPTH, parseLiteral, printLiteral } from '../src/core/config/link-literal';
import { importConfig, importEnv } from '../src/core/config/import-file';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { DEFAULT_VIEW, type View } from '../src/core/config/view';

// Permalinks, by example: the exact text of short links, round trips through
// resolveConfig, the `z=` form, and every kind of rejection naming its field. The fuzz side is
// integration/link-fuzz.test.ts.

type Config = Record<string, unknown>;

function state(config: Config, over: Partial<LinkState> = {}): LinkState {
  return { config, view: { ...DEFAULT_VIEW }, hash: null, embed: false, exact: true, ...over };
}

function decoded(link: string): Extract<LinkDecoded, { ok: true }> {
  const d = decodeLink(link);
  if (!d.ok) throw new Error(`expected ${JSON.stringify(link.slice(0, 80))} to decode, got ${d.message}`);
  return d;
}

/** Expect a rejection naming `field`, with a message "field: …" mentioning every string in `mentions`. */
function rejected(link: string, field: string, ...mentions: (string | RegExp)[]): Extract<LinkDecoded, { ok: false }> {
  const d = decodeLink(link);
  if (d.ok) throw new Error(`expected ${JSON.stringify(link.slice(0, 80))} to be rejected at ${field}, but it decoded`);
  expect(d.field).toBe(field);
  expect(d.message.startsWith(`${field}: `), d.message).toBe(true);
  expect(d.message).not.toContain('\n');
  for (const m of mentions) expect(d.message).toMatch(m);
  return d;
}

/** The link for `config`, decoded again: the same experiment, every field. */
function roundTrip(config: Config, over: Partial<LinkState> = {}): { link: string; back: Extract<LinkDecoded, { ok: true }> } {
  const link = encodeLink(state(config, over));
  const back = decoded(link);
  expect(resolveConfig(back.state.config)).toEqual(resolveConfig(config));
  expect(back.exp).toEqual(resolveConfig(config));
  return { link, back };
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const zOf = (pairs: string) => b64url(deflateSync(new TextEncoder().encode(pairs)));

describe('the default experiment', () => {
  it('encodes to exactly v=1', () => {
    expect(encodeLink(state(structuredClone(DEFAULT_CONFIG) as Config))).toBe('v=1');
  });

  it('#v=1, v=1 and the empty fragment decode to the defaults', () => {
    const defaults = resolveConfig(DEFAULT_CONFIG);
    for (const link of ['#v=1', 'v=1', '', 'https://example.org/explorer/#v=1', 'https://example.org/explorer/']) {
      const d = decoded(link);
      expect(d.exp).toEqual(defaults);
      expect(resolveConfig(d.state.config)).toEqual(defaults);
      expect(d.state.view).toEqual(DEFAULT_VIEW);
      expect(d.state.hash).toBeNull();
      expect(d.state.embed).toBe(false);
      expect(d.state.exact).toBe(true);
      expect(d.compressed).toBe(false);
    }
    expect(decoded('').empty).toBe(true);
    expect(decoded('#').empty).toBe(true);
    expect(decoded('https://example.org/').empty).toBe(true);
    expect(decoded('#v=1').empty).toBe(false);
  });
});

describe('readable links', () => {
  const config: Config = {
    ...structuredClone(DEFAULT_CONFIG),
    env: { preset: 'two-prompts' },
    iterations: 100,
    algorithms: [{ id: 'seeupo' }, { id: 'grpo', clip: 0.3 }],
  };

  it('a short config reads as key=value pairs, defaults left out', () => {
    expect(encodeLink(state(config))).toBe('v=1&env.preset=two-prompts&iterations=100&algorithms=[seeupo,grpo]&algorithms.1.clip=0.3');
  });

  it('round-trips to the same experiment', () => {
    const { back } = roundTrip(config);
    expect(back.exp.envPreset).toBe('two-prompts');
    expect(back.exp.iterations).toBe(100);
    expect(back.exp.algorithms.map((a) => a.id)).toEqual(['seeupo', 'grpo']);
    expect(back.exp.algorithms[1]!.clip).toBe(0.3);
    expect(back.exp.env.rewards).toHaveLength(2);
    expect(back.exp.env.rewards[0]).toBeInstanceOf(Float64Array);
  });

  it('a hand-written link with the pairs in another order gives the same experiment', () => {
    const d = decoded('#algorithms.1.clip=0.3&iterations=100&v=1&algorithms=[seeupo,grpo]&env.preset=two-prompts');
    expect(d.exp).toEqual(resolveConfig(config));
  });

  it('fields equal to the preset are left out', () => {
    expect(encodeLink(state({ ...DEFAULT_CONFIG, algorithms: [{ id: 'grpo', normalization: 'group' }] }))).toBe('v=1&algorithms=[grpo]');
    expect(encodeLink(state({ ...DEFAULT_CONFIG, algorithms: [{ id: 'seeupo', order: 'reverse', clip: 0.2, epochs: 4 }] }))).toBe('v=1&algorithms=[seeupo]');
    // an entry named after a preset it does not follow keeps its preset and the changed field
    expect(encodeLink(state({ ...DEFAULT_CONFIG, algorithms: [{ id: 'mine', preset: 'grpo', normalization: 'batch', clip: 0.2 }] }))).toBe(
      'v=1&algorithms=[mine]&algorithms.0.preset=grpo&algorithms.0.normalization=batch',
    );
  });

  it('policies, modes, optimizers, env sizes and noise round-trip', () => {
    roundTrip({ ...DEFAULT_CONFIG, policy: { kind: 'mlp', hidden: [8, 4], activation: 'relu', initScale: 0.5 }, iterations: 20, seeds: 2 });
    roundTrip({ ...DEFAULT_CONFIG, mode: 'exact', optimizer: { kind: 'adam', lr: 0.01 }, seed: 2 ** 31 - 1, groupSize: 16 });
    roundTrip({ ...DEFAULT_CONFIG, env: { preset: 'needle', turns: 3, vocab: 5, noise: { kind: 'gaussian', sigma: 0.25 }, gamma: 0.9 } });
    roundTrip({ ...DEFAULT_CONFIG, env: { preset: 'two-prompts', contextsPerBatch: 1, noise: [{ kind: 'none' }, { kind: 'bernoulli' }] } });
    roundTrip({ ...DEFAULT_CONFIG, executor: 'tensor', backend: 'wasm', mcSamples: 1000 });
    roundTrip({
      ...DEFAULT_CONFIG,
      algorithms: [{ id: 'x.y+z', preset: 'seeupo', mClip: 0.5, mCorrection: false, turnRatio: 'geomean' }, { id: '1st', rule: 'ppu', advantage: 'gae', criticLr: null, gaeLambda: 0.9 }],
    });
  });

  it('strings that are not bare words travel quoted and %-encoded', () => {
    const config = { ...DEFAULT_CONFIG, algorithms: [{ id: 'true', preset: 'grpo' }, { id: 'Infinity', preset: 'rloo' }, { id: '9lives', preset: 'reinforce' }] };
    const { link } = roundTrip(config);
    expect(link).toBe('v=1&algorithms=[%22true%22,%22Infinity%22,%229lives%22]&algorithms.0.preset=grpo&algorithms.1.preset=rloo&algorithms.2.preset=reinforce');
  });
});

describe('custom reward tables', () => {
  const special = [0.1 + 0.2, 1e-7, -0.5, 123456.789, 5e-324, 1.7976931348623157e308, -1e21, 1 / 3];
  const cells = Array.from({ length: 512 }, (_, i) => (i < special.length ? special[i]! : Math.sin(i) * 10 ** ((i % 9) - 4)));
  const config: Config = { ...DEFAULT_CONFIG, env: { turns: 3, vocab: 8, tokensPerTurn: 1, rewards: [cells] }, iterations: 10, seeds: 1 };

  it('a 512-cell table is deflated into z= and shorter than the readable pairs', () => {
    const link = encodeLink(state(config));
    expect(link).toMatch(/^v=1&z=[A-Za-z0-9_-]+$/);
    const readable = `env.turns=3&env.vocab=8&env.tokensPerTurn=1&env.rewards.0=${printLiteral(cells)}&iterations=10&seeds=1`;
    expect(readable.length).toBeGreaterThan(COMPRESS_OVER);
    expect(link.length).toBeLessThan(readable.length);
  });

  it('round-trips every float bit for bit', () => {
    const { back } = roundTrip(config);
    expect(back.compressed).toBe(true);
    const got = (back.state.config.env as { rewards: number[][] }).rewards[0]!;
    expect(got).toHaveLength(512);
    const same = got.every((x, i) => Object.is(x, cells[i]));
    expect(same).toBe(true);
    const f64 = back.exp.env.rewards[0]!;
    for (let i = 0; i < 512; i++) expect(Object.is(f64[i], cells[i]), `cell ${i}: ${f64[i]} vs ${cells[i]}`).toBe(true);
  });

  it('a small table stays readable', () => {
    const { link } = roundTrip({ ...DEFAULT_CONFIG, env: { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0.1 + 0.2, -1e-7]] } });
    expect(link).toBe('v=1&env.turns=1&env.vocab=2&env.tokensPerTurn=1&env.rewards.0=[0.30000000000000004,-1e-7]');
  });

  it('two contexts with their own noise round-trip', () => {
    roundTrip({
      ...DEFAULT_CONFIG,
      env: { turns: 2, vocab: 2, tokensPerTurn: 1, contexts: 2, contextsPerBatch: 1, rewards: [[0, 0.25, 0.5, 1], [1, 0, 0, 0.75]], noise: [{ kind: 'bernoulli' }, { kind: 'gaussian', sigma: 2 }], gamma: 0.5 },
    });
  });
});

describe('chart choices, embed, exactness and the results hash', () => {
  const small: Config = { ...DEFAULT_CONFIG, iterations: 30 };
  const view: View = { metric: 'clipFraction', x: 'rollouts' };
  const hash = { digest: '0123456789ab', by: 'tensor-webgl', app: '0.1.0' };

  it('view, embed, exact=0 and the results hash round-trip through the link', () => {
    const { link, back } = roundTrip(small, { view, embed: true, exact: false, hash });
    expect(link).toBe('v=1&iterations=30&view.metric=clipFraction&view.x=rollouts&embed=1&exact=0&hash=0123456789ab&by=tensor-webgl&app=0.1.0');
    expect(back.state.view).toEqual(view);
    expect(back.state.embed).toBe(true);
    expect(back.state.exact).toBe(false);
    expect(back.state.hash).toEqual(hash);
  });

  it('a hash without by or app is refused, naming the missing one', () => {
    rejected('v=1&hash=0123456789ab&app=0.1.0', 'by', 'hash, by and app');
    rejected('v=1&hash=0123456789ab&by=cpu', 'app', 'hash, by and app');
    rejected('v=1&by=cpu&app=0.1.0', 'hash', 'hash, by and app');
  });

  it('bad extras are refused by name', () => {
    rejected('v=1&view.metric=J', 'view.metric', '"entropy"');
    rejected('v=1&view.x=time', 'view.x', '"iterations"');
    rejected('v=1&embed=2', 'embed', 'must be 1 or 0');
    rejected('v=1&exact=yes', 'exact', 'must be 1 or 0');
    rejected('v=1&hash=0123456789AB&by=cpu&app=0.1.0', 'hash', '12 hex digits');
    rejected('v=1&hash=0123456789ab&by=gpu&app=0.1.0', 'by', 'tensor-');
    rejected('v=1&hash=0123456789ab&by=cpu&app=1.2', 'app', 'a version like 0.1.0');
  });
});

describe('scheduled changes', () => {
  const config: Config = {
    ...DEFAULT_CONFIG,
    iterations: 50,
    algorithms: [{ id: 'grpo' }, { id: 'seeupo' }],
    changes: [
      { at: 10, path: 'optimizer.lr', value: 0.1 },
      { at: 20, path: 'algorithms[1].clip', value: 0.05 },
      { at: 20, path: 'optimizer.lr', value: 1e-3 },
    ],
  };

  it('scheduled lr and clip changes round-trip through the link', () => {
    const { link, back } = roundTrip(config);
    expect(link).toContain('changes.0.at=10&changes.0.path=optimizer.lr&changes.0.value=0.1');
    expect(link).toContain('changes.1.path=%22algorithms[1].clip%22');
    expect(back.exp.changes).toEqual([
      { at: 10, path: 'optimizer.lr', value: 0.1 },
      { at: 20, path: 'algorithms[1].clip', value: 0.05 },
      { at: 20, path: 'optimizer.lr', value: 1e-3 },
    ]);
  });

  it('no changes is the default and leaves no trace', () => {
    expect(encodeLink(state({ ...DEFAULT_CONFIG, changes: [] }))).toBe('v=1');
  });

  it('a change at or past the last iteration is refused as changes[0].at', () => {
    rejected('v=1&iterations=50&changes.0.at=50&changes.0.path=optimizer.lr&changes.0.value=0.1', 'changes[0].at', '0 to 49', 'got 50');
    rejected('v=1&changes.0.at=1&changes.0.path="algorithms[9].clip"&changes.0.value=0.1&algorithms=[grpo]', 'changes[0].path', 'does not exist');
    rejected('v=1&changes.0.at=1&changes.0.path=optimizer.lr&changes.0.value=0', 'changes[0].value', '> 0');
    rejected('v=1&changes.0.at=1&changes.0.path=optimizer.lr', 'changes[0].value', 'finite number');
  });
});

describe('rejections name the field', () => {
  it('v missing, malformed or from the future', () => {
    rejected('iterations=5', 'v', 'v=1');
    rejected('#iterations=5', 'v', 'v=1');
    rejected('v=one', 'v', 'must be 1');
    rejected('v=0', 'v', 'must be 1');
    const future = rejected('v=2&anything=goes', 'v', 'newer version', 'version 2');
    expect(future.future).toBe(true);
    expect(rejected('v=9', 'v', /newer version/).future).toBe(true);
    expect(rejected('v=0', 'v').future).toBe(false);
    rejected('v=1&version=1', 'version', 'v=1');
  });

  it('unknown keys are named', () => {
    expect(rejected('v=1&foo=1', 'foo', 'unknown field').future).toBe(false);
    rejected('v=1&env.preset=lock&env.colour=red', 'env.colour', 'unknown field');
    rejected('v=1&algorithms=[grpo]&algorithms.0.clipp=0.3', 'algorithms[0].clipp', 'unknown field');
    rejected('v=1&view.colour=red', 'view', 'unknown field'); // not a chart key, so a config field named view
    rejected('v=1&__proto__=1', '__proto__');
    rejected('v=1&constructor=1', 'constructor', 'unknown field');
    rejected('v=1&toString=1', 'toString', 'unknown field');
    rejected('v=1&env.__proto__.preset=lock', 'env.__proto__.preset', '"__proto__" is not a field name');
  });

  it('a bad number names the config path in bracket form', () => {
    rejected('v=1&algorithms=[seeupo,grpo]&algorithms.1.clip=abc', 'algorithms[1].clip', '> 0', 'abc');
    rejected('v=1&algorithms=[seeupo,grpo]&algorithms.1.clip=11', 'algorithms[1].clip', '≤ 10', 'got 11');
    rejected('v=1&algorithms=[seeupo,grpo]&algorithms.1.clip=0.3x', 'algorithms[1].clip', 'not a value');
    rejected('v=1&iterations=1.5', 'iterations', 'an integer');
    rejected('v=1&iterations=1e400', 'iterations', 'got Infinity');
    rejected('v=1&iterations=Infinity', 'iterations', 'finite');
    rejected('v=1&iterations=NaN', 'iterations', 'finite');
    rejected('v=1&iterations=', 'iterations', 'missing value');
    rejected('v=1&env.turns=2&env.vocab=2&env.tokensPerTurn=1&env.rewards.0=[0,1,x,0]', 'env.rewards[0][2]', 'finite number', '"x"');
  });

  it('a key given twice, directly or through a longer key', () => {
    rejected('v=1&iterations=5&iterations=5', 'iterations', 'given twice');
    rejected('v=1&iterations=5&iterations=6', 'iterations', 'given twice');
    rejected('v=1&algorithms=[{}]', 'algorithms', 'not a value');
    rejected('v=1&algorithms=[grpo]&algorithms.0.id=grpo', 'algorithms[0].id', 'given twice');
  });

  it('keys without a value, lists with holes, keys nested too deep', () => {
    rejected('v=1&iterations', 'iterations', 'has no value');
    rejected('v=1&changes.1.at=1&changes.1.path=optimizer.lr&changes.1.value=1', 'changes[0]', 'is missing');
    rejected('v=1&a.b.c.d.e.f.g=1', 'a.b.c.d.e.f.g', 'nested too deep');
    rejected('v=1&iterations.0=1&iterations=2', 'iterations[0]', 'is a value');
  });

  it('an empty key names a field', () => {
    // regression: an empty key was once refused with field "" (found by the fuzz test)
    const d = decodeLink('v=1&=3');
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.field).not.toBe('');
      expect(d.message.startsWith(`${d.field}: `)).toBe(true);
    }
  });

  it('bad %-encoding', () => {
    rejected('v=1&%E0%A4%A=1', 'link', '%-encoded');
    rejected('v=1&iterations=%ZZ', 'iterations', '%-encoded');
    rejected('v=1&iterations=%', 'iterations', '%-encoded');
    rejected('v=%FF', 'v', '%-encoded');
  });

  it('z that is not base64url, cut short, mixed with other keys, or a deflate bomb', () => {
    rejected('v=1&z=abc!def', 'z', 'base64url');
    rejected('v=1&z=a', 'z', 'base64url');
    const good = encodeLink(state({ ...DEFAULT_CONFIG, env: { turns: 3, vocab: 8, tokensPerTurn: 1, rewards: [Array.from({ length: 512 }, (_, i) => Math.sqrt(i + 0.5) / 3)] } }));
    expect(good).toMatch(/^v=1&z=/);
    decoded(good);
    rejected(good.slice(0, good.length - 20), 'z', /cut short|base64url/);
    rejected(`${good}&iterations=5`, 'z', 'iterations');
    rejected(`v=1&z=${zOf('v=1&iterations=5')}`, 'v', 'inside the deflated part');
    rejected(`v=1&z=${zOf('iterations=5&z=abc')}`, 'z', 'inside the deflated part');
    rejected(`v=1&z=${zOf('iterations=5&hash=zz')}`, 'hash', '12 hex digits');
    rejected(`v=1&z=${b64url(deflateSync(new Uint8Array([0xff, 0xfe, 0x00])))}`, 'z', 'text');
    expect(decoded(`v=1&z=${zOf('iterations=5')}`).exp.iterations).toBe(5);

    const bomb = b64url(deflateSync(new Uint8Array(5_000_000)));
    expect(bomb.length).toBeLessThan(MAX_LINK_CHARS);
    rejected(`v=1&z=${bomb}`, 'z', MAX_INFLATED_BYTES.toLocaleString('en-US'));
    const textBomb = zOf(`iterations=5&env.preset=${'a'.repeat(2 * MAX_INFLATED_BYTES)}`);
    rejected(`v=1&z=${textBomb}`, 'z', 'inflates past');
  });

  it('a link over MAX_LINK_CHARS is refused unread', () => {
    const long = `v=1&iterations=5&${'x'.repeat(MAX_LINK_CHARS)}`;
    rejected(long, 'link', MAX_LINK_CHARS.toLocaleString('en-US'));
    rejected(`https://example.org/#${long}`, 'link', 'the limit is');
  });

  it('values are never taken for anything but data', () => {
    rejected('v=1&env.preset=<img src=x onerror="window.__pwned=1">', 'env.preset', 'not a value');
    rejected('v=1&env.preset="<img src=x onerror=alert(1)>"', 'env.preset', 'must be one of');
    rejected('v=1&algorithms=["<script>window.__pwned=1</script>"]', 'algorithms[0].id', 'letters, digits');
    rejected('v=1&env.preset=javascript:alert(1)', 'env.preset', 'not a value');
    rejected('v=1&env.preset="javascript:alert(1)"', 'env.preset', 'must be one of');
    rejected('v=1&iterations=(()=>1)()', 'iterations', 'not a value');
    rejected('v=1&iterations=1+1', 'iterations', 'not a value');
  });
});

describe('fragmentOf', () => {
  it('takes what follows the first #', () => {
    expect(fragmentOf('https://example.org/explorer/?q=1#v=1&iterations=5')).toBe('v=1&iterations=5');
    expect(fragmentOf('  http://localhost:4173/#v=1  ')).toBe('v=1');
    expect(fragmentOf('#v=1&a=b#c')).toBe('v=1&a=b#c');
    expect(fragmentOf('#')).toBe('');
  });
  it('a bare fragment is itself', () => {
    expect(fragmentOf('v=1&iterations=5')).toBe('v=1&iterations=5');
    expect(fragmentOf('')).toBe('');
  });
  it('a URL without # has no fragment', () => {
    expect(fragmentOf('https://example.org/explorer/?v=1')).toBe('');
    expect(fragmentOf('http://localhost:4173')).toBe('');
    expect(fragmentOf('file:///tmp/x.html')).toBe('');
  });
});

describe('the value syntax', () => {
  const bad = (text: string, what: string | RegExp) => expect(() => parseLiteral(text)).toThrow(what instanceof RegExp ? what : new RegExp(what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

  it('numbers, with signs, fractions and exponents', () => {
    expect(parseLiteral('0')).toBe(0);
    expect(parseLiteral('42')).toBe(42);
    expect(parseLiteral('-3.25')).toBe(-3.25);
    expect(parseLiteral('1e-7')).toBe(1e-7);
    expect(parseLiteral('2.5E+3')).toBe(2500);
    expect(parseLiteral('-1e21')).toBe(-1e21);
    expect(parseLiteral('0.30000000000000004')).toBe(0.1 + 0.2);
    expect(parseLiteral('5e-324')).toBe(5e-324);
  });

  it('true, false, null and bare words', () => {
    expect(parseLiteral('true')).toBe(true);
    expect(parseLiteral('false')).toBe(false);
    expect(parseLiteral('null')).toBeNull();
    expect(parseLiteral('two-prompts')).toBe('two-prompts');
    expect(parseLiteral('optimizer.lr')).toBe('optimizer.lr');
    expect(parseLiteral('a_b+c')).toBe('a_b+c');
    expect(parseLiteral('trueish')).toBe('trueish');
  });

  it('quoted strings with escapes', () => {
    expect(parseLiteral('"algorithms[1].clip"')).toBe('algorithms[1].clip');
    expect(parseLiteral('"a\\"b"')).toBe('a"b');
    expect(parseLiteral('"\\u00e9\\n\\\\"')).toBe('é\n\\');
    expect(parseLiteral('""')).toBe('');
    expect(parseLiteral('"<script>"')).toBe('<script>');
    bad('"abc', 'unterminated string');
    bad('"a\\"', 'unterminated string');
    bad('"\\x41"', 'bad escape');
    bad('"\\u12"', 'bad escape');
  });

  it('nested lists up to the depth limit', () => {
    expect(parseLiteral('[]')).toEqual([]);
    expect(parseLiteral('[1,[2,[3,x]],"y",null]')).toEqual([1, [2, [3, 'x']], 'y', null]);
    expect(parseLiteral('[[[[1]]]]')).toEqual([[[[1]]]]);
    expect(MAX_LITERAL_DEPTH).toBe(4);
    bad('[[[[[1]]]]]', `nest at most ${MAX_LITERAL_DEPTH} deep`);
    bad('['.repeat(100) + ']'.repeat(100), 'nest at most');
    bad('[1,]', 'unexpected "]"');
    bad('[,1]', 'unexpected ","');
    bad('[1 2]', 'expected "," or "]"');
    bad('[1', 'expected "," or "]"');
    bad('[', 'missing value');
  });

  it('Infinity, NaN and other non-values are refused', () => {
    bad('Infinity', 'not allowed');
    bad('NaN', 'not allowed');
    bad('-Infinity', 'unexpected "-"');
    bad('[1,NaN]', 'not allowed');
    bad('', 'missing value');
    bad('.5', 'unexpected "."');
    bad('{}', 'unexpected "{"');
    bad(' 1', 'unexpected " "');
    bad('<script>', 'unexpected "<"');
  });

  it('trailing text is refused', () => {
    bad('1 ', 'after the value');
    bad('01', 'after the value');
    bad('1.', 'after the value');
    bad('1e', 'after the value');
    bad('"a"b', 'after the value');
    bad('[1]]', 'after the value');
    bad('true false', 'after the value');
  });

  it('errors are LiteralErrors quoting the text, cut at 60 characters', () => {
    let err: unknown;
    try {
      parseLiteral(`[${'1,'.repeat(100)}?]`);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LiteralError);
    expect((err as Error).message).toMatch(/at character 202 of "\[1,1,.*…"$/);
  });

  it('printLiteral writes what parseLiteral reads', () => {
    const values = [0, -0.5, 1e-7, 1e21, 0.1 + 0.2, true, false, null, 'lock', 'two-prompts', 'true', 'Infinity', 'NaN', 'null', '', 'a b', 'é', '"q"', '9x', [1, ['a', [true, [null]]]], []];
    for (const v of values) expect(parseLiteral(printLiteral(v)!)).toEqual(v);
    expect(printLiteral('true')).toBe('"true"');
    expect(printLiteral('Infinity')).toBe('"Infinity"');
    expect(printLiteral(Infinity)).toBeNull();
    expect(printLiteral(NaN)).toBeNull();
    expect(printLiteral({})).toBeNull();
    expect(printLiteral([[[[[1]]]]])).toBeNull();
    expect(printLiteral([1, { a: 1 }])).toBeNull();
  });
});

describe('importing files', () => {
  const envFile = { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[0, 0.3, 1, 0]] };

  function refused(r: ReturnType<typeof importConfig>, field: string, ...mentions: string[]) {
    if (r.ok) throw new Error(`expected a rejection at ${field}`);
    expect(r.field).toBe(field);
    expect(r.message.startsWith(`${field}: `), r.message).toBe(true);
    for (const m of mentions) expect(r.message).toContain(m);
  }

  it('a valid config file', () => {
    const config = { version: 1, env: { preset: 'needle' }, mode: 'exact', iterations: 12, seeds: 2, algorithms: [{ id: 'grpo', clip: 0.1 }] };
    const r = importConfig(JSON.stringify(config, null, 2));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.config).toEqual(config);
      expect(r.exp).toEqual(resolveConfig(config));
    }
  });

  it('a valid env file replaces env in the base config', () => {
    const base = { ...DEFAULT_CONFIG, iterations: 7 };
    const r = importEnv(JSON.stringify(envFile), base);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.config).toEqual({ ...base, env: envFile });
      expect(r.exp.iterations).toBe(7);
      expect(r.exp.envPreset).toBeNull();
      expect(Array.from(r.exp.env.rewards[0]!)).toEqual([0, 0.3, 1, 0]);
    }
    expect(importEnv(JSON.stringify(envFile)).ok).toBe(true);
  });

  it('malformed JSON names the file', () => {
    refused(importConfig('{"version": 1,'), 'file', 'not valid JSON');
    refused(importConfig(''), 'file', 'not valid JSON');
    refused(importEnv('{turns: 2}'), 'file', 'not valid JSON');
  });

  it('a file that is not an object names config or env', () => {
    for (const text of ['[]', '1', 'null', '"config"', 'true']) {
      refused(importConfig(text), 'config', 'JSON object');
      refused(importEnv(text), 'env', 'JSON object');
    }
  });

  it('a bad value names its path', () => {
    refused(importConfig('{"version": 2, "env": {"preset": "lock"}}'), 'version', 'newer version');
    refused(importConfig('{"version": 1, "env": {"preset": "lock"}, "algorithms": [{"id": "grpo", "clip": -1}]}'), 'algorithms[0].clip', '> 0');
    refused(importConfig('{"version": 1, "env": {"preset": "lock"}, "colour": "red"}'), 'colour', 'unknown field');
    refused(importConfig('{"version": 1, "env": {"preset": "lock"}, "__proto__": {"iterations": 1}}'), '__proto__', 'unknown field');
    refused(importEnv(JSON.stringify({ ...envFile, rewards: [[0, 0.3, 1, 'x']] })), 'env.rewards[0][3]', 'finite number');
    refused(importEnv(JSON.stringify({ ...envFile, rewards: [[0, 0.3, 1]] })), 'env.rewards[0]', 'must have 4 numbers');
    refused(importEnv(JSON.stringify({ ...envFile, turns: 9 })), 'env.turns', 'from 1 to 8');
  });

  it('an env file may not name a preset', () => {
    refused(importEnv('{"preset": "lock"}'), 'env.preset', 'custom reward table');
    refused(importEnv(JSON.stringify({ ...envFile, preset: 'lock' })), 'env.preset');
  });

  it('an unknown field in an env file is named', () => {
    refused(importEnv(JSON.stringify({ ...envFile, colour: 'red' })), 'env.colour', 'unknown field');
    refused(importEnv(JSON.stringify({ ...envFile, noise: { kind: 'gaussian', sigma: 1, mean: 0 } })), 'env.noise.mean', 'unknown field');
  });
});
