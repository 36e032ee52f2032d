import type { SweepCell } from '../core/sweep/document';
import type { SweepInput } from '../core/sweep/schema';

// Messages between the page and a sweep worker (src/worker/sweep-worker.ts). Each worker runs one
// share of the cells — cells I, I+N, I+2N, … as `seeupo-explorer sweep --shard I/N` does — and
// posts every cell as it finishes.

export interface SweepWorkerRequest {
  type: 'run';
  /** The sweep document (the worker validates it again with parseSweep). */
  doc: SweepInput;
  shard: { index: number; count: number };
}

export type SweepWorkerEvent =
  | { type: 'progress'; done: number; total: number }
  | { type: 'cell'; cell: SweepCell }
  | { type: 'done'; warnings: string[] }
  | { type: 'error'; message: string };
