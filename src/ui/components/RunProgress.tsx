import { useApp } from '../store';
import { useAllShown } from './charts/common';

export function RunProgress() {
  const iteration = useApp((s) => s.iteration);
  const total = useApp((s) => s.total);
  const status = useApp((s) => s.status);
  // whether every chart, the verdicts, the table and the caption show the latest results (they
  // follow them in paced slots, charts/common.tsx): tests wait on it before reading numbers
  const drawn = useAllShown();
  const share = total > 0 ? Math.min(1, iteration / total) : 0;
  return (
    <div
      className="progress"
      data-testid="progress"
      data-status={status}
      data-drawn={drawn}
      role="progressbar"
      aria-label="Iterations completed by every run"
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={iteration}
    >
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      <span className="progress-text">{`${iteration} / ${total} iterations`}</span>
    </div>
  );
}
