import { startRun, useApp } from '../store';
import { BackendBadge } from './BackendBadge';
import { RunProgress } from './RunProgress';

const LABELS = { idle: 'Run', running: 'Running…', done: 'Run again', error: 'Run again' } as const;

export function RunControls() {
  const status = useApp((s) => s.status);
  const ready = useApp((s) => s.plan !== null);
  return (
    <section className="controls" aria-label="Run">
      <button type="button" className="run" data-testid="run" onClick={startRun} disabled={!ready || status === 'running'}>
        {LABELS[status]}
      </button>
      <RunProgress />
      <BackendBadge />
    </section>
  );
}
