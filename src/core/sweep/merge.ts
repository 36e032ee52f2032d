import { ConfigError, isRecord, quote } from '../config/fields';
import { checkAxes, checkCell } from './check-cell';
import { shardCells, type ShardInfo, type SweepCell, type SweepOutput } from './document';
import { SWEEP_LIMITS, type Axis } from './schema';

// `merge`: the outputs of every shard of a sweep put together into the unsharded document
// (docs/sweeps.md), each shard checked field by field first (check-cell.ts).

/**
 * Merge the outputs of every shard of one sweep into the unsharded document. Every shard is
 * checked before anything is built (its size against the sweep limit first, so a shard claiming
 * 10⁹ cells allocates nothing): the same sweep digest, split and axes as the first; the cell
 * count the axes make; every cell the shard must hold, each with its index, the axes' values
 * for it and the sweep's algorithm list. Throws a ConfigError naming the file and the field.
 */
export function mergeShards(docs: unknown[], names: string[]): SweepOutput {
  if (docs.length === 0) throw new ConfigError('merge', 'give the shards\' output files: seeupo-explorer merge SHARD.json ...');
  if (docs.length > SWEEP_LIMITS.cells) throw new ConfigError('merge', `${docs.length.toLocaleString('en-US')} files; a sweep has at most ${SWEEP_LIMITS.cells.toLocaleString('en-US')} shards`);
  const heads = docs.map((d, i) => checkShardHead(d, names[i]!));
  const first = heads[0]!;
  const byIndex = new Map<number, number>();
  heads.forEach((s, i) => {
    const name = names[i]!;
    if (s.shard.sweep !== first.shard.sweep) throw new ConfigError(`${name}: shard.sweep`, `is ${quote(s.shard.sweep, 20)}, but ${names[0]} is of sweep ${quote(first.shard.sweep, 20)}: a shard of another sweep (or of this one decided by another version of the claims rules)`);
    if (JSON.stringify(s.axes) !== JSON.stringify(first.axes)) throw new ConfigError(`${name}: axes`, `differ from ${names[0]}'s: a shard of another sweep, or an edited one`);
    if (s.shard.count !== first.shard.count) throw new ConfigError(`${name}: shard.count`, `is ${s.shard.count}, but ${names[0]} is one of ${first.shard.count} shards; merge shards of one split`);
    if (byIndex.has(s.shard.index)) throw new ConfigError(`${name}: shard.index`, `shard ${s.shard.index}/${s.shard.count} is given twice (also ${names[byIndex.get(s.shard.index)!]})`);
    byIndex.set(s.shard.index, i);
  });
  const missing: number[] = [];
  for (let i = 0; i < first.shard.count && missing.length < 5; i++) if (!byIndex.has(i)) missing.push(i);
  if (missing.length)
    throw new ConfigError('merge', `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.shard.count}`).join(', ')}${missing.length === 5 ? ' …' : ''} missing; give every shard's output`);
  // the algorithm list of the sweep: every cell's, unless an axis sets an algorithm's id
  const idsVary = first.axes.some((a) => /(^|\.|\])id$/.test(a.path));
  let ids: string[] | null = null;
  const cells: SweepCell[] = [];
  heads.forEach((s, i) => {
    s.cells.forEach((c, j) => {
      const cell = checkCell(c, first.axes, s.shard.index + j * s.shard.count, `${names[i]}: cells[${j}]`, idsVary ? null : ids);
      if (!idsVary) ids ??= cell.algorithms.map((a) => a.id);
      cells[cell.index] = cell;
    });
  });
  return { version: 1, axes: first.axes, cells };
}

/** A shard's head checked (no cell yet): its shard field, its axes and its size against the limits. */
function checkShardHead(d: unknown, name: string): { axes: Axis[]; shard: ShardInfo; cells: unknown[] } {
  if (!isRecord(d) || d.version !== 1 || !Array.isArray(d.cells))
    throw new ConfigError(name, 'is not the output of seeupo-explorer sweep (a {"version": 1, "axes", "cells"} document)');
  for (const k in d) if (!['version', 'axes', 'shard', 'cells'].includes(k)) throw new ConfigError(`${name}: ${k.length > 30 ? quote(k, 30) : k}`, 'is not a field of a shard (version, axes, shard, cells)');
  const s = d.shard;
  if (!isRecord(s)) throw new ConfigError(name, 'has no "shard" field: it is a whole sweep, not a shard (run sweep with --shard I/N)');
  const int = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  for (const k in s) if (!['index', 'count', 'cells', 'sweep'].includes(k)) throw new ConfigError(`${name}: shard.${k.length > 30 ? quote(k, 30) : k}`, 'is not a field of shard (index, count, cells, sweep)');
  if (!int(s.count, 1, SWEEP_LIMITS.cells)) throw new ConfigError(`${name}: shard.count`, `must be a whole number from 1 to ${SWEEP_LIMITS.cells.toLocaleString('en-US')}`);
  if (!int(s.index, 0, (s.count as number) - 1)) throw new ConfigError(`${name}: shard.index`, `must be a whole number from 0 to ${(s.count as number) - 1} (shard.count − 1)`);
  if (!int(s.cells, 1, SWEEP_LIMITS.cells)) throw new ConfigError(`${name}: shard.cells`, `must be a whole number from 1 to ${SWEEP_LIMITS.cells.toLocaleString('en-US')} (the sweep limit)`);
  if (typeof s.sweep !== 'string' || !/^[0-9a-f]{16}$/.test(s.sweep)) throw new ConfigError(`${name}: shard.sweep`, 'must be the sweep digest (16 hex digits) that sweep --shard writes');
  const axes = checkAxes(d.axes, `${name}: axes`, SWEEP_LIMITS.cells);
  const made = axes.reduce((n, a) => n * a.values.length, 1);
  if (s.cells !== made) throw new ConfigError(`${name}: shard.cells`, `is ${s.cells as number}, but the axes make ${made} cells`);
  const shard = s as unknown as ShardInfo;
  const want = shardCells(made, shard).length;
  if (d.cells.length !== want) throw new ConfigError(`${name}: cells`, `has ${d.cells.length} cells; shard ${shard.index}/${shard.count} of ${made} cells holds ${want}`);
  return { axes, shard, cells: d.cells };
}
