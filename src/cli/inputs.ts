import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { groupSizes } from '../core/algo/advantages';
import { issueToError, oneOf, finiteNumber } from '../core/config/fields';
import { InputError } from './errors';

/** Read and parse a JSON file; any failure is an InputError (exit 2). */
export function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${path}: cannot read the file (${code === 'ENOENT' ? 'no such file' : code ?? 'error'})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const detail = (e as Error).message.replace(/\s+/g, ' ').slice(0, 160);
    throw new InputError(`${path}: not valid JSON (${detail})`);
  }
}

const advantagesSchema = z.strictObject({
  rewards: z.array(finiteNumber()).min(1, 'must have at least one reward'),
  groups: z.array(
    z.unknown().transform((v, ctx): string | number => {
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
      ctx.addIssue({ code: 'custom', message: 'must be a string or a number (the prompt id)' });
      return z.NEVER;
    }),
  ),
  estimator: oneOf(['grae', 'rloo'] as const),
  normalization: oneOf(['none', 'group', 'batch'] as const),
});

export type AdvantagesInput = z.output<typeof advantagesSchema>;

export function parseAdvantagesInput(raw: unknown): AdvantagesInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputError('the input must be a JSON object with rewards, groups, estimator, normalization');
  const r = advantagesSchema.safeParse(raw);
  if (!r.success) throw new InputError(issueToError(r.error.issues[0]!).message);
  const d = r.data;
  if (d.groups.length !== d.rewards.length) throw new InputError(`groups: must have one entry per reward (${d.rewards.length}), got ${d.groups.length}`);
  for (const [g, n] of groupSizes(d.groups)) if (n < 2) throw new InputError(`groups: group "${g}" has ${n} rollout; every group needs at least 2`);
  return d;
}
