import { useEffect, useState } from 'react';
import { useApp } from '../../store';
import { timeLeft } from '../../sweep-text';

// The sweep's progress: runs·iterations done of all, cells finished, and the time left at the
// rate so far (refreshed each second while it runs).

export function SweepProgress() {
  const run = useApp((s) => s.sweep.run);
  const status = useApp((s) => s.sweep.status);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (status !== 'running') return;
    const t = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(t);
  }, [status]);
  if (!run) return null;
  const cells = run.cells.filter((c) => c !== undefined).length;
  const share = status === 'done' ? 1 : run.total > 0 ? Math.min(1, run.done / run.total) : 0;
  const left = status === 'running' ? timeLeft(run.done, run.total, Math.max(now, run.updatedAt) - run.startedAt) : null;
  const seconds = ((status === 'running' ? Math.max(now, run.updatedAt) : run.updatedAt) - run.startedAt) / 1000;
  const what =
    status === 'done'
      ? `done: ${cells} cells in ${seconds.toFixed(1)} s on ${run.threads} worker${run.threads === 1 ? '' : 's'}`
      : status === 'cancelled'
        ? `cancelled: ${cells} of ${run.cells.length} cells done`
        : status === 'error'
          ? `stopped: ${cells} of ${run.cells.length} cells done`
          : `${cells} / ${run.cells.length} cells · ${Math.round(share * 100)}%${left ? ` · ${left}` : ''}`;
  return (
    <div className="progress sweep-progress" data-testid="sweep-progress" data-status={status} role="progressbar" aria-label="Sweep progress"
      aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)}>
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      <span className="progress-text">{what}</span>
    </div>
  );
}
