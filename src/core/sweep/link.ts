import { checkDepth, ConfigError, quote } from '../config/fields';
import { checkKeyCounts } from '../config/key-limit';
import { MAX_FRAGMENT_CHARS, fragmentOf, LINK_VERSION, TOO_LARGE_FOR_LINK, type EncodedLink } from '../config/link-codec';
import { compressText, decompressText, MAX_INFLATED_BYTES } from '../config/link-compress';
import { checkValidationCost, parseSweep, resolveCell, type Sweep } from './cells';

/** validationCost up to which a link's cells are all resolved when it is opened (larger: the page checks them in a worker). */
export const EAGER_CHECK_COST = 1 << 17;
import type { SweepInput } from './schema';
import { SWEEP_OUTCOMES, type SweepOutcome } from './outcomes';

// A link that replays a sweep: `v=1&sweep=<the sweep document, deflated, base64url>&show=<outcome>&claim=<1–5>`.
// The document goes through parseSweep (the schema `seeupo-explorer sweep` reads), so a link
// opens exactly the sweep a file would; show/claim are how the page draws it.

export interface SweepView {
  outcome: SweepOutcome;
  /** The claim whose verdict a "verdict" map shows (1–5). */
  claim: number;
}

export const DEFAULT_SWEEP_VIEW: SweepView = { outcome: 'finalJ', claim: 2 };

export type SweepLinkDecoded = { ok: true; doc: SweepInput; sweep: Sweep; view: SweepView } | { ok: false; message: string };

/** True when a link (or fragment) is a sweep's, not an experiment's. */
export function isSweepLink(input: string): boolean {
  return /(^|&)sweep=/.test(fragmentOf(input));
}

export function encodeSweepLink(doc: SweepInput, view: SweepView): EncodedLink {
  const json = JSON.stringify({ version: 1, base: doc.base, axes: doc.axes });
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > MAX_INFLATED_BYTES)
    return { ok: false, message: `This sweep is ${TOO_LARGE_FOR_LINK} (its document is ${bytes.toLocaleString('en-US')} characters; a link holds at most ${MAX_INFLATED_BYTES.toLocaleString('en-US')})` };
  const pairs = [`v=${LINK_VERSION}`, `sweep=${compressText(json)}`];
  if (view.outcome !== DEFAULT_SWEEP_VIEW.outcome) pairs.push(`show=${view.outcome}`);
  if (view.claim !== DEFAULT_SWEEP_VIEW.claim) pairs.push(`claim=${view.claim}`);
  const fragment = pairs.join('&');
  if (fragment.length > MAX_FRAGMENT_CHARS)
    return { ok: false, message: `This sweep is ${TOO_LARGE_FOR_LINK} (it needs ${fragment.length.toLocaleString('en-US')} characters; a link holds at most ${MAX_FRAGMENT_CHARS.toLocaleString('en-US')})` };
  return { ok: true, fragment };
}

const KEYS = new Set(['v', 'sweep', 'show', 'claim']);

/** Read a sweep link; every refusal names the part of the link (or the sweep field) at fault. */
export function decodeSweepLink(input: string): SweepLinkDecoded {
  try {
    if (input.length > MAX_FRAGMENT_CHARS + 8192) throw new ConfigError('link', `is ${input.length.toLocaleString('en-US')} characters; the limit is ${(MAX_FRAGMENT_CHARS + 8192).toLocaleString('en-US')}`);
    const pairs = new Map<string, string>();
    for (const part of fragmentOf(input).split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const [k, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
      if (!KEYS.has(k)) throw new ConfigError(k.length > 30 ? quote(k, 30) : k, 'is not part of a sweep link (it holds v, sweep, show and claim)');
      if (pairs.has(k)) throw new ConfigError(k, 'is given twice');
      pairs.set(k, v);
    }
    if (pairs.get('v') !== String(LINK_VERSION)) throw new ConfigError('v', `must be ${LINK_VERSION}, got ${quote(pairs.get('v') ?? '')}`);
    const z = decompressText(pairs.get('sweep') ?? '');
    if (!z.ok) throw new ConfigError('sweep', z.why);
    checkKeyCounts(z.text, 'sweep: the document'); // a flood of keys is refused before JSON.parse builds it
    let raw: unknown;
    try {
      raw = JSON.parse(z.text);
    } catch {
      throw new ConfigError('sweep', 'does not hold a JSON sweep document');
    }
    checkDepth(raw, 'the sweep');
    // the cells are not resolved here (the page does that a slice at a time; the CLI when it runs):
    // the schema, the base, the axes and the cost of checking the cells are
    const sweep = prefixed(() => {
      const parsed = parseSweep(raw, { resolve: 'none' });
      checkValidationCost(parsed);
      // a small sweep (tens of milliseconds of checking) is checked whole here, so a bad value refuses the link
      if (parsed.cost <= EAGER_CHECK_COST) for (let c = 0; c < parsed.cells; c++) resolveCell(parsed, c);
      return parsed;
    });
    const show = pairs.get('show') ?? DEFAULT_SWEEP_VIEW.outcome;
    if (!(SWEEP_OUTCOMES as readonly string[]).includes(show)) throw new ConfigError('show', `must be one of ${SWEEP_OUTCOMES.join(', ')}, got ${quote(show)}`);
    const claimText = pairs.get('claim') ?? String(DEFAULT_SWEEP_VIEW.claim);
    if (!/^[1-5]$/.test(claimText)) throw new ConfigError('claim', `must be a claim number from 1 to 5, got ${quote(claimText)}`);
    return { ok: true, doc: { version: 1, base: sweep.base, axes: sweep.axes }, sweep, view: { outcome: show as SweepOutcome, claim: Number(claimText) } };
  } catch (e) {
    if (e instanceof ConfigError) return { ok: false, message: e.message };
    throw e;
  }
}

/** A sweep field's error, as the link names it: "sweep: axes[0].values[1]: …". */
function prefixed<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(e.path ? `sweep: ${e.path}` : 'sweep', e.detail);
    throw e;
  }
}
