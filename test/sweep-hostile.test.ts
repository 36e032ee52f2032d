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
