import type { AlgorithmRecord } from '../../core/algo/records';

// Each run of a shard reads its algorithm's fields (rule, clip, epochs, lr, …) many times per
// iteration (rules.ts, host/schedule.ts, host/rollouts.ts). The resolved records come from object
// spreads of different presets (core/algo/records.ts), so V8 gives them different hidden classes
// and every such read in a shard of several algorithms is a megamorphic look-up. A copy made by
// this one literal has one shape whatever the algorithm: the reads are monomorphic. The values
// are the record's own; the one field a running experiment changes (clip, core/config/hot-paths.ts)
// is copied again before every iteration (syncHotFields).

/** A copy of `rec` with every field in one fixed order (one hidden class for every algorithm). */
export function fixedShapeCopy(rec: AlgorithmRecord): AlgorithmRecord {
  return {
    id: rec.id,
    advantage: rec.advantage,
    normalization: rec.normalization,
    rule: rec.rule,
    ratio: rec.ratio,
    order: rec.order,
    turnRatio: rec.turnRatio,
    mCorrection: rec.mCorrection,
    mClip: rec.mClip,
    clip: rec.clip,
    epochs: rec.epochs,
    minibatches: rec.minibatches,
    gaeLambda: rec.gaeLambda,
    criticLr: rec.criticLr,
    lr: rec.lr,
    preset: rec.preset,
    label: rec.label,
  };
}

/** The hot fields of the records (a clip changed at an iteration or live) into the copies. */
export function syncHotFields(copy: AlgorithmRecord, rec: AlgorithmRecord): void {
  copy.clip = rec.clip;
}
