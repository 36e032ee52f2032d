import { adapterInfoOf, isSoftwareAdapter, type AdapterInfo } from '../../core/run/backend-report';

// A WebGPU device for the executor, with what the badge says about its adapter. No tfjs here.

export interface GpuHandle {
  device: GPUDevice;
  adapter: AdapterInfo;
}

/** A device on the best adapter, or an Error saying why there is none. */
export async function acquireDevice(): Promise<GpuHandle> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) throw new Error('WebGPU unavailable: this browser has no navigator.gpu (use executor "cpu")');
  const a = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!a) throw new Error('WebGPU unavailable: no adapter (start Chromium with --enable-unsafe-webgpu, or use executor "cpu")');
  const adapter = adapterInfoOf(a as GPUAdapter & { isFallbackAdapter?: boolean });
  const limits = a.limits;
  const device = await a.requestDevice({ requiredLimits: { maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize, maxBufferSize: limits.maxBufferSize } });
  return { device, adapter };
}

/** "SwiftShader (software)" or "nvidia ampere". */
export function adapterName(a: AdapterInfo): string {
  const name = `${a.vendor} ${a.architecture}`.trim() || a.description || 'unnamed adapter';
  return isSoftwareAdapter(a) ? `${name} (software adapter)` : name;
}
