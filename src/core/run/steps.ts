import type { Experiment } from '../config/experiment';

/** Optimizer steps one iteration of an algorithm takes (REINFORCE 1, PPU epochs·chunks, sequential T·epochs·chunks). */
export function stepsPerIteration(exp: Experiment, algoIndex: number): number {
  const a = exp.algorithms[algoIndex];
  const chunks = exp.mode === 'exact' ? 1 : a.minibatches;
  return a.rule === 'reinforce' ? 1 : a.rule === 'ppu' ? a.epochs * chunks : exp.env.turns * a.epochs * chunks;
}
