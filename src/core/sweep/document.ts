import { ConfigError, isRecord, quote } from '../config/fields';
import { checkAxes, checkCell } from './check-cell';
import { SWEEP_LIMITS } from './schema';
import { mix32 } from '../rng';
import type { ExperimentResult } from '../run/result';
import type { Claim, Verdict } from '../claims';
import type { Axis, AxisValue } from './schema';

// The sweep's output (docs/sweeps.md "The output"): per cell and algorithm the numbers of the
// cell's own result (result.ts buildResult: summary.ts and the claims engine), cells in index
// order. A shard's output is the same document with a `shard` field and only its cells; merging
// every shard of a sweep gives the unsharded document byte for byte.

export interface SweepClaim {
  claim: Claim['claim'];
  verdict: Verdict;
  parts?: { part: string; verdict: Verdict }[];
}

export interface SweepAlgorithm {
  id: string;
  finalJ: { mean: number | null; lo: number | null; hi: number | null };
  atOptimum: number;
  violations: number;
  medianItersTo95: number | null;
  /** The verdicts of the claims whose evidence this algorithm is part of. */
  claims: SweepClaim[];
}

export interface SweepCell {
  index: number;
  values: AxisValue[];
  Jstar: number;
  algorithms: SweepAlgorithm[];
}

export interface SweepOutput {
  version: 1;
  axes: Axis[];
  cells: SweepCell[];
}

export interface ShardInfo {
  index: number;
  count: number;
  /** Cells of the whole sweep. */
  cells: number;
  /** Digest of the sweep document (base and axes), so shards of different sweeps are never merged. */
  sweep: string;
}

export interface SweepShardOutput extends SweepOutput {
  shard: ShardInfo;
}

/** A cell's entry, read off the cell's result (the same numbers `run` prints for the cell). */
export function cellOf(index: number, values: AxisValue[], result: ExperimentResult): SweepCell {
  return {
    index,
    values,
    Jstar: result.Jstar,
    algorithms: result.algorithms.map((a) => ({
      id: a.id,
      finalJ: { mean: a.summary.finalJ.mean, lo: a.summary.finalJ.lo, hi: a.summary.finalJ.hi },
      atOptimum: a.summary.atOptimum,
      violations: a.summary.violations,
      medianItersTo95: a.summary.medianItersTo95,
      claims: result.claims
        .filter((c) => c.evidence.algorithms.some((e) => e.id === a.id))
        .map((c) => ({ claim: c.claim, verdict: c.verdict, ...(c.parts ? { parts: c.parts.map((p) => ({ part: p.part, verdict: p.verdict })) } : {}) })),
    })),
  };
}

/** The cells a shard runs: I, I + N, I + 2N, … below `cells`. */
export function shardCells(cells: number, shard: { index: number; count: number } | null): number[] {
  const out: number[] = [];
  const [start, step] = shard ? [shard.index, shard.count] : [0, 1];
  for (let c = start; c < cells; c += step) out.push(c);
  return out;
}

/** 16 hex digits of a text (two mix32 lanes): the sweep digest shards carry. */
export function textDigest(text: string): string {
  let a = 0x243f6a88, b = 0x85a308d3;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = mix32(a ^ c);
    b = mix32((b + c) ^ 0x9e3779b9);
  }
  a = mix32(a ^ text.length);
  b = mix32(b ^ a);
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

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
