import { canRun, startRun, stopRun, useApp } from '../store';
import { BackendBadge } from './BackendBadge';
import { ConfigControls } from './ConfigControls';
import { RunProgress } from './RunProgress';

const LABELS = { idle: 'Run', running: 'Running…', done: 'Run again', stopped: 'Run again', error: 'Run again' } as const;

export function RunControls() {
  const status = useApp((s) => s.status);
  const ready = useApp(canRun);
  return (
    <section className="controls" aria-label="Run">
      <ConfigControls />
      <div className="run-buttons">
        <button type="button" className="run" data-testid="run" onClick={startRun} disabled={!ready}>
          {LABELS[status]}
        </button>
        {status === 'running' && (
          <button type="button" className="stop" data-testid="stop" onClick={stopRun}>
            Stop
          </button>
        )}
      </div>
      <RunProgress />
      <BackendBadge />
    </section>
  );
}
