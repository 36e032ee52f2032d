import * as z from 'zod';
import { DEFAULT_CONFIG } from './defaults';
import { ConfigError, isRecord, issueToError, oneOf } from './fields';
import { resolveConfig, type Experiment } from './resolve';
import { compressText, decompressText, MAX_INFLATED_BYTES } from './link-compress';
import { LiteralError, parseLiteral, printLiteral } from './link-literal';
import { minimalConfig } from './link-minimal';
import { DEFAULT_VIEW, HIDE_EXAMPLE, HIDE_ITEM, METRICS, X_AXES, type View } from './view';
import type { ResultsHash } from '../metrics/results-hash';
import { LESSONS, lessonById } from '../lessons/lessons';

// Permalinks. The fragment is `v=1&key=value&…`: the config with its defaults left
// out, flattened to dotted keys (`iterations=100`, `env.preset=two-prompts`,
// `algorithms=[seeupo,grpo]`, `algorithms.1.clip=0.3`), then the chart choices and, optionally,
// a results hash. Past COMPRESS_OVER characters the pairs travel deflated as `z=`. Decoding
// validates with the same schema as every other input and never throws.

export const LINK_VERSION = 1;
/** A link longer than this is refused before it is read. */
export const MAX_LINK_CHARS = 200_000;
/**
 * The longest fragment the page writes: the address it goes into (origin, path, '#') must stay
 * within MAX_LINK_CHARS, so the page never writes a link it would refuse to open.
 */
export const MAX_FRAGMENT_CHARS = MAX_LINK_CHARS - 8192;
/** What the page says instead of writing a link past the limits. */
export const TOO_LARGE_FOR_LINK = 'too large for a link: use Export config';
/** Readable pairs longer than this are deflated. */
export const COMPRESS_OVER = 1500;
/** Key/value pairs a link may hold. */
const MAX_PAIRS = 2000;
const MAX_INDEX = 4096;

export interface LinkState {
  /** The config JSON (docs/cli.md "The config"); defaults are filled in when decoded. */
  config: Record<string, unknown>;
  view: View;
  /** The results hash the link's author saw, if they included it. */
  hash: ResultsHash | null;
  embed: boolean;
  /** False when the author's run had changes the link could not carry: it does not replay exactly. */
  exact: boolean;
  /**
   * A lesson of the claims lab (src/core/lessons): the link is `lesson=<id>` instead of the config
   * pairs, and `config` is the lesson's. Decoded links always say (null: none).
   */
  lesson?: string | null;
  /** The presenter layout (`classroom=1`). */
  classroom?: boolean;
  /** Controls and parts of the page to hide (`hide=seeds,optimizer.lr`), as written. */
  hide?: readonly string[];
}

export type LinkDecoded =
  | { ok: true; empty: boolean; state: LinkState; exp: Experiment; compressed: boolean }
  /** `field` names what is wrong (a config path like "algorithms[1].clip", or a link key). */
  | { ok: false; field: string; message: string; future: boolean };

export const EXTRA_KEYS = ['view.metric', 'view.x', 'embed', 'hash', 'by', 'app', 'exact', 'lesson', 'classroom', 'hide'] as const;
/**
 * Config switches a link writes as 1 or 0 rather than true or false (`policy.shareContexts=1`);
 * reading, 1/0 and true/false are both taken there.
 */
const FLAG_PATHS = new Set(['policy.shareContexts']);

/** Keys whose value is taken as raw text ("0.1.0" is a version, not a number). */
const TEXT_KEYS = new Set(['hash', 'by', 'app', 'lesson', 'hide']);
/** Entries `hide` may list. */
export const MAX_HIDE = 64;

const flag = z.unknown().transform((v, ctx): boolean => {
  if (v === 1 || v === true) return true;
  if (v === 0 || v === false) return false;
  ctx.addIssue({ code: 'custom', message: `must be 1 or 0, got ${JSON.stringify(v)}` });
  return z.NEVER;
});
const pattern = (re: RegExp, what: string) =>
  z.unknown().transform((v, ctx): string => {
    const s = typeof v === 'number' ? String(v) : v;
    if (typeof s !== 'string' || !re.test(s)) {
      ctx.addIssue({ code: 'custom', message: `must be ${what}, got ${JSON.stringify(v)?.slice(0, 40)}` });
      return z.NEVER;
    }
    return s;
  });

