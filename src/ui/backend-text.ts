import type { AdapterInfo } from '../core/run/backend-report';

/** "google swiftshader (software fallback)" */
export function adapterText(a: AdapterInfo): string {
  const name = `${a.vendor} ${a.architecture}`.trim() || a.description || 'unnamed adapter';
  return a.isFallbackAdapter ? `${name} (software fallback)` : name;
}
