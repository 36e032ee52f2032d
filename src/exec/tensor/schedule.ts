import { walkIteration, type PlanProblem, type PlanRun, type StepView } from '../host/schedule';

/**
 * One optimizer step of one run, as the tensor executor batches it: the steps of the one
 * schedule (host/schedule.ts) the CPU executor walks too, so the same random numbers are drawn.
 */
export interface PlannedStep extends Pick<StepView, 'turn' | 'scale' | 'grouped' | 'geo' | 'advFrom' | 'k0' | 'k1' | 'counted'> {
  /** Rollouts in this step's chunk (null: all), each weighted by its batch weight · scale. */
  rollouts: Int32Array | null;
  /** The last step of a turn under the M correction: M takes this turn's ratio afterwards. */
  endsTurn: boolean;
}

export type { PlanProblem, PlanRun } from '../host/schedule';

/** The iteration's steps (host/schedule.ts walkIteration), as the batched device update takes them. */
export function planIteration(pb: PlanProblem, run: PlanRun, orderScratch: Int32Array): PlannedStep[] {
  const steps: PlannedStep[] = [];
  const mCorrection = run.algo.rule === 'sequential' && run.algo.mCorrection;
  walkIteration(pb, run, { perm: new Int32Array(pb.rollouts), order: orderScratch }, (s) =>
    steps.push({
      turn: s.turn,
      rollouts: s.chunked ? s.perm.slice(s.from, s.to) : null,
      scale: s.scale,
      grouped: s.grouped,
      geo: s.geo,
      advFrom: s.advFrom,
      k0: s.k0,
      k1: s.k1,
      endsTurn: mCorrection && s.lastOfTurn,
      counted: s.counted,
    }),
  );
  return steps;
}

/** Steps each turn's parameters take (Adam's per-turn counts; −1 counts for every turn). */
export function countSteps(step: PlannedStep, counts: Int32Array): void {
  if (step.turn < 0) for (let t = 0; t < counts.length; t++) counts[t]++;
  else counts[step.turn]++;
}