/** The link's keys that are not the experiment's config. */
const extrasSchema = z.strictObject({
  'view.metric': oneOf(METRICS).optional(),
  'view.x': oneOf(X_AXES).optional(),
  embed: flag.optional(),
  exact: flag.optional(),
  hash: pattern(/^[0-9a-f]{12}$/, '12 hex digits').optional(),
  by: pattern(/^(cpu|tensor-(webgpu|webgl|wasm|cpu))$/, '"cpu" or "tensor-<backend>" (webgpu, webgl, wasm, cpu)').optional(),
  app: pattern(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, 'a version like 0.1.0').optional(),
  lesson: pattern(/^[a-z0-9][a-z0-9-]{0,79}$/, 'a lesson id (lowercase letters, digits and dashes)').optional(),
  classroom: flag.optional(),
  hide: z
    .string()
    .transform((v, ctx): string[] => {
      const items = [...new Set(v.split(',').map((x) => x.trim()).filter((x) => x !== ''))];
      if (items.length > MAX_HIDE) {
        ctx.addIssue({ code: 'custom', message: `lists ${items.length} entries; at most ${MAX_HIDE}` });
        return z.NEVER;
      }
      const bad = items.find((x) => !HIDE_ITEM.test(x));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of control paths or parts of the page (${HIDE_EXAMPLE}), got ${JSON.stringify(bad.slice(0, 40))}` });
        return z.NEVER;
      }
      return items;
    })
    .optional(),
});

// ---------------------------------------------------------------------------------------------
// Encoding

const escape = (s: string) => encodeURIComponent(s).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%2C/g, ',').replace(/%3A/g, ':');

/**
 * Pairs for the value at `key`. Objects split into their fields; a list of objects or of lists
 * splits into one pair per element, once: a list of lists inside it travels as one literal
 * (`env.rewards.0=[…]` per context, `env.turnRewards.0=[[…],[…]]` per context's turn tables),
 * so a link holds one pair per context, not per table.
 */
function flatten(v: unknown, key: string, out: [string, string][], inList = false): void {
  const hasRecord = Array.isArray(v) && v.some((x) => isRecord(x) || (Array.isArray(x) && x.some(isRecord)));
  const hasList = Array.isArray(v) && v.some((x) => Array.isArray(x));
  const lit = isRecord(v) || hasRecord || (hasList && !inList) ? null : printLiteral(v);
  if (lit !== null) {
    out.push([key, lit]);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) out.push([key, '[]']);
    v.forEach((x, i) => flatten(x, `${key}.${i}`, out, hasList));
    return;
  }
  if (isRecord(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length === 0) out.push([key, '{}']);
    for (const k of keys) flatten(v[k], key ? `${key}.${k}` : k, out);
    return;
  }
  throw new Error(`${key}: ${String(v)} has no link form`);
}

/** Algorithm entries as `algorithms=[id,…]` plus `algorithms.i.field=…` for their other fields. */
function flattenAlgorithms(list: unknown[], out: [string, string][]): void {
  const ids = list.map((e) => (isRecord(e) && typeof e.id === 'string' ? e.id : null));
  if (ids.some((id) => id === null)) return flatten(list, 'algorithms', out);
  out.push(['algorithms', printLiteral(ids)!]);
  list.forEach((e, i) => {
    for (const [k, v] of Object.entries(e as Record<string, unknown>)) if (k !== 'id' && v !== undefined) flatten(v, `algorithms.${i}.${k}`, out);
  });
}

/** A fragment the page may write, or why it may not (it would be refused when opened). */
export type EncodedLink = { ok: true; fragment: string } | { ok: false; message: string };

/**
 * encodeLink with the limits decoding checks: a fragment past MAX_FRAGMENT_CHARS, or a deflated
 * one that inflates past MAX_INFLATED_BYTES, is not a link (a 65,536-entry table of random
 * numbers needs about 311,000 characters even deflated: such an experiment travels as a file).
 */
export function encodeLinkChecked(state: LinkState): EncodedLink {
  const { fragment, inflated, pairs } = encodeParts(state);
  const chars = fragment.length;
  if (pairs > MAX_PAIRS) return { ok: false, message: `This experiment is ${TOO_LARGE_FOR_LINK} (it needs ${pairs} settings; a link holds at most ${MAX_PAIRS})` };
  if (chars > MAX_FRAGMENT_CHARS)
    return { ok: false, message: `This experiment is ${TOO_LARGE_FOR_LINK} (it needs ${chars.toLocaleString('en-US')} characters; a link holds at most ${MAX_FRAGMENT_CHARS.toLocaleString('en-US')})` };
  if (inflated > MAX_INFLATED_BYTES)
    return { ok: false, message: `This experiment is ${TOO_LARGE_FOR_LINK} (its settings are ${inflated.toLocaleString('en-US')} characters before compression; a link holds at most ${MAX_INFLATED_BYTES.toLocaleString('en-US')})` };
  return { ok: true, fragment };
}

/** The fragment (without '#') for a state: `v=1&…`, deflated into `z=` when long. Unchecked: see encodeLinkChecked. */
export function encodeLink(state: LinkState): string {
  return encodeParts(state).fragment;
}

function encodeParts(state: LinkState): { fragment: string; inflated: number; pairs: number } {
  const pairs: [string, string][] = [];
  if (state.lesson) pairs.push(['lesson', state.lesson]); // the lesson's config, by its id
  else {
    const { version: _, ...config } = minimalConfig(state.config);
    for (const [k, v] of Object.entries(config)) {
      if (k === 'algorithms' && Array.isArray(v)) flattenAlgorithms(v, pairs);
      else flatten(v, k, pairs);
    }
  }
  for (const p of pairs) if (FLAG_PATHS.has(p[0]) && (p[1] === 'true' || p[1] === 'false')) p[1] = p[1] === 'true' ? '1' : '0';
  if (state.view.metric !== DEFAULT_VIEW.metric) pairs.push(['view.metric', state.view.metric]);
  if (state.view.x !== DEFAULT_VIEW.x) pairs.push(['view.x', state.view.x]);
  if (state.embed) pairs.push(['embed', '1']);
  if (state.classroom) pairs.push(['classroom', '1']);
  if (state.hide?.length) pairs.push(['hide', state.hide.join(',')]);
  if (!state.exact) pairs.push(['exact', '0']);
  if (state.hash) pairs.push(['hash', state.hash.digest], ['by', state.hash.by], ['app', state.hash.app]);
  const body = pairs.map(([k, v]) => `${escape(k)}=${escape(v)}`).join('&');
  const head = `v=${LINK_VERSION}`;
  if (body.length <= COMPRESS_OVER) return { fragment: body ? `${head}&${body}` : head, inflated: 0, pairs: pairs.length };
  return { fragment: `${head}&z=${compressText(body)}`, inflated: new TextEncoder().encode(body).length, pairs: pairs.length };
}

// ---------------------------------------------------------------------------------------------
// Decoding

class LinkError extends Error {
  constructor(
    readonly field: string,
    detail: string,
    readonly future = false,
  ) {
    super(`${field}: ${detail}`);
  }
}

/** "algorithms.1.clip" → "algorithms[1].clip" (the config's path notation), cut to 60 characters. */
const configPath = (key: string) =>
  key === '' ? '(empty key)' : (key.length > 60 ? key.slice(0, 60) + '…' : key).replace(/\.(\d+)(?=\.|$)/g, '[$1]');

function splitPairs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let key: string, value: string;
    try {
      key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    } catch {
      throw new LinkError('link', `"${part.slice(0, 40)}" is not correctly %-encoded`);
    }
    const name = configPath(key);
    if (eq < 0) throw new LinkError(name, `has no value (write ${key.slice(0, 40)}=…)`);
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      throw new LinkError(name, 'its value is not correctly %-encoded');
    }
    if (out.has(key)) throw new LinkError(name, 'is given twice');
    if (out.size >= MAX_PAIRS) throw new LinkError('link', `has more than ${MAX_PAIRS} key=value pairs`);
    out.set(key, value);
  }
  return out;
}

function parseValue(key: string, text: string): unknown {
  if (text === '{}') return {};
  try {
    return parseLiteral(text);
  } catch (e) {
    if (e instanceof LiteralError) throw new LinkError(configPath(key), `is not a value: ${e.message}`);
    throw e;
  }
}

/** Put `value` at the dotted `key` of `root`; numeric segments index lists. */
function place(root: Record<string, unknown>, key: string, value: unknown): void {
  const segs = key.split('.');
  const field = configPath(key);
  if (segs.length > 6) throw new LinkError(field, 'is nested too deep (at most 6 parts)');
  let node: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    const index = /^(0|[1-9]\d{0,3})$/.test(seg) ? Number(seg) : null;
    if (index === null && !/^[A-Za-z][A-Za-z0-9]{0,39}$/.test(seg)) throw new LinkError(field, `"${seg.slice(0, 40)}" is not a field name or an index`);
    if (index !== null && index > MAX_INDEX) throw new LinkError(field, `index ${index} is over ${MAX_INDEX}`);
    if (Array.isArray(node) !== (index !== null)) throw new LinkError(field, Array.isArray(node) ? `"${seg}" must be an index (0, 1, …)` : `${seg} is an index, but ${configPath(segs.slice(0, i).join('.'))} is not a list`);
    const container = node as Record<string | number, unknown>;
    const slot = index ?? seg;
    const has = Array.isArray(node) ? container[slot] !== undefined : Object.hasOwn(container, slot);
    if (i === segs.length - 1) {
      if (has) throw new LinkError(field, 'is given twice (directly and through a longer key)');
      container[slot] = value;
      return;
    }
    if (!has) container[slot] = /^\d+$/.test(segs[i + 1]) ? [] : {};
    const next = container[slot];
    if (!isRecord(next) && !Array.isArray(next)) throw new LinkError(field, `${configPath(segs.slice(0, i + 1).join('.'))} is a value, not a list or object`);
    node = next;
  }
}

function checkNoHoles(v: unknown, path: string): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) throw new LinkError(`${path}[${i}]`, `is missing (the link gives ${path}[${v.length - 1}])`);
      checkNoHoles(v[i], `${path}[${i}]`);
    }
  } else if (isRecord(v)) for (const [k, x] of Object.entries(v)) checkNoHoles(x, path ? `${path}.${k}` : k);
}

/** The fragment of a URL (or the text itself when it is one). */
export function fragmentOf(input: string): string {
  const t = input.trim();
  const hash = t.indexOf('#');
  if (hash >= 0) return t.slice(hash + 1);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? '' : t;
}

function readVersion(v: string | undefined): void {
  if (v === undefined) throw new LinkError('v', `is missing: a permalink starts with v=${LINK_VERSION}`);
  if (!/^\d{1,6}$/.test(v)) throw new LinkError('v', `must be ${LINK_VERSION}, got ${JSON.stringify(v.slice(0, 20))}`);
  const n = Number(v);
  if (n > LINK_VERSION)
    throw new LinkError('v', `this link is from a newer version of the explorer (link version ${n}); this page reads version ${LINK_VERSION}. Open it with a newer explorer.`, true);
  if (n !== LINK_VERSION) throw new LinkError('v', `must be ${LINK_VERSION}, got ${n}`);
}

function decodeOrThrow(input: string): Extract<LinkDecoded, { ok: true }> {
  if (typeof input !== 'string') throw new LinkError('link', 'must be text');
  if (input.length > MAX_LINK_CHARS) throw new LinkError('link', `is ${input.length.toLocaleString('en-US')} characters; the limit is ${MAX_LINK_CHARS.toLocaleString('en-US')}`);
  const fragment = fragmentOf(input);
  const state: LinkState = { config: structuredClone(DEFAULT_CONFIG) as Record<string, unknown>, view: { ...DEFAULT_VIEW }, hash: null, embed: false, exact: true, lesson: null, classroom: false, hide: [] };
  if (fragment === '') return { ok: true, empty: true, state, exp: resolveConfig(state.config), compressed: false };
  let pairs = splitPairs(fragment);
  readVersion(pairs.get('v'));
  pairs.delete('v');
  const z = pairs.get('z');
  const compressed = z !== undefined;
  if (compressed) {
    if (pairs.size > 1) throw new LinkError('z', `a deflated link holds everything in z; it also gives ${[...pairs.keys()].filter((k) => k !== 'z').slice(0, 3).join(', ')}`);
    const inflated = decompressText(z);
    if (!inflated.ok) throw new LinkError('z', inflated.why);
    pairs = splitPairs(inflated.text);
    for (const k of ['v', 'z']) if (pairs.has(k)) throw new LinkError(k, 'must not appear inside the deflated part');
  }
  const extras: Record<string, unknown> = {};
  const flagValue = (v: unknown) => (v === 1 ? true : v === 0 ? false : v);
  const entries = [...pairs].map(([k, text]) => [k, TEXT_KEYS.has(k) ? text : FLAG_PATHS.has(k) ? flagValue(parseValue(k, text)) : parseValue(k, text)] as const);
  entries.sort((a, b) => a[0].split('.').length - b[0].split('.').length); // lists before their entries' fields
  const tree: Record<string, unknown> = {};
  for (const [k, value] of entries) {
    if ((EXTRA_KEYS as readonly string[]).includes(k)) extras[k] = value;
    else if (k === 'version') throw new LinkError('version', `a link gives its version as v=${LINK_VERSION}`);
    else if (k === 'algorithms' && Array.isArray(value)) place(tree, k, value.map((e) => (typeof e === 'string' ? { id: e } : e)));
    else place(tree, k, value);
  }
  checkNoHoles(tree, '');
  const ex = extrasSchema.safeParse(extras);
  if (!ex.success) {
    const e = issueToError(ex.error.issues[0]!);
    throw new LinkError(e.path || 'link', e.detail);
  }
  const x = ex.data;
  const given = [x.hash, x.by, x.app].filter((v) => v !== undefined).length;
  if (given !== 0 && given !== 3) throw new LinkError(x.hash === undefined ? 'hash' : x.by === undefined ? 'by' : 'app', 'a results hash needs all three of hash, by and app');
  if (x.lesson !== undefined) {
    const given = Object.keys(tree);
    if (given.length) throw new LinkError('lesson', `a lesson link carries no settings of its own (it also gives ${given.slice(0, 3).join(', ')}); an edited lesson is an ordinary link`);
    const lesson = lessonById(x.lesson);
    if (!lesson) throw new LinkError('lesson', unknownLesson(x.lesson));
    state.config = { ...state.config, ...structuredClone(lesson.config), version: 1 };
    state.lesson = lesson.id;
  } else state.config = { ...state.config, ...tree, version: 1 };
  state.view = { metric: x['view.metric'] ?? DEFAULT_VIEW.metric, x: x['view.x'] ?? DEFAULT_VIEW.x };
  state.hash = x.hash !== undefined ? { digest: x.hash, by: x.by!, app: x.app! } : null;
  state.embed = x.embed ?? false;
  state.exact = x.exact ?? true;
  state.classroom = x.classroom ?? false;
  state.hide = x.hide ?? [];
  return { ok: true, empty: false, state, exp: resolveConfig(state.config), compressed };
}

/** Edit distance (Levenshtein) of two short strings. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** "no lesson "x"; did you mean y? The lessons: a, b, c, … (15 in all, listed in the Claims view)" */
function unknownLesson(id: string): string {
  const ids = LESSONS.map((l) => l.id);
  if (ids.length === 0) return `no lesson "${id}": this explorer has no lessons yet`;
  const near = ids.map((x) => ({ x, d: distance(id, x) })).sort((p, q) => p.d - q.d)[0];
  const guess = near && near.d <= Math.max(3, Math.floor(near.x.length / 3)) ? ` Did you mean ${near.x}?` : '';
  const SHOWN = 6;
  const list = ids.length <= SHOWN + 1 ? ids.join(', ') : `${ids.slice(0, SHOWN).join(', ')}, … (${ids.length} in all, listed in the Claims view)`;
  return `no lesson "${id}".${guess} The lessons are ${list}`;
}

/** Decode and validate a link (a URL, '#fragment' or the bare fragment). Never throws. */
export function decodeLink(input: string): LinkDecoded {
  try {
    return decodeOrThrow(input);
  } catch (e) {
    if (e instanceof LinkError) return { ok: false, field: e.field, message: e.message, future: e.future };
    if (e instanceof ConfigError) {
      const field = e.path || 'config';
      const future = e.path === 'version' && /newer version/.test(e.detail);
      return { ok: false, field, message: `${field}: ${e.detail}`, future };
    }
    return { ok: false, field: 'link', message: `link: could not be read (${e instanceof Error ? e.message.slice(0, 120) : 'unknown error'})`, future: false };
  }
}
