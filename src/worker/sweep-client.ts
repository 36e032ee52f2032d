import { shardCells } from '../core/sweep/document';
import type { SweepCell } from '../core/sweep/document';
import type { SweepInput } from '../core/sweep/schema';
import type { SweepWorkerEvent, SweepWorkerRequest } from './sweep-protocol';

// The page's side of a sweep: one worker per share of the cells (at most `threads`, never more
// than there are cells), their progress summed, every cell passed on as it arrives. Cancel
// terminates the workers.

export interface SweepEndpoint {
  post(req: SweepWorkerRequest): void;
  close(): void;
}
export type ConnectSweep = (onEvent: (e: SweepWorkerEvent) => void) => SweepEndpoint;

export interface SweepListener {
  progress(done: number, total: number): void;
  cell(cell: SweepCell): void;
  done(warnings: string[]): void;
  error(message: string): void;
}

export function startSweep(doc: SweepInput, cells: number, threads: number, connect: ConnectSweep, listener: SweepListener): { cancel(): void; workers: number } {
  const n = Math.max(1, Math.min(threads, cells));
  const done = new Array<number>(n).fill(0);
  const totals = new Array<number>(n).fill(0);
  const warnings = new Set<string>();
  let finished = 0;
  let over = false;
  const endpoints: SweepEndpoint[] = [];
  const stop = () => {
    over = true;
    endpoints.forEach((ep) => ep.close());
  };
  for (let i = 0; i < n; i++) {
    if (shardCells(cells, { index: i, count: n }).length === 0) continue;
    const ep = connect((e) => {
      if (over) return;
      if (e.type === 'progress') {
        done[i] = e.done;
        totals[i] = e.total;
        listener.progress(sum(done), sum(totals));
      } else if (e.type === 'cell') listener.cell(e.cell);
      else if (e.type === 'done') {
        e.warnings.forEach((w) => warnings.add(w));
        ep.close();
        if (++finished === endpoints.length) {
          over = true;
          listener.done([...warnings]);
        }
      } else {
        stop();
        listener.error(e.message);
      }
    });
    endpoints.push(ep);
    ep.post({ type: 'run', doc, shard: { index: i, count: n } });
  }
  return { cancel: stop, workers: endpoints.length };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
