import { sequenceCount } from '../env/tree';
import { prefixCount } from '../env/returns';
import { ConfigError, num } from './fields';
import { LIMITS, sizeFields } from './schema';

// The shapes of a custom env's reward tables against its sizes (docs/math.md "Environments: multi-turn bandits"): env.rewards
// has one table of V^(T·L) numbers per context; env.turnRewards, per context, T − 1 tables, table
// t of V^(t·L) numbers. Every problem is listed: resolveConfig throws the first, the page shows
// them all, each at its table. Only lengths are read here: a cell or a table that is not a
// number or a list is the schema's to refuse (listOf, finiteNumber), so the lists may hold anything.

type Sizes = { turns: number; vocab: number; tokensPerTurn: number };

/** "env.rewards[1] is missing" or "env.rewards[3] is extra": where a list of `got` entries differs from `want`. */
const whereOff = (path: string, got: number, want: number) => (got < want ? `${path}[${got}] is missing` : `${path}[${want}] is extra`);

/** env.rewards: one table per context, V^(T·L) numbers in each. */
export function rewardTableIssues(rewards: readonly unknown[], contexts: number, sz: Sizes): ConfigError[] {
  const out: ConfigError[] = [];
  if (rewards.length !== contexts)
    out.push(new ConfigError('env.rewards', `must have one table per context (${contexts}), got ${rewards.length}: ${whereOff('env.rewards', rewards.length, contexts)}`));
  const S = sequenceCount(sz);
  rewards.forEach((row, x) => {
    if (!Array.isArray(row) || row.length === S) return;
    const path = `env.rewards[${x}]`;
    out.push(new ConfigError(path, `must have ${S} numbers (vocab^(turns·tokensPerTurn) = ${sz.vocab}^${sz.turns * sz.tokensPerTurn}), got ${row.length}: ${whereOff(path, row.length, S)}`));
  });
  return out;
}

/** env.turnRewards: per context, T − 1 tables; table t (turn t + 1) of V^((t+1)·L) numbers. A wrong number of contexts is the only problem listed then. */
export function turnTableIssues(turnRewards: readonly unknown[], contexts: number, sz: Sizes): ConfigError[] {
  if (turnRewards.length !== contexts)
    return [new ConfigError('env.turnRewards', `must have one list of turn tables per context (${contexts}), got ${turnRewards.length}`)];
  const out: ConfigError[] = [];
  turnRewards.forEach((tables, x) => {
    if (!Array.isArray(tables)) return;
    if (tables.length !== sz.turns - 1) {
      out.push(new ConfigError(`env.turnRewards[${x}]`, `must have ${sz.turns - 1} tables (one per turn before the last; the terminal table is env.rewards), got ${tables.length}`));
      return;
    }
    tables.forEach((table, t) => {
      const n = prefixCount(sz, t + 1);
      if (!Array.isArray(table) || table.length === n) return;
      const power = sz.tokensPerTurn === 1 ? `V^${t + 1}` : `V^(${t + 1}·L)`;
      out.push(new ConfigError(`env.turnRewards[${x}][${t}]`, `turn ${t + 1} needs ${n} numbers (${power}), got ${table.length}`));
    });
  });
  return out;
}

const sizeChecks = { ...sizeFields, contexts: num(LIMITS.contexts) };

/**
 * The table shapes of a custom env object as written (cells unchecked), when its sizes are
 * valid; [] when a size is not (the schema says why) or a table is not a list.
 */
export function customTableIssues(env: Record<string, unknown>): ConfigError[] {
  const { rewards, turnRewards } = env;
  const rows = Array.isArray(rewards) ? rewards.length : 0;
  const given = { turns: env.turns, vocab: env.vocab, tokensPerTurn: env.tokensPerTurn, contexts: env.contexts ?? rows };
  for (const k of Object.keys(sizeChecks) as (keyof typeof sizeChecks)[]) if (!sizeChecks[k].safeParse(given[k]).success) return [];
  const sz = given as Sizes & { contexts: number };
  return [
    ...(Array.isArray(rewards) ? rewardTableIssues(rewards, sz.contexts, sz) : []),
    ...(Array.isArray(turnRewards) ? turnTableIssues(turnRewards, sz.contexts, sz) : []),
  ];
}
