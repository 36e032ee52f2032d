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
