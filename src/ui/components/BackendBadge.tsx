import { useApp } from '../store';

const WHY =
  'Why: the policy is a table, so the run uses the CPU executor: exact float64 arithmetic, and for tables this small plain loops beat tensor dispatch. Each worker thread runs a share of the (algorithm, seed) runs.';

export function BackendBadge() {
  const planned = useApp((s) => s.plan?.threads ?? null);
  const used = useApp((s) => s.result?.threads ?? null);
  const threads = used ?? planned;
  if (threads === null) return null;
  return (
    <div className="backend">
      <span className="badge" data-testid="backend-badge" title={WHY}>
        {`CPU executor · ${threads} worker ${threads === 1 ? 'thread' : 'threads'} · float64`}
      </span>
      <span className="backend-why">{WHY}</span>
    </div>
  );
}
