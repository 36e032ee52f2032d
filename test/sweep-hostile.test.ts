import { describe, expect, it } from 'vitest';
import { csvField } from '../src/core/sweep/csv-cell';
import { sweepCsv } from '../src/core/sweep/outcomes';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../csp.config';

// The third round of hostile input on the sweep surfaces (docs/security.md): spreadsheet formulas
// in CSV exports, the framing policy, path segments that reach the prototype, axes that change
// nothing, labels that reverse a sentence, and the messages a bad link gets.

describe('CSV: a field a spreadsheet would run is written as text', () => {
  const formulas = ['=HYPERLINK("http://x.example","click")', '@SUM(A1:A9)', '+cmd|\' /C calc\'!A0', '-2+3', '\tx', '\r=1', '=1'];
  for (const f of formulas)
    it(`defuses ${JSON.stringify(f)}`, () => {
      const out = csvField(f);
      expect(out.startsWith(`"'`)).toBe(true);
      // read back as RFC 4180: the text with its apostrophe, nothing lost
      expect(out.slice(1, -1).replace(/""/g, '"')).toBe(`'${f}`);
    });

  it('numbers keep their sign; plain text is untouched', () => {
    for (const n of ['-0.5', '+3e-7', '-12', '-.5', '1e+300']) expect(csvField(n)).toBe(n);
    expect(csvField('grpo')).toBe('grpo');
    expect(csvField('a,b')).toBe('"a,b"');
  });

  it('the sweep CSV defuses axis values and algorithm ids', () => {
    const alg = (id: string) => ({ id, finalJ: { mean: -0.25, lo: null, hi: null }, atOptimum: 0, violations: 0, medianItersTo95: null, claims: [] });
    const csv = sweepCsv({ version: 1, axes: [{ path: 'env.preset', values: ['=HYPERLINK("http://x","y")'] }], cells: [{ index: 0, values: ['=HYPERLINK("http://x","y")'], Jstar: 1, algorithms: [alg('@SUM(A1)')] }] });
    const row = csv.split('\n')[1]!;
    expect(row.startsWith(`"'=HYPERLINK(""http://x"",""y"")",0,"'@SUM(A1)",1,-0.25,`)).toBe(true);
    expect(csv).not.toMatch(/(^|,)[=@]/m);
  });
});

describe('Content-Security-Policy: frame-ancestors', () => {
  it("the header forbids framing ('none'); the meta tag leaves it out (browsers ignore it there)", () => {
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(META_CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors');
    expect(CONTENT_SECURITY_POLICY.startsWith(META_CONTENT_SECURITY_POLICY)).toBe(true);
  });
});

describe('labels: no controls, no bidirectional overrides; verdict text isolates them', () => {
  const base = (label: string) => ({ version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'grpo', label }] });
  const refused = ['ab\u202Ecd', 'x\u202A', '\u2066iso', 'y\u2069', 'rlm\u200F', 'c1\u0085', 'c1\u009b[31m', 'alm\u061C', 'tab\t'];
  for (const l of refused)
    it(`refuses ${JSON.stringify(l)}, naming the field`, async () => {
      const { resolveConfig } = await import('../src/core/config/resolve');
      expect(() => resolveConfig(base(l))).toThrow(/algorithms\[0\]\.label: must be a name of 1–\d+ characters without control characters or bidirectional controls/);
    });

  it('accepts names in any script', async () => {
    const { resolveConfig } = await import('../src/core/config/resolve');
    for (const l of ['שלום', 'مرحبا', 'GRPO (lr 3)', 'ü-β'])
      expect(resolveConfig(base(l)).algorithms[0]!.label).toBe(l);
  });

  it('IsolatedLabels wraps every label occurrence in <bdi>', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { createElement } = await import('react');
    const { IsolatedLabels } = await import('../src/ui/components/VerdictPanel');
    const html = renderToStaticMarkup(createElement(IsolatedLabels, { text: 'שלום (a) reached J* 3 times; GRPO did not (שלום).', labels: ['שלום', 'GRPO', 'unused'] }));
    expect(html).toBe('<bdi>שלום</bdi> (a) reached J* 3 times; <bdi>GRPO</bdi> did not (<bdi>שלום</bdi>).');
  });
});

