import type * as z from 'zod';
import { checkDepth, ConfigError, isRecord, issueToError } from './fields';
import { algorithmEntrySchema, configSchema, customEnvSchema, presetEnvSchema } from './schema';
import { customTableIssues } from './table-shapes';

// Every problem the schema finds in a config, all at once (resolveConfig stops at the first):
// the page's controls show each beside its field (ui/draft-errors.ts), from the same schema and
// in the same words as resolveConfig and the CLI.

function issuesOf(schema: z.ZodType, value: unknown, prefix: (string | number)[]): ConfigError[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((iss) => issueToError(iss, prefix));
}

/**
 * The schema's problems with a config object, each a ConfigError naming its field: the top-level
 * fields (configSchema), the env (a preset's, or a custom table's with its table shapes) and every
 * algorithm entry. What resolveConfig checks across fields (sizes against limits, ids, executors,
 * batch shapes) is not listed: it is checked once these pass.
 */
export function configIssues(raw: Record<string, unknown>): ConfigError[] {
  try {
    checkDepth(raw); // before zod walks it
  } catch (e) {
    return [e as ConfigError];
  }
  const out = issuesOf(configSchema, raw, []);
  const env = raw.env;
  if (isRecord(env)) {
    if ('preset' in env) out.push(...issuesOf(presetEnvSchema, env, ['env']));
    else out.push(...issuesOf(customEnvSchema, env, ['env']), ...customTableIssues(env));
  }
  if (Array.isArray(raw.algorithms)) raw.algorithms.forEach((a, i) => out.push(...issuesOf(algorithmEntrySchema, a, ['algorithms', i])));
  return out;
}
