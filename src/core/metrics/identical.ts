// Seeds that produce the same curve: exact mode from a uniform start (initScale 0) has no
// randomness, so every seed of an algorithm computes the same J. The page then draws one curve
// and says so, instead of "over 16 seeds".

/**
 * True when there are at least two curves and they are equal (bit for bit; NaN equals NaN) at
 * indices 0..upTo. Long curves are compared at about maxPoints evenly spaced indices and the last
 * (a deterministic run that agrees there agrees everywhere in practice), so the check stays cheap
 * on every redraw.
 */
export function seedsIdentical(curves: readonly ArrayLike<number>[], upTo: number, maxPoints = 4096): boolean {
  if (curves.length < 2) return false;
  const last = Math.min(upTo, ...curves.map((c) => c.length - 1));
  if (last < 0) return false;
  const stride = Math.max(1, Math.ceil((last + 1) / maxPoints));
  const first = curves[0]!;
  for (let k = 0; ; k = Math.min(k + stride, last)) {
    const v = first[k]!;
    for (let s = 1; s < curves.length; s++) {
      const w = curves[s]![k]!;
      if (!(w === v || (Number.isNaN(w) && Number.isNaN(v)))) return false;
    }
    if (k === last) return true;
  }
}
