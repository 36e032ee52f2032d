import type { BackendReport } from '../../core/run/backend-report';
import type { RunExecutor } from '../../core/run/choose';
import { adapterText } from '../backend-text';
import { setDraftValue, useApp } from '../store';

const CPU_WHY = 'Each worker thread runs a share of the (algorithm, seed) runs in float64.';

interface BadgeText {
  executor: RunExecutor;
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

function webgpuBadge(report: BackendReport | null, reason: string): BadgeText {
  const a = report?.adapter;
  if (report && report.backend !== 'webgpu')
    return {
      executor: 'webgpu',
      backend: 'cpu-fallback',
      label: 'WebGPU executor → CPU executor · float64',
      why: `Why: ${report.reason}.`,
    };
  return {
    executor: 'webgpu',
    backend: report ? 'webgpu' : 'pending',
    label: `WebGPU executor · ${a ? `${adapterText(a)} · ` : ''}float32`,
    why: `Why: ${reason}. ${report ? `${report.reason}.` : 'The adapter is asked for when the run starts.'} Tabular policies, exact or sampled: in exact mode its numbers agree with the CPU executor's float64 within float32 rounding; sampled runs draw their own random numbers (a counter-based generator on the GPU), so they agree with the CPU executor's in distribution, not sample for sample.`,
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

const EXECUTORS = [['auto', 'Auto'], ['cpu', 'CPU executor (float64)'], ['tensor', 'Tensor executor (tfjs)'], ['webgpu', 'WebGPU executor (WGSL, float32)']] as const;
const BACKENDS = [['auto', 'Auto'], ['webgpu', 'WebGPU'], ['webgl', 'WebGL'], ['wasm', 'wasm'], ['cpu', 'tfjs cpu']] as const;

/** Force the executor or the tfjs backend (a cold change: it restarts a running experiment). */
function ForceMenu() {
  const draft = useApp((s) => s.draft);
  const executor = typeof draft.executor === 'string' ? draft.executor : 'auto';
  const backend = typeof draft.backend === 'string' ? draft.backend : 'auto';
  const errExecutor = useApp((s) => s.fieldErrors.executor);
  const errBackend = useApp((s) => s.fieldErrors.backend);
  return (
    <details className="force-menu">
      <summary>Force an executor…</summary>
      <label>
        Executor{' '}
        <select data-testid="field-executor" value={executor} aria-invalid={errExecutor !== undefined} onChange={(e) => setDraftValue('executor', e.target.value)}>
          {EXECUTORS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
        </select>
      </label>
      {errExecutor && <span className="field-error" role="alert" data-testid="error-executor">{errExecutor}</span>}
      <label>
        tfjs backend{' '}
        <select data-testid="field-backend" value={backend} aria-invalid={errBackend !== undefined} onChange={(e) => setDraftValue('backend', e.target.value === 'auto' ? undefined : e.target.value)}>
          {BACKENDS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
        </select>
      </label>
      {errBackend && <span className="field-error" role="alert" data-testid="error-backend">{errBackend}</span>}
      <span className="muted">Changing either restarts a running experiment.</span>
    </details>
  );
}

/** Which executor produced (or will produce) the numbers, on what, why, and how fast: every failed backend attempt included. */
export function BackendBadge() {
  const plan = useApp((s) => s.plan);
  const report = useApp((s) => s.backend);
  const status = useApp((s) => s.status);
  const itPerSec = useApp((s) => s.itPerSec);
  const elapsed = useApp((s) => s.elapsed);
  if (!plan) return null;
  const running = status === 'running';
  const b =
    plan.choice.executor === 'cpu'
      ? cpuBadge(plan.threads, plan.choice.reason)
      : plan.choice.executor === 'webgpu'
        ? webgpuBadge(report, plan.choice.reason)
        : tensorBadge(report, plan.choice.reason, running);
  return (
    <section className="backend card" data-testid="backend-badge" data-executor={b.executor} data-backend={b.backend} aria-label="Compute">
      <span className="badge" data-testid="backend-label">{b.label}</span>
      <span className="rate" data-testid="it-per-sec" data-value={itPerSec ?? ''}>
        {itPerSec !== null ? `${itPerSec >= 100 ? itPerSec.toFixed(0) : itPerSec.toPrecision(3)} it/s` : '— it/s'}
        {elapsed > 0 ? ` · ${elapsed.toFixed(1)} s computing` : ''}
      </span>
      <span className="backend-why" data-testid="backend-why">{b.why}</span>
      <ForceMenu />
    </section>
  );
}
