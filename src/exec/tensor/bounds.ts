import * as tf from '@tensorflow/tfjs-core';
import type { Bounds } from './update';

// Per-run clip bounds of the batched update: scalars when every run of a shard has the same, else
// tiles. Used by the device runs (built once, rebuilt on a hot clip change) and each iteration.

/** Per-run bounds [lo, hi] as scalars where every run has the same, else as [R, S, P] tiles. */
export function makeBounds(lo: number[], hi: number[], S: number, P: number): Bounds {
  const R = lo.length;
  const f = Math.fround;
  if (lo.every((x) => f(x) === f(lo[0])) && hi.every((x) => f(x) === f(hi[0]))) return { lo: f(lo[0]), hi: f(hi[0]) };
  const tile = (x: number[]) => {
    const a = new Float32Array(R * S * P);
    x.forEach((v, r) => a.fill(v, r * S * P, (r + 1) * S * P));
    return tf.tensor3d(a, [R, S, P]);
  };
  return { lo: tile(lo), hi: tile(hi) };
}

export function disposeBounds(b: Bounds | null): void {
  if (b && typeof b.lo !== 'number') tf.dispose([b.lo, b.hi as tf.Tensor]);
}