describe('axes that change nothing, and paths that reach a prototype, are refused naming the axis', () => {
  const sweepOf = (path: string, values: unknown[], base: Record<string, unknown> = {}) => ({
    version: 1,
    base: { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 5, seeds: 1, algorithms: [{ id: 'grpo' }, { id: 'reinforce' }], ...base },
    axes: [{ path, values }],
  });
  const refusals: [string, unknown, RegExp][] = [
    ['env.__proto__', sweepOf('env.__proto__', [1, 2]), /^axes\[0\]\.path: must not name "__proto__"/],
    ['algorithms.0.constructor', sweepOf('algorithms.0.constructor', [1, 2]), /^axes\[0\]\.path: must not name "constructor"/],
    ['optimizer.prototype', sweepOf('optimizer.prototype', [1, 2]), /^axes\[0\]\.path: must not name "prototype"/],
    ['algorithms[0]clip (no dot)', sweepOf('algorithms[0]clip', [0.1, 0.2]), /^axes\[0\]\.path: must be a config path/],
    [
      'optimizer.lr shadowed by every algorithm\'s own lr',
      sweepOf('optimizer.lr', [0.1, 1], { algorithms: [{ id: 'grpo', lr: 2 }, { id: 'reinforce', lr: 3 }] }),
      /^axes\[0\]\.path: optimizer\.lr changes no cell: every algorithm of the base sets its own lr/,
    ],
    ['a field the indexed algorithm does not read', sweepOf('algorithms.1.clip', [0.1, 0.2]), /^axes\[0\]\.path: algorithms\[1\] \(reinforce, rule reinforce\) does not read "clip"/],
  ];
  for (const [what, doc, message] of refusals)
    it(what, async () => {
      const { parseSweep } = await import('../src/core/sweep/cells');
      expect(() => parseSweep(doc)).toThrow(message);
      expect(() => parseSweep(doc, { resolve: 'none' })).toThrow(message);
    });

  it('still accepts optimizer.lr when one algorithm reads it, and algorithms[0].clip with its dot', async () => {
    const { parseSweep } = await import('../src/core/sweep/cells');
    expect(parseSweep(sweepOf('optimizer.lr', [0.1, 1], { algorithms: [{ id: 'grpo', lr: 2 }, { id: 'reinforce' }] })).cells).toBe(2);
    expect(parseSweep(sweepOf('algorithms[0].clip', [0.1, 0.2])).cells).toBe(2);
  });

  it('setAt never writes through a prototype key', async () => {
    const { setAt } = await import('../src/core/sweep/paths');
    expect(() => setAt({}, ['env', '__proto__', 'polluted'], 1)).toThrow(/not a config field/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('messages that named the wrong thing', () => {
  it('an empty sweep= says it is empty (not "inflates past 1 MiB")', async () => {
    const { decodeSweepLink } = await import('../src/core/sweep/link');
    for (const link of ['#v=1&sweep=', '#v=1']) {
      const d = decodeSweepLink(link);
      expect(d.ok).toBe(false);
      expect(!d.ok && d.message).toBe('sweep: is empty: the link holds no document (copy the link again)');
    }
  });

  it('a config or link giving only optimizer.lr runs with the default optimizer kind', async () => {
    const { resolveConfig } = await import('../src/core/config/resolve');
    expect(resolveConfig({ version: 1, env: { preset: 'lock' }, optimizer: { lr: 0.5 } }).optimizer).toEqual({ kind: 'sgd', lr: 0.5 });
    expect(() => resolveConfig({ version: 1, env: { preset: 'lock' }, optimizer: { kind: 'adam' } })).toThrow(/^optimizer\.lr:/);
  });
});

describe('sizes bounded before work', () => {
  it('a flood of unknown keys is refused by a linear scan, before JSON.parse builds it', async () => {
    const { checkKeyCounts, MAX_OBJECT_KEYS } = await import('../src/core/config/key-limit');
    const keys = Array.from({ length: 200_000 }, (_, i) => `"k${i}":0`).join(',');
    expect(() => checkKeyCounts(`{"version":1,${keys}}`, 'the file')).toThrow(`the file has an object with more than ${MAX_OBJECT_KEYS.toLocaleString('en-US')} keys`);
    // keys inside strings, and long lists, are not keys
    expect(() => checkKeyCounts(JSON.stringify({ a: 'x:'.repeat(5000), b: Array.from({ length: 5000 }, (_, i) => i), c: [{ d: 1 }] }), 'f')).not.toThrow();
    expect(() => checkKeyCounts(JSON.stringify({ s: '"\\":{' }), 'f')).not.toThrow();
  });

  it('a sweep whose cells × base would take minutes to check is refused up front; --cell resolves one cell', async () => {
    const { parseSweep, validationCost } = await import('../src/core/sweep/cells');
    const { SWEEP_LIMITS } = await import('../src/core/sweep/schema');
    const rewards = [Array.from({ length: 4096 }, (_, i) => (i % 7) / 7)];
    const doc = {
      version: 1,
      base: { version: 1, env: { turns: 3, vocab: 16, tokensPerTurn: 1, rewards }, mode: 'exact', iterations: 2, seeds: 1, algorithms: [{ id: 'grpo' }] },
      axes: [{ path: 'optimizer.lr', grid: { from: 0.1, to: 10, count: 64 } }, { path: 'algorithms.*.clip', grid: { from: 0.1, to: 0.5, count: 64 } }],
    };
    // refused before the base is even built (the page's link decoding uses 'none')
    expect(() => parseSweep(doc, { resolve: 'none' })).toThrow(/^axes: 4,096 cells of this base cost/);
    expect(parseSweep(doc, { resolve: 0 }).cost).toBeGreaterThan(SWEEP_LIMITS.validationCost);
    expect(() => parseSweep(doc)).toThrow(/^axes: 4,096 cells of this base cost [\d.e+]+ to check .*; the limit is/);
    expect(parseSweep(doc, { resolve: 4095 }).cells).toBe(4096);
    // the same size made by a preset (16 tokens × 4 turns = 65,536 sequences): a short link, the same work
    const preset = { ...doc, base: { version: 1, env: { preset: 'needle', turns: 4, vocab: 16 }, mode: 'exact', iterations: 2, seeds: 1, algorithms: [{ id: 'grpo' }] } };
    expect(() => parseSweep(preset)).toThrow(/^axes: 4,096 cells of this base cost/);
    void validationCost;
  });
});

describe('input files are read with a byte limit that holds for devices', () => {
  it('/dev/zero (size 0, endless) is refused once past the limit, not read to the end', async () => {
    const { readBounded } = await import('../src/cli/inputs');
    expect(() => readBounded('/dev/zero', '/dev/zero', 1 << 20)).toThrow('/dev/zero: the file is over 1,048,576 bytes; the limit is 1,048,576');
    expect(readBounded('/dev/null', 'null', 10)).toBe('');
  });
});

describe('a sweep link with a flood of keys', () => {
  it('is refused by the key scan, naming the limit', async () => {
    const { decodeSweepLink } = await import('../src/core/sweep/link');
    const { compressText } = await import('../src/core/config/link-compress');
    const base: Record<string, unknown> = { version: 1 };
    for (let i = 0; i < 50_000; i++) base[`k${i}`] = 0;
    const d = decodeSweepLink(`#v=1&sweep=${compressText(JSON.stringify({ version: 1, base, axes: [{ path: 'seeds', values: [1] }] }))}`);
    expect(d.ok).toBe(false);
    expect(!d.ok && d.message).toMatch(/^sweep: the document has an object with more than 1,024 keys/);
  });
});
