import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-webgl';
import '@tensorflow/tfjs-backend-webgpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasmPlain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { BACKENDS } from '../../core/options';
import { isSoftwareAdapter } from '../../core/run/backend-report';
import { selectBackend, type AdapterInfo, type BackendAttempt, type BackendName, type BackendReport } from './backend';

// Browser (page or Web Worker): all four tfjs backends. The wasm binaries are bundled by Vite and
// served with the page (all three must be mapped, or the import throws). The threaded wasm build
// hangs setBackend once bundled, so it is switched off.
tf.env().set('PROD', true);
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
setWasmPaths({
  'tfjs-backend-wasm.wasm': wasmPlain,
  'tfjs-backend-wasm-simd.wasm': wasmSimd,
  'tfjs-backend-wasm-threaded-simd.wasm': wasmThreaded,
});

/** Every backend, in the order the page tries them (src/core/options.ts). */
export const BROWSER_BACKENDS: BackendName[] = [...BACKENDS];
/** Where an explicitly asked backend falls back to, in order. */
const FALLBACK: BackendName[] = ['webgl', 'wasm', 'cpu'];
const TIMEOUT_MS = 20_000;
export const NO_ADAPTER = 'WebGPU unavailable: no adapter (start Chromium with --enable-unsafe-webgpu)';

interface GpuAdapterInfoLike {
  vendor?: string;
  architecture?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}
interface GpuAdapterLike {
  info?: GpuAdapterInfoLike;
  isFallbackAdapter?: boolean;
  requestAdapterInfo?: () => Promise<GpuAdapterInfoLike>;
}
interface GpuLike {
  requestAdapter(opts?: { powerPreference?: string }): Promise<GpuAdapterLike | null>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

const withTimeout = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms))]);


export function adapterLabel(a: AdapterInfo): string {
  return `${a.vendor} ${a.architecture}`.trim() || a.description || 'unnamed adapter';
}

/** Ask for the WebGPU adapter tfjs would get; null with the reason when there is none. */
async function probeWebGpu(): Promise<{ adapter: AdapterInfo | null; problem: string | null }> {
  const gpu = (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu;
  if (!gpu) return { adapter: null, problem: 'WebGPU unavailable: this browser has no navigator.gpu' };
  let a: GpuAdapterLike | null;
  try {
    a = await withTimeout(gpu.requestAdapter({ powerPreference: 'high-performance' }), 10_000, 'navigator.gpu.requestAdapter()');
  } catch (e) {
    return { adapter: null, problem: `WebGPU unavailable: ${message(e)}` };
  }
  if (!a) return { adapter: null, problem: NO_ADAPTER };
  let info: GpuAdapterInfoLike = a.info ?? {};
  if (!a.info && a.requestAdapterInfo) info = await a.requestAdapterInfo().catch(() => ({}));
  return {
    adapter: {
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      description: info.description ?? '',
      isFallbackAdapter: Boolean(info.isFallbackAdapter ?? a.isFallbackAdapter),
    },
    problem: null,
  };
}

/** The WebGL renderer string when it names a software rasterizer, else null. */
function softwareWebGl(): string | null {
  try {
    const canvas: OffscreenCanvas | HTMLCanvasElement =
      typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return null;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    return /swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer) ? renderer : null;
  } catch {
    return null;
  }
}

const shortRenderer = (r: string) => (/swiftshader/i.test(r) ? 'SwiftShader' : r.length > 60 ? `${r.slice(0, 60)}…` : r);
const failures = (attempts: BackendAttempt[]) =>
  attempts.filter((a) => !a.ok).map((a) => `${a.backend} failed: ${a.reason}`);

/**
 * Select the tfjs backend in a browser. Asked for one: try it, then webgl → wasm → cpu. Auto:
 * webgpu on a hardware adapter; when the only adapter is a software fallback (or there is none
 * and WebGL is software too) wasm first, since these small problems are bound by per-op dispatch
 * and wasm dispatches ~100× faster than software WebGPU. The reason names every failed attempt.
 */
export async function browserBackend(asked: BackendName | null): Promise<BackendReport> {
  const { adapter, problem } = await probeWebGpu();
  const pre: BackendAttempt[] = [];
  const notes: string[] = [];
  let order: BackendName[];
  if (asked) {
    order = [asked, ...FALLBACK.filter((b) => b !== asked)];
    notes.push(`asked for ${asked}`);
    if (asked === 'webgpu' && !adapter) {
      pre.push({ backend: 'webgpu', ok: false, reason: problem ?? NO_ADAPTER });
      order = order.slice(1);
    } else if (asked === 'webgpu' && adapter && isSoftwareAdapter(adapter)) {
      notes.push(`the WebGPU adapter is a software fallback (${adapterLabel(adapter)}), so it is slow here`);
    }
  } else if (adapter && !isSoftwareAdapter(adapter)) {
    order = BROWSER_BACKENDS;
    notes.push(`WebGPU adapter ${adapterLabel(adapter)} is hardware`);
  } else if (adapter) {
    order = ['wasm', 'webgl', 'cpu', 'webgpu'];
    notes.push(`WebGPU adapter is a software fallback (${adapterLabel(adapter)}); wasm is faster here`);
  } else {
    notes.push(problem ?? NO_ADAPTER);
    const soft = softwareWebGl();
    if (soft) {
      order = ['wasm', 'webgl', 'cpu'];
      notes.push(`WebGL is software (${shortRenderer(soft)}); wasm is faster here`);
    } else order = FALLBACK;
  }
  let report: BackendReport;
  try {
    report = await selectBackend(order, { timeoutMs: TIMEOUT_MS });
  } catch (e) {
    throw new Error([...notes, ...failures(pre), message(e)].join('; '));
  }
  const attempts = [...pre, ...report.attempts];
  const first = asked ?? order[0];
  const chosen = report.backend === first ? `using ${report.backend}` : `fell back to ${report.backend}`;
  return {
    backend: report.backend,
    attempts,
    adapter,
    reason: [...notes, ...failures(attempts), chosen].join('; '),
  };
}
