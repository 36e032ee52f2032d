// Seeded random streams (docs/math.md "Randomness and reproducibility"). Every stream is keyed by a few integers
// (seed, seed index, algorithm position, purpose), so a run draws the same numbers
// whichever thread or shard computes it.

/** 32-bit integer hash (splitmix32 finalizer). */
export function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

/** Hash a list of integers into one 32-bit key. */
export function streamKey(...parts: number[]): number {
  let h = 0x6a09e667;
  for (const p of parts) h = mix32(h ^ mix32(p | 0));
  return h >>> 0;
}

export const Purpose = { init: 1, sample: 2, shuffle: 3, order: 4, noise: 5, evaluate: 6 } as const;

/** sfc32: small, fast, passes PractRand; state is four 32-bit words. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal = NaN;

  constructor(key: number) {
    this.a = mix32(key);
    this.b = mix32(key ^ 0x1234567);
    this.c = mix32(key ^ 0x7654321);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  uniform(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Standard normal (Box–Muller, the second value kept for the next call). */
  normal(): number {
    if (!Number.isNaN(this.spareNormal)) {
      const z = this.spareNormal;
      this.spareNormal = NaN;
      return z;
    }
    let u = 0;
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.uniform() * n);
  }

  /** In-place Fisher–Yates shuffle of the first `n` entries. */
  shuffle(arr: Int32Array, n = arr.length): void {
    for (let i = n - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = arr[i]!;
      arr[i] = arr[j]!;
      arr[j] = t;
    }
  }
}
