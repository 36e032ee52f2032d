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
