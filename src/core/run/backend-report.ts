import type { BackendName } from '../options';

// What the tensor executor reports about the tfjs backend it got: the page's badge, the result
// JSON and the results hash read it, so the type lives here, below every executor and the page.

export type { BackendName } from '../options';

export interface BackendAttempt {
  backend: BackendName;
  ok: boolean;
  reason: string;
}

export interface AdapterInfo {
  vendor: string;
  architecture: string;
  description: string;
  isFallbackAdapter: boolean;
}

export interface BackendReport {
  backend: BackendName;
  attempts: BackendAttempt[];
  adapter: AdapterInfo | null;
  /** Why this backend: asked for, or the first that worked in the order tried. */
  reason: string;
}

/** A software adapter: flagged as a fallback, or SwiftShader by name. */
export function isSoftwareAdapter(a: AdapterInfo): boolean {
  return a.isFallbackAdapter || /swiftshader/i.test(a.architecture) || /swiftshader/i.test(a.description);
}

/** What the badge says about an adapter, read off a WebGPU adapter (its \`info\`, where the browser has it). */
export function adapterInfoOf(a: { info?: { vendor?: string; architecture?: string; description?: string }; isFallbackAdapter?: boolean }): AdapterInfo {
  const info = a.info ?? {};
  return {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    description: info.description ?? '',
    isFallbackAdapter: Boolean(a.isFallbackAdapter ?? (info as { isFallbackAdapter?: boolean }).isFallbackAdapter),
  };
}
