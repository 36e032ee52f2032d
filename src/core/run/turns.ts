/**
 * What one run did in an iteration performed turn by turn ("Step one turn"): the turns it
 * updated, in order, and its exact J and optimal-token probabilities after each of them.
 * Rules that update every turn at once record one entry with turn −1 (all turns).
 */
export interface TurnRecord {
  turns: number[];
  J: number[];
  optimalProb: number[][];
}
