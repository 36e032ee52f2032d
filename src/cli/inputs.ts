import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { checkKeyCounts } from '../core/config/key-limit';
import * as z from 'zod';
import { computeAdvantages, groupSizes } from '../core/algo/advantages';
import { checkDepth, issueToError, oneOf, finiteNumber, quote, safeText } from '../core/config/fields';
import { GROUP_ESTIMATORS, NORMALIZATIONS } from '../core/options';
import { InputError } from './errors';

/**
 * Input files larger than this are refused unread. The largest valid config (a Monte-Carlo
 * environment's reward table of 1,048,576 numbers, pretty-printed) is about 40 MB.
 */
export const MAX_INPUT_BYTES = 256 << 20;

/** A file name as messages show it: as is when plain, else a short escaped prefix in quotes. */
export function showPath(path: string): string {
  return /^[\x20-\x7e]{1,200}$/.test(path) && !path.includes('"') ? path : quote(path, 120);
}

/**
 * A file's text, read with a byte limit that holds whatever it is: a device (/dev/zero reports
 * size 0 and never ends), a pipe or a FIFO is read in chunks and refused as soon as it passes
 * MAX_INPUT_BYTES, never read to the end first.
 */
export function readBounded(path: string, name: string, limit = MAX_INPUT_BYTES): string {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    const tooBig = (what: string) => new InputError(`${name}: the file is ${what} bytes; the limit is ${limit.toLocaleString('en-US')}`);
    if (st.size > limit) throw tooBig(st.size.toLocaleString('en-US'));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > limit) throw tooBig(`over ${limit.toLocaleString('en-US')}`);
      chunks.push(buf.subarray(0, n));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Read and parse a JSON file; any failure is an InputError (exit 2), one short line with no raw control characters. */
export function readJson(path: string): unknown {
  const name = showPath(path);
  let text: string;
  try {
    text = readBounded(path, name);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : safeText(code ?? 'error', 40);
    throw new InputError(`${name}: cannot read the file (${why})`);
  }
  try {
    checkKeyCounts(text, name);
  } catch (e) {
    throw new InputError((e as Error).message.replace(/^: /, ''));
  }
  if (text.length > MAX_INPUT_BYTES) throw new InputError(`${name}: the file is over ${MAX_INPUT_BYTES.toLocaleString('en-US')} characters; the limit is ${MAX_INPUT_BYTES.toLocaleString('en-US')}`);
  // a byte-order mark, as some editors write: the page's file import (Blob.text(), UTF-8 decode) drops it too
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // V8's message quotes the start of the input verbatim (control characters, newlines): escaped and cut short
    throw new InputError(`${name}: not valid JSON (${safeText((e as Error).message, 160)})`);
  }
  try {
    checkDepth(value, 'the file');
  } catch (e) {
    throw new InputError(`${name}: ${(e as Error).message}`);
  }
  return value;
}

// made on first use: only `advantages` needs it, and building a schema is a cost every
// command's start-up would pay (docs/architecture.md "Start-up")
const makeAdvantagesSchema = () => z.strictObject({
  rewards: z.array(finiteNumber()).min(1, 'must have at least one reward'),
  groups: z.array(
    z.unknown().transform((v, ctx): string | number => {
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
      ctx.addIssue({ code: 'custom', message: 'must be a string or a number (the prompt id)' });
      return z.NEVER;
    }),
  ),
  estimator: oneOf(GROUP_ESTIMATORS),
  normalization: oneOf(NORMALIZATIONS),
});
let advantagesSchema: ReturnType<typeof makeAdvantagesSchema> | undefined;

export type AdvantagesInput = z.output<ReturnType<typeof makeAdvantagesSchema>>;

export function parseAdvantagesInput(raw: unknown): AdvantagesInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputError('the input must be a JSON object with rewards, groups, estimator, normalization');
  checkDepth(raw, 'the input');
  const r = (advantagesSchema ??= makeAdvantagesSchema()).safeParse(raw);
  if (!r.success) throw new InputError(issueToError(r.error.issues[0]!).message);
  const d = r.data;
  if (d.groups.length !== d.rewards.length) throw new InputError(`groups: must have one entry per reward (${d.rewards.length}), got ${d.groups.length}`);
  for (const [g, n] of groupSizes(d.groups)) if (n < 2) throw new InputError(`groups: group ${typeof g === 'string' ? quote(g) : g} has ${n} rollout; every group needs at least 2`);
  return d;
}

/**
 * The advantages of a valid input, every one a finite number: rewards near
 * the float64 range overflow the group sums or the squared deviations, which would print nulls
 * (or silently divide by an infinite standard deviation); that is invalid input, exit 2.
 */
export function advantagesOf(input: AdvantagesInput): number[] {
  const out = computeAdvantages(input.rewards, input.groups, input.estimator, input.normalization);
  let overflow = out.findIndex((a) => !Number.isFinite(a));
  if (overflow < 0 && input.normalization !== 'none') {
    // the normalizations divide by a standard deviation: an infinite one means its squares overflowed
    // `batch` standardizes the estimator's raw advantages; `group` divides by the std of the deviations from the group mean (grae's)
    const raw = computeAdvantages(input.rewards, input.groups, input.normalization === 'batch' ? input.estimator : 'grae', 'none');
    if (raw.some((a) => !Number.isFinite(a))) overflow = 0;
    else if (input.normalization === 'batch') {
      const mu = raw.reduce((s, a) => s + a / raw.length, 0);
      if (!Number.isFinite(raw.reduce((s, a) => s + (a - mu) * (a - mu), 0))) overflow = 0;
    } else {
      const sumSq = new Map<string | number, number>();
      raw.forEach((d, i) => {
        const g = input.groups[i]!;
        sumSq.set(g, (sumSq.get(g) ?? 0) + d * d);
      });
      if ([...sumSq.values()].some((v) => !Number.isFinite(v))) overflow = 0;
    }
  }
  if (overflow >= 0) {
    const big = input.rewards.reduce((m, r) => Math.max(m, Math.abs(r)), 0);
    throw new InputError(
      `rewards: the advantages overflow float64 to non-finite values (the largest |reward| is ${big.toExponential(2)}); scale the rewards down (sums and squared deviations must stay below ${Number.MAX_VALUE.toExponential(2)})`,
    );
  }
  return out;
}
