// The baseline's own seeded generator: mulberry32 behind a closure. It does not reproduce the
// engine's streams (src/core/rng.ts); it only has to be a decent, seeded source of uniforms.

export interface Prng {
  uniform(): number; // [0, 1)
  normal(): number; // standard normal (Box–Muller, one value per call)
  int(n: number): number; // [0, n)
}

export function makePrng(...keys: number[]): Prng {
  let s = 0x2545f491;
  for (const k of keys) {
    s = Math.imul(s ^ (k | 0), 0x5bd1e995);
    s ^= s >>> 15;
  }
  const uniform = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < 8; i++) uniform();
  return {
    uniform,
    normal() {
      let u = 0;
      while (u === 0) u = uniform();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
    },
    int: (n) => Math.floor(uniform() * n),
  };
}

/** A new array with the items of `items` in a random order (Fisher–Yates). */
export function shuffled<T>(items: T[], rng: Prng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
