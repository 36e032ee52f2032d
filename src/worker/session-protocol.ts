import type { RunSpec } from '../core/run/partition';
import type { TurnRecord } from '../core/run/turns';
import type { PolicyTreeView } from '../core/env/policy-tree';
import type { BackendReport } from '../exec/tensor/backend';

// An interactive session between the page and one worker that owns some runs of an
// experiment. The page can run, pause, run up to an iteration, perform one iteration turn by
// turn, change the learning rate or clips at an iteration, and set the speed.

import type { HotValues } from '../core/run/changes';
export type { HotValues } from '../core/run/changes';

export type SessionCommand =
  | { type: 'init'; config: unknown; specs: RunSpec[] }
  /** Compute until `until` iterations are done (null: the end), then report 'paused' (or 'done'). */
  | { type: 'go'; seq: number; until: number | null }
  | { type: 'pause'; seq: number }
  /** Perform the next iteration turn by turn (the worker must be paused). */
  | { type: 'turns'; seq: number }
  /** Apply these values before computing iteration `at` (→ at + 1). */
  | { type: 'hot'; at: number; values: HotValues }
  /** Iterations per second; 0 = as fast as possible. */
  | { type: 'speed'; speed: number }
  /** Send the policy trees of these runs ([algoIndex, seedIndex], at most two) in `context` after every iteration and turn step; [] stops. */
  | { type: 'watch'; runs: [number, number][]; context: number }
  /** End this session (the worker stays for the next 'init', its code compiled: worker-pool.ts); answered by 'closed'. */
  | { type: 'close' };

export type SessionEvent =
  /** `runs`: [algoIndex, seedIndex] of the worker's runs, in the order of its data blocks. */
  | { type: 'ready'; iteration: number; backend: BackendReport | null; Jstar: number; runs: [number, number][] }
  /** Metrics for iterations (from, to] of every run this worker owns (see series-block.ts). */
  | { type: 'data'; from: number; to: number; block: Float64Array; diverged: (number | null)[] }
  /** Stopped at `iteration`; `seq`: the latest command it had read. */
  | { type: 'paused'; seq: number; iteration: number }
  | { type: 'turns'; seq: number; iteration: number; records: TurnRecord[] }
  | { type: 'applied'; iteration: number }
  /** The watched runs' policy trees this worker owns, as they stand (after `data` up to their iteration). */
  | { type: 'policy'; trees: PolicyTreeView[] }
  /** What the runs compute on changed mid-run (a lost WebGPU device: the CPU executor took over). */
  | { type: 'backend'; backend: BackendReport }
  | { type: 'done'; seq: number; iteration: number }
  | { type: 'error'; message: string }
  /** The session is closed: every event before this one was its, every one after belongs to the next. */
  | { type: 'closed' };

export const TURN_STEP_NEEDS_CPU = 'Step one turn needs the CPU executor (a tabular policy): the tensor and WebGPU executors perform whole iterations';
