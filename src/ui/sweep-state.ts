import type { SweepCell } from '../core/sweep/document';
import { DEFAULT_SWEEP_VIEW, type SweepView } from '../core/sweep/link';
import type { SweepInput } from '../core/sweep/schema';

// The Sweep view's part of the store: the axes being edited (a path and its values as typed), how
// the maps are drawn, and the sweep that ran (its document and its cells as they arrive).

/** An axis as edited: a config path and its values as comma-separated text. */
export interface SweepAxisDraft {
  path: string;
  values: string;
}

export type SweepStatus = 'idle' | 'running' | 'done' | 'error' | 'cancelled';

export interface SweepRun {
  /** The sweep document that ran (base and axes, values expanded). */
  doc: SweepInput;
  /** Cells by index, filled as they finish. */
  cells: (SweepCell | undefined)[];
  done: number;
  total: number;
  /** performance.now() at the start, and at the last progress message. */
  startedAt: number;
  updatedAt: number;
  warnings: string[];
  /** Web Workers it runs on. */
  threads: number;
}

export interface SweepState {
  /** One or two axes (the first varies along x). */
  axes: SweepAxisDraft[];
  view: SweepView;
  status: SweepStatus;
  /** Why the sweep cannot run, or why it failed (names the field). */
  error: string | null;
  run: SweepRun | null;
}

/** Values the page offers for a path (the user edits them freely). */
export const SUGGESTED_AXES: readonly SweepAxisDraft[] = [
  { path: 'optimizer.lr', values: '0.03, 0.1, 0.3, 1, 3, 10, 30, 100' },
  { path: 'algorithms.*.normalization', values: 'none, group, batch' },
  { path: 'algorithms.*.order', values: 'reverse, forward, random' },
  { path: 'algorithms.*.epochs', values: '1, 2, 4, 8' },
  { path: 'algorithms.*.clip', values: '0.05, 0.1, 0.2, 0.4, 0.8' },
  { path: 'algorithms.*.advantage', values: 'grae, rloo' },
  { path: 'groupSize', values: '2, 4, 8, 16' },
  { path: 'iterations', values: '50, 100, 200, 400' },
  { path: 'mode', values: 'exact, sampled' },
  { path: 'policy.shareContexts', values: 'false, true' },
];

export function initialSweepState(): SweepState {
  return { axes: [SUGGESTED_AXES[0]!, SUGGESTED_AXES[1]!], view: { ...DEFAULT_SWEEP_VIEW }, status: 'idle', error: null, run: null };
}
