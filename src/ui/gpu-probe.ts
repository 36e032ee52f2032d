import { adapterInfoOf, isSoftwareAdapter } from '../core/run/backend-report';
import type { GpuKind } from '../core/run/choose';
import { checkDraft, useApp } from './state';

// Which WebGPU adapter the page has, asked once at start-up: with a hardware adapter `auto` sends
// large tabular experiments to the WebGPU executor; with a software one (SwiftShader) the badge
// says why they stay on the CPU executor. A plan made before the answer is made again, unless a
// run has started (the next change of settings then uses it).

const kindOf = (a: GPUAdapter): GpuKind => (isSoftwareAdapter(adapterInfoOf(a as GPUAdapter & { isFallbackAdapter?: boolean })) ? 'software' : 'hardware');

export async function probeGpu(): Promise<void> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) return;
  let kind: GpuKind = null;
  try {
    const a = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    kind = a ? kindOf(a) : null;
  } catch {
    return;
  }
  if (kind === null) return;
  useApp.setState({ gpuKind: kind });
  const s = useApp.getState();
  if (s.status !== 'idle' || s.live !== null || !s.plan) return;
  const again = checkDraft(s.draft, kind);
  if (again.plan && (again.plan.choice.executor !== s.plan.choice.executor || again.plan.choice.reason !== s.plan.choice.reason)) useApp.setState({ plan: again.plan });
}
