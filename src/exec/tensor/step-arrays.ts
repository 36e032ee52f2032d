import { ADAM } from '../cpu/optimizer';
import type { HostBatch } from './host';
import { countSteps } from './schedule';
import type { StepArrays } from './update';

/**
 * Step k's inputs for every run of the shard from the runs' plans. Runs whose plan is shorter
 * sit the step out with zero weights and an empty Adam scope. `adamCounts[r]` holds run r's
 * steps per turn (tables) or its single count (shared MLP), advanced here.
 */
export function stepArrays(hb: HostBatch, k: number, adamCounts: Int32Array[] | null, perTurnAdam: boolean, T: number): StepArrays {
  const { R, S, P } = hb;
  const width = perTurnAdam ? T : 1;
  const a: StepArrays = {
    w: new Float32Array(R * S),
    advG: new Float32Array(R * S),
    pos: new Float32Array(R * P),
    grouped: new Float32Array(R),
    geo: new Float32Array(R).fill(1),
    counted: new Float32Array(R),
    mUpd: new Float32Array(R),
    mPos: new Float32Array(R * P),
    anyMUpd: false,
    scope: new Float32Array(R * width),
    c1: new Float32Array(R * width).fill(1),
    c2: new Float32Array(R * width).fill(1),
  };
  for (let r = 0; r < R; r++) {
    const plan = hb.plans[r];
    const prev = k > 0 ? plan[k - 1] : undefined;
    if (prev?.endsTurn && k < plan.length) {
      a.mUpd[r] = 1;
      a.anyMUpd = true;
      a.mPos.fill(1, r * P + prev.k0, r * P + prev.k1);
    }
    const st = plan[k];
    if (!st) continue;
    const scale = st.scale;
    const setRollout = (i: number) => {
      a.w[r * S + i] = hb.weight[r * S + i] * scale;
      a.advG[r * S + i] = st.advFrom === 'adv' ? hb.adv[r * S + i] : hb.advTok[(r * S + i) * P + st.k0];
    };
    if (st.rollouts) st.rollouts.forEach(setRollout);
    else for (let i = 0; i < S; i++) setRollout(i);
    a.pos.fill(1, r * P + st.k0, r * P + st.k1);
    a.grouped[r] = st.grouped ? 1 : 0;
    a.geo[r] = st.geo;
    a.counted[r] = st.counted ? 1 : 0;
    if (!adamCounts) continue;
    const counts = adamCounts[r];
    if (perTurnAdam) countSteps(st, counts);
    else counts[0]++;
    for (let t = 0; t < width; t++) {
      if (perTurnAdam && st.turn >= 0 && st.turn !== t) continue;
      a.scope[r * width + t] = 1;
      a.c1[r * width + t] = 1 - Math.pow(ADAM.beta1, counts[t]);
      a.c2[r * width + t] = 1 - Math.pow(ADAM.beta2, counts[t]);
    }
  }
  return a;
}
