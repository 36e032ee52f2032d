import { ConfigError, isRecord } from '../config/fields';
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
 * Merge the outputs of every shard of one sweep into the unsharded document. Throws a ConfigError
 * naming the file (by position) when they do not make exactly one sweep.
 */
export function mergeShards(docs: unknown[], names: string[]): SweepOutput {
  if (docs.length === 0) throw new ConfigError('merge', 'give the shards\' output files: seeupo-explorer merge SHARD.json ...');
  const shards = docs.map((d, i) => checkShard(d, names[i]!));
  const first = shards[0]!;
  const byIndex = new Map<number, number>();
  shards.forEach((s, i) => {
    const name = names[i]!;
    if (s.shard.sweep !== first.shard.sweep || s.shard.cells !== first.shard.cells || JSON.stringify(s.axes) !== JSON.stringify(first.axes))
      throw new ConfigError(name, `is a shard of another sweep than ${names[0]} (sweep ${s.shard.sweep}, not ${first.shard.sweep})`);
    if (s.shard.count !== first.shard.count) throw new ConfigError(`${name}: shard.count`, `is ${s.shard.count}, but ${names[0]} is one of ${first.shard.count} shards; merge shards of one split`);
    if (byIndex.has(s.shard.index)) throw new ConfigError(`${name}: shard.index`, `shard ${s.shard.index}/${s.shard.count} is given twice (also ${names[byIndex.get(s.shard.index)!]})`);
    byIndex.set(s.shard.index, i);
  });
  const missing: number[] = [];
  for (let i = 0; i < first.shard.count && missing.length < 5; i++) if (!byIndex.has(i)) missing.push(i);
  if (missing.length)
    throw new ConfigError('merge', `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.shard.count}`).join(', ')}${missing.length === 5 ? ' …' : ''} missing; give every shard's output`);
  const cells: SweepCell[] = new Array(first.shard.cells);
  for (const s of shards) for (const c of s.cells) cells[c.index] = c;
  return { version: 1, axes: first.axes, cells };
}

function checkShard(d: unknown, name: string): SweepShardOutput {
  if (!isRecord(d) || d.version !== 1 || !Array.isArray(d.axes) || !Array.isArray(d.cells))
    throw new ConfigError(name, 'is not the output of seeupo-explorer sweep (a {"version": 1, "axes", "cells"} document)');
  const s = d.shard;
  if (!isRecord(s)) throw new ConfigError(name, 'has no "shard" field: it is a whole sweep, not a shard (run sweep with --shard I/N)');
  const int = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min;
  if (!int(s.count, 1) || !int(s.index, 0) || (s.index as number) >= (s.count as number) || !int(s.cells, 1) || typeof s.sweep !== 'string')
    throw new ConfigError(`${name}: shard`, 'must be {"index": I, "count": N, "cells": C, "sweep": DIGEST} with 0 ≤ I < N, as sweep --shard writes it');
  const doc = d as unknown as SweepShardOutput;
  doc.cells.forEach((c, j) => {
    const want = doc.shard.index + j * doc.shard.count;
    if (!isRecord(c) || c.index !== want) throw new ConfigError(`${name}: cells[${j}].index`, `must be ${want} (shard ${doc.shard.index}/${doc.shard.count} holds cells ${doc.shard.index}, ${doc.shard.index + doc.shard.count}, …)`);
  });
  if (doc.cells.length !== shardCells(doc.shard.cells, doc.shard).length)
    throw new ConfigError(`${name}: cells`, `has ${doc.cells.length} cells; shard ${doc.shard.index}/${doc.shard.count} of ${doc.shard.cells} cells holds ${shardCells(doc.shard.cells, doc.shard).length}`);
  return doc;
}
