import { DEFAULT_CONFIG } from './defaults';
import { ConfigError, isRecord, issueToError, safeText, tooDeep, formatPath, MAX_DEPTH } from './fields';
import { resolveConfig, type Experiment } from './resolve';
import { customEnvSchema } from './schema';
import { checkKeyCounts } from './key-limit';

// Config and environment files the page imports, validated by the same schema as the CLI and
// permalinks. Never throws: a rejection names the field.

/** Files larger than this are refused unread. */
export const MAX_IMPORT_BYTES = 8 << 20;

export type Imported =
  | { ok: true; config: Record<string, unknown>; exp: Experiment }
  | { ok: false; field: string; message: string };


function parseJson(text: string, what: string): { ok: true; value: unknown } | { ok: false; field: string; message: string } {
  if (text.length > MAX_IMPORT_BYTES) return { ok: false, field: 'file', message: `file: the ${what} is ${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_IMPORT_BYTES.toLocaleString('en-US')}` };
  try {
    checkKeyCounts(text, `the ${what}`); // a key given twice, which JSON.parse would drop without a word, as the CLI refuses it
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { ok: false, field: 'file', message: `file: ${e.message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // the parser's message quotes the input: control characters escaped, cut short
    return { ok: false, field: 'file', message: `file: the ${what} is not valid JSON (${safeText((e as Error).message, 120)})` };
  }
  const deep = tooDeep(value);
  if (deep) {
    const shown = formatPath(deep.slice(0, 8)) + (deep.length > 8 ? '…' : '');
    return { ok: false, field: 'file', message: `file: the ${what} nests lists and objects deeper than ${MAX_DEPTH} levels (at ${shown}); the limit is ${MAX_DEPTH}` };
  }
  return { ok: true, value };
}

function resolved(config: Record<string, unknown>, prefix = ''): Imported {
  try {
    return { ok: true, config, exp: resolveConfig(config) };
  } catch (e) {
    if (!(e instanceof ConfigError)) return { ok: false, field: 'file', message: `file: could not be read (${e instanceof Error ? safeText(e.message, 120) : 'unknown error'})` };
    const field = e.path ? prefix + e.path : prefix.replace(/\.$/, '') || 'config';
    return { ok: false, field, message: `${field}: ${e.detail}` };
  }
}

/**
 * A result file the page or the CLI exported: it carries `Jstar`, `executor` and the runs, and
 * (the page's) the `config` that replays it.
 */
function isResultFile(v: Record<string, unknown>): boolean {
  return 'Jstar' in v && 'executor' in v && Array.isArray(v.algorithms) && v.algorithms.some((a) => isRecord(a) && Array.isArray(a.runs));
}

/** A config JSON file (the CLI's format, docs/cli.md "The config"), or a result file the page exported (its `config` is read). */
export function importConfig(text: string): Imported {
  const j = parseJson(text, 'config');
  if (!j.ok) return j;
  if (!isRecord(j.value)) return { ok: false, field: 'config', message: 'config: must be a JSON object like {"version": 1, "env": …, "algorithms": […]}' };
  if (isResultFile(j.value)) {
    const { config } = j.value;
    if (!isRecord(config))
      return { ok: false, field: 'config', message: 'config: this is a result file without the config that replays it (the CLI\'s results carry none); import the config file the run was made from' };
    return resolved(config, 'config.');
  }
  return resolved(j.value);
}

/**
 * A custom environment file ({turns, vocab, tokensPerTurn, rewards, …}, as `env` in a config,
 * optionally with per-turn rewards `turnRewards`: per context, T − 1 tables of V^(t·L) numbers),
 * checked against `base` (the config it goes into), which it returns with `env` replaced.
 */
export function importEnv(text: string, base: Record<string, unknown> = DEFAULT_CONFIG): Imported {
  const j = parseJson(text, 'environment');
  if (!j.ok) return j;
  const env = j.value;
  if (!isRecord(env)) return { ok: false, field: 'env', message: 'env: must be a JSON object like {"turns": 2, "vocab": 2, "tokensPerTurn": 1, "rewards": [[…]]}' };
  if ('preset' in env) return { ok: false, field: 'env.preset', message: 'env.preset: an environment file holds a custom reward table (turns, vocab, tokensPerTurn, rewards, optionally turnRewards); choose presets in the page' };
  const shape = customEnvSchema.safeParse(env);
  if (!shape.success) {
    const e = issueToError(shape.error.issues[0]!, ['env']);
    return { ok: false, field: e.path || 'env', message: e.path ? e.message : `env: ${e.detail}` };
  }
  return resolved({ ...base, env }, '');
}
