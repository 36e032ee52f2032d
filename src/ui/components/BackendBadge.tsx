import type { BackendReport } from '../../exec/tensor/backend';
import { adapterText } from '../backend-text';
import { useApp } from '../store';

const CPU_WHY = 'Each worker thread runs a share of the (algorithm, seed) runs in float64.';

interface BadgeText {
  executor: 'cpu' | 'tensor';
  backend: string;
  label: string;
  why: string;
}

function cpuBadge(threads: number, reason: string): BadgeText {
  return {
    executor: 'cpu',
    backend: 'none',
    label: `CPU executor · ${threads} worker ${threads === 1 ? 'thread' : 'threads'} · float64`,
    why: `Why: ${reason}. ${CPU_WHY}`,
  };
}

function tensorBadge(report: BackendReport | null, reason: string, running: boolean): BadgeText {
  if (!report)
    return {
      executor: 'tensor',
      backend: 'pending',
      label: `Tensor executor · ${running ? 'choosing a tfjs backend…' : 'tfjs backend chosen at run time'}`,
      why: `Why: ${reason}.`,
    };
  const onAdapter = report.backend === 'webgpu' && report.adapter;
  // Name the adapter unless the label or the backend's reason already does.
  const a = report.adapter;
  const named = a && (onAdapter || report.reason.includes(`${a.vendor} ${a.architecture}`.trim()));
  return {
    executor: 'tensor',
    backend: report.backend,
    label: `Tensor executor · tfjs ${report.backend}${onAdapter ? ` on ${adapterText(report.adapter!)}` : ''} · float32`,
    why: `Why: ${reason}. Backend: ${report.reason}.${a && !named ? ` WebGPU adapter: ${adapterText(a)}.` : ''}`,
  };
}

/** Which executor produced (or will produce) the numbers, on what, and why: every failed backend attempt included. */
export function BackendBadge() {
  const plan = useApp((s) => s.plan);
  const result = useApp((s) => s.result);
  const report = useApp((s) => s.backend);
  const running = useApp((s) => s.status === 'running');
  if (!plan) return null;
  const b =
    plan.choice.executor === 'cpu'
      ? cpuBadge(result?.threads ?? plan.threads, plan.choice.reason)
      : tensorBadge(report, plan.choice.reason, running);
  return (
    <div className="backend" data-testid="backend-badge" data-executor={b.executor} data-backend={b.backend}>
      <span className="badge" data-testid="backend-label">{b.label}</span>
      <span className="backend-why" data-testid="backend-why">{b.why}</span>
    </div>
  );
}
