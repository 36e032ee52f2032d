import * as tf from '@tensorflow/tfjs-core';

import type { AdapterInfo, BackendAttempt, BackendName, BackendReport } from '../../core/run/backend-report';
export type { AdapterInfo, BackendAttempt, BackendName, BackendReport } from '../../core/run/backend-report';

const withTimeout = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms))]);

/**
 * Try the backends in order: each `setBackend` under a timeout, then a smoke computation
 * (1 + 2 = 3) before trusting it. Every failed attempt's reason is kept for the badge.
 */
export async function selectBackend(order: BackendName[], opts: { timeoutMs?: number; why?: string } = {}): Promise<BackendReport> {
  const attempts: BackendAttempt[] = [];
  for (const name of order) {
    if (!tf.findBackendFactory(name)) {
      attempts.push({ backend: name, ok: false, reason: 'not registered in this build' });
      continue;
    }
    try {
      const ok = await withTimeout(tf.setBackend(name), opts.timeoutMs ?? 10_000, `setBackend('${name}')`);
      if (!ok) throw new Error('initialization failed');
      await tf.ready();
      const sum = tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(2)));
      const v = (await withTimeout(sum.data(), opts.timeoutMs ?? 10_000, 'smoke computation'))[0];
      sum.dispose();
      if (v !== 3) throw new Error(`smoke computation 1 + 2 gave ${v}`);
      attempts.push({ backend: name, ok: true, reason: 'ok' });
      const skipped = attempts.filter((a) => !a.ok).map((a) => `${a.backend}: ${a.reason}`);
      const reason = (opts.why ?? (attempts.length === 1 ? `${name} is the first choice` : `${name} is the first backend that worked`)) + (skipped.length ? ` (skipped ${skipped.join('; ')})` : '');
      return { backend: name, attempts, adapter: null, reason };
    } catch (e) {
      attempts.push({ backend: name, ok: false, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  throw new Error(`no tfjs backend works here: ${attempts.map((a) => `${a.backend}: ${a.reason}`).join('; ')}`);
}
