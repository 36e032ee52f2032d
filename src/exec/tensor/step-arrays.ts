import { ADAM } from '../host/optimizer';
import type { AlgorithmRecord } from '../../core/algo/records';
import type { HostBatch } from './host';
import { countSteps } from './schedule';

// The host's share of every optimizer step of an iteration, packed into one array [K, F] that
// goes to the device in one upload (update.ts says what the device does with each field).
// Everything that does not depend on the parameters being updated is computed here, once.

/** Which fields a shard's step rows hold; fixed for the shard, so every shape is static. */
export interface StepLayout {
  R: number;
  S: number;
  P: number;
  /** Every run has token terms: no term matrix G. */
  tokenOnly: boolean;
  /** Some run counts clip statistics: the out weights OW. */
  stats: boolean;
  /** Some run multiplies M by its finished turns' ratios: the M matrix. */
  mCorrection: boolean;
  /** Adam: coefficients per (run, turn) (tables: T, spread over the nodes on the device) or per run (1); 0 for SGD. */
  adamWidth: number;
  /** Field sizes in a row, in the order aw, baw, [ow], [G], [mMat], [adam]. */
  sizes: number[];
  F: number;
}

const grouped = (a: AlgorithmRecord) => a.rule === 'sequential' || (a.rule === 'ppu' && a.ratio === 'sequence');

export function stepLayout(algos: AlgorithmRecord[], S: number, P: number, adamWidth: number): StepLayout {
  const R = algos.length;
  const L = {
    R,
    S,
    P,
    tokenOnly: !algos.some(grouped),
    stats: algos.some((a) => a.rule !== 'reinforce'),
    mCorrection: algos.some((a) => a.rule === 'sequential' && a.mCorrection),
    adamWidth,
  };
  const sizes = [R * S * P, R * S * P];
  if (L.stats) sizes.push(R * S * P);
  if (!L.tokenOnly) sizes.push(R * P * P);
  if (L.mCorrection) sizes.push(R * P * P);
  if (adamWidth > 0) sizes.push(R * adamWidth * 4);
  return { ...L, sizes, F: sizes.reduce((a, b) => a + b, 0) };
}

/** One iteration's packed steps and what the host knows of them. */
export interface IterationArrays {
  K: number;
  /** [K, F] rows of stepLayout's fields. */
  data: Float32Array;
  /** weight·Â of every token [R·S·P]: the policy gradient whose norm is reported. */
  cg: Float32Array;
  /** Step 0's coefficients (before the learning rate) equal cg: its gradient is the reported one. */
  shareStep0: boolean;
  /** Per step: some run multiplies M before it. */
  updatesM: boolean[];
  /** Per step: some run counts clip statistics (never at step 0, where every ratio is 1). */
  counts: boolean[];
  /** Clip-statistics weight per run [R], Σ over counted steps (known before any ratio). */
  den: Float32Array;
}

/** Reused host buffers of a shard (one iteration at a time). */
export interface StepScratch {
  data: Float32Array;
  cg: Float32Array;
  den: Float32Array;
  den64: Float64Array;
}

export function makeStepScratch(): StepScratch {
  return { data: new Float32Array(0), cg: new Float32Array(0), den: new Float32Array(0), den64: new Float64Array(0) };
}

/** Largest |value| written: keeps the packed rows finite (the device takes a row out by matMul). */
const BIG = 3e38;
const finite = (x: number) => (x > BIG ? BIG : x < -BIG ? -BIG : x);

/**
 * Every step of the iteration from the runs' plans. Runs whose plan is shorter sit a step out
 * with zero weights and an empty Adam scope. `eps[r]` is run r's ε and `lr[r]` its learning
 * rate: folded into AW and BAW of the steps after the first for SGD (`foldLr`), into lc1 for Adam. `adamCounts[r]` holds run r's steps per
 * turn (tables) or its single count (shared MLP), advanced here.
 */
