// Groups of algorithms chosen by their fields, not their names (docs/claims.md, "Terms"), and twins.

import { FIELDS_USED_BY_RULE, fieldsRead, NAME_FIELDS, type AlgorithmRecord } from '../algo/records';
import type { ClaimsInput } from './types';

type Fields = Pick<AlgorithmRecord, 'rule' | 'advantage' | 'normalization' | 'order' | 'mCorrection'>;

const groupRelative = (a: Fields) => a.advantage === 'grae' || a.advantage === 'rloo';

/** GR: rule reinforce with advantage grae or rloo. */
export const isGR = (a: Fields): boolean => a.rule === 'reinforce' && groupRelative(a);
/** PG: rule ppu with advantage grae or rloo (PPO+GRAE, GRPO, GSPO). */
export const isPG = (a: Fields): boolean => a.rule === 'ppu' && groupRelative(a);
/** CF = GR ∪ PG: critic-free, all turns at once. */
export const isCF = (a: Fields): boolean => isGR(a) || isPG(a);
/** REV: rule sequential, order reverse, mCorrection true, advantage grae, normalization none or batch. */
export const isREV = (a: Fields): boolean =>
  a.rule === 'sequential' && a.order === 'reverse' && a.mCorrection === true && a.advantage === 'grae' && (a.normalization === 'none' || a.normalization === 'batch');

/** Every field some rule reads; a field of this set that neither algorithm's rule reads is ignored in twin comparisons. */
const RULE_SPECIFIC = new Set<string>(Object.values(FIELDS_USED_BY_RULE).flat());

/** The pseudo-field under which two algorithms with different scheduled clip changes differ. */
export const CLIP_CHANGES = 'clip changes';

const READ_BY_RULE = new Map<string, ReadonlySet<keyof AlgorithmRecord>>();
/** Whether the algorithm reads `key`: its rule's fields, the critic's only with gae advantages (fieldsRead, as the config's warnings say). */
const reads = (a: AlgorithmRecord, key: string): boolean => {
  if (typeof a.rule !== 'string' || !Object.hasOwn(FIELDS_USED_BY_RULE, a.rule)) return false;
  // fieldsRead depends on the rule and on whether the advantage is gae, nothing else; the twin
  // search asks for every pair of algorithms and every field, so each set is made once
  const k = a.advantage === 'gae' ? `${a.rule} gae` : a.rule;
  let read = READ_BY_RULE.get(k);
  if (!read) READ_BY_RULE.set(k, (read = fieldsRead(a)));
  return read.has(key as keyof AlgorithmRecord);
};

const same = (x: unknown, y: unknown): boolean => Object.is(x, y) || JSON.stringify(x) === JSON.stringify(y);

/**
 * The fields in which two algorithms differ, among those that matter to them: every field present
 * on either record except its names (`id`, `preset`, `label`), iterated generically (a field added to AlgorithmRecord later is
 * compared too), except a rule-specific field (one of FIELDS_USED_BY_RULE) that neither
 * algorithm reads (fieldsRead: its rule's fields; the critic's λ and lr only with gae advantages)
 * — the executor ignores it (the config warns), so it cannot change a run.
 * Twins thus match on every field either rule reads and on every field no rule list knows
 * (`rule` itself among them). `clipChanges` (optional): each one's scheduled clip changes, as a
 * string; they count as a field when either rule reads `clip`.
 */
export function differingFields(a: AlgorithmRecord, b: AlgorithmRecord, clipChanges: [string, string] = ['', ''], lrKeys?: [string, string]): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of NAME_FIELDS) keys.delete(k); // names (id, preset, label) say nothing about the runs
  const out: string[] = [];
  // with the effective learning rates known, `lr` differs only when the step sizes do (an own lr equal to optimizer.lr is the same run)
  if (lrKeys) {
    keys.delete('lr');
    if (lrKeys[0] !== lrKeys[1]) out.push('lr');
  }
  for (const k of keys) {
    if (RULE_SPECIFIC.has(k) && !reads(a, k) && !reads(b, k)) continue;
    if (!same((a as unknown as Record<string, unknown>)[k], (b as unknown as Record<string, unknown>)[k])) out.push(k);
  }
  if ((reads(a, 'clip') || reads(b, 'clip')) && clipChanges[0] !== clipChanges[1]) out.push(CLIP_CHANGES);
  return out;
}

/** Each algorithm's scheduled clip changes (path algorithms[i].clip) as a comparable string. */
export function clipSchedules(input: Pick<ClaimsInput, 'algorithms' | 'changes'>): string[] {
  return input.algorithms.map((_, i) =>
    (input.changes ?? [])
      .filter((c) => c.path === `algorithms[${i}].clip`)
      .map((c) => `${c.at}:${c.value}`)
      .join(','),
  );
}

/** b is a twin of a for `field`: another algorithm equal to it in every field that matters but `field`, which differs. */
export function isTwin(a: AlgorithmRecord, b: AlgorithmRecord, field: keyof AlgorithmRecord, clipChanges: [string, string] = ['', ''], lrKeys?: [string, string]): boolean {
  if (a === b) return false;
  const d = differingFields(a, b, clipChanges, lrKeys);
  return d.length === 1 && d[0] === field;
}

/**
 * An algorithm's effective learning rate (docs/claims.md, "Terms"): its own `lr` if set, else
 * optimizer.lr. The key also holds the scheduled changes of optimizer.lr that reach it (an
 * algorithm with an lr of its own keeps it), so two algorithms pair by learning rate only when
 * their step sizes agree at every iteration.
 */
export function effectiveLr(input: Pick<ClaimsInput, 'algorithms' | 'optimizer' | 'changes'>, index: number): { value: number; key: string } {
  const own = input.algorithms[index]?.lr ?? null;
  if (own !== null) return { value: own, key: `${own}` };
  const lr = input.optimizer?.lr ?? 1;
  const schedule = (input.changes ?? []).filter((c) => c.path === 'optimizer.lr').map((c) => `${c.at}:${c.value}`);
  return { value: lr, key: [String(lr), ...schedule].join(',') };
}
