import type { PolicyTreeView } from '../env/policy-tree';

/**
 * What one run did in an iteration performed turn by turn ("Step one turn"): the turns it
 * updated, in order, and its exact J and optimal-token probabilities after each of them.
 * Rules that update every turn at once record one entry with turn −1 (all turns).
 */
export interface TurnRecord {
  turns: number[];
  J: number[];
  optimalProb: number[][];
  /** For the runs whose policy tree the page draws: the tree after each entry of `turns`. */
  trees?: PolicyTreeView[];
}