export function iterationArrays(hb: HostBatch, L: StepLayout, eps: number[], lr: number[], foldLr: boolean, adamCounts: Int32Array[] | null, sc: StepScratch): IterationArrays {
  const { R, S, P } = hb;
  const K = Math.max(0, ...hb.plans.map((p) => p.length));
  const F = L.F;
  if (sc.data.length !== K * F) sc.data = new Float32Array(K * F);
  else sc.data.fill(0);
  if (sc.cg.length !== R * S * P) sc.cg = new Float32Array(R * S * P);
  if (sc.den.length !== R) {
    sc.den = new Float32Array(R);
    sc.den64 = new Float64Array(R);
  }
  const { data, cg, den64 } = sc;
  den64.fill(0);
  for (let j = 0; j < R * S; j++) {
    const w = hb.weight[j];
    for (let p = 0; p < P; p++) cg[j * P + p] = w * hb.advTok[j * P + p];
  }
  const RSP = R * S * P;
  const offOw = 2 * RSP;
  const offG = L.stats ? 3 * RSP : 2 * RSP;
  const offM = offG + (L.tokenOnly ? 0 : R * P * P);
  const offAdam = offM + (L.mCorrection ? R * P * P : 0);
  const W = L.adamWidth;
  const updatesM = new Array<boolean>(K).fill(false);
  const counts = new Array<boolean>(K).fill(false);
  let shareStep0 = K > 0;
  for (let k = 0; k < K; k++) {
    const row = k * F;
    for (let r = 0; r < R; r++) {
      // step 0's coefficients stay unscaled (its gradient may be the reported one; the device applies lr)
      const lrS = foldLr && k > 0 ? lr[r] : 1;
      const plan = hb.plans[r];
      const st = plan[k];
      const prev = k > 0 ? plan[k - 1] : undefined;
      if (L.mCorrection && prev?.endsTurn && st) {
        updatesM[k] = true;
        const o = row + offM + r * P * P;
        for (let j = prev.k0; j < prev.k1; j++) data.fill(1, o + j * P, o + (j + 1) * P);
      }
      if (!st) {
        // sits the step out: zero coefficients, an empty Adam scope (ic2 = 1 keeps it finite)
        if (k === 0) for (let j = r * S * P; j < (r + 1) * S * P; j++) if (cg[j] !== 0) shareStep0 = false;
        for (let t = 0; t < W; t++) data[row + offAdam + (r * W + t) * 4 + 3] = 1;
        continue;
      }
      if (st.grouped && L.tokenOnly) throw new Error('a grouped step in a token-only shard');
      const e = eps[r];
      const hi = (1 + e) * lrS;
      const lo = (1 - e) * lrS;
      const counted = st.counted && L.stats;
      if (counted && k > 0) counts[k] = true;
      const chunk = st.rollouts;
      const n = chunk ? chunk.length : S;
      for (let c = 0; c < n; c++) {
        const i = chunk ? chunk[c] : c;
        const w = Math.fround(hb.weight[r * S + i] * st.scale);
        if (w === 0) continue;
        const base = (r * S + i) * P;
        if (!st.grouped) {
          for (let j = st.k0; j < st.k1; j++) {
            const aw = Math.fround(hb.advTok[base + j] * w);
            if (k === 0 && aw !== cg[base + j]) shareStep0 = false;
            data[row + base + j] = finite(aw * lrS);
            data[row + RSP + base + j] = finite(aw * (aw > 0 ? hi : lo));
            if (counted) data[row + offOw + base + j] = w;
          }
          if (counted) den64[r] += w * (st.k1 - st.k0);
        } else {
          const advG = st.advFrom === 'adv' ? hb.adv[r * S + i] : hb.advTok[base + st.k0];
          const aw = Math.fround(advG * w);
          for (let j = st.k0; j < st.k1; j++) {
            if (k === 0 && aw !== cg[base + j]) shareStep0 = false;
            data[row + base + j] = finite(aw * lrS);
            data[row + RSP + base + j] = finite(aw * (aw > 0 ? hi : lo));
          }
          if (counted) {
            data[row + offOw + base + st.k0] = w;
            den64[r] += w;
          }
        }
      }
      if (k === 0 && (st.rollouts || st.k0 > 0 || st.k1 < P)) shareStep0 = false; // cg covers every rollout and token
      if (!L.tokenOnly) {
        // the log-ratio of each term, in every column: the token's own (identity) or the group's (geo over [k0, k1))
        const o = row + offG + r * P * P;
        if (st.grouped) for (let j = st.k0; j < st.k1; j++) data.fill(st.geo, o + j * P, o + (j + 1) * P);
        else for (let j = 0; j < P; j++) data[o + j * P + j] = 1;
      }
      if (W > 0) {
        const steps = adamCounts![r];
        if (W > 1) countSteps(st, steps);
        else steps[0]++;
        for (let t = 0; t < W; t++) {
          const o = row + offAdam + (r * W + t) * 4;
          if (W > 1 && st.turn >= 0 && st.turn !== t) {
            data[o + 3] = 1; // out of scope: nothing moves (ic2 = 1 keeps it finite)
            continue;
          }
          data[o] = 1 - ADAM.beta1;
          data[o + 1] = 1 - ADAM.beta2;
          data[o + 2] = lr[r] / (1 - Math.pow(ADAM.beta1, steps[t]));
          data[o + 3] = 1 / (1 - Math.pow(ADAM.beta2, steps[t]));
        }
      }
    }
  }
  for (let r = 0; r < R; r++) sc.den[r] = den64[r];
  return { K, data, cg, shareStep0, updatesM, counts, den: sc.den };
}
