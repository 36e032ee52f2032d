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
