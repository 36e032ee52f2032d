import type { RunSpec } from '../../core/run/partition';

// What an executor reports while an experiment runs in Node (the CLI's progress bar).

export interface Progress {
  /** Iterations every run has completed. */
  iteration: number;
  total: number;
  /** J of each reporting run at its latest iteration. */
  latest: { spec: RunSpec; iteration: number; J: number }[];
}
