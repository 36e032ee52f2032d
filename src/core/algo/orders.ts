import type { Rng } from '../rng';
import type { TurnOrder } from './records';

/**
 * The order in which a sequential update visits the turns (0-based), written into `out`.
 * `reverse` is SeeUPO's backward induction: T−1, …, 0.
 */
export function turnOrder(order: TurnOrder, T: number, rng: Rng, out: Int32Array): Int32Array {
  for (let i = 0; i < T; i++) out[i] = order === 'reverse' ? T - 1 - i : i;
  if (order === 'random') rng.shuffle(out, T);
  return out;
}
