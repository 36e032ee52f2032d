import { expect } from 'vitest';
import { ConfigError } from '../../src/core/config/fields';
import { resolveConfig, type Experiment } from '../../src/core/config/resolve';

/** Resolve `raw` and return the ConfigError it throws; fails the test if it resolves or throws anything else. */
export function configError(raw: unknown): ConfigError {
  let resolved: Experiment | undefined;
  try {
    resolved = resolveConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw new Error(`expected a ConfigError, got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
  throw new Error(`expected a ConfigError, but the config resolved (${resolved.algorithms.length} algorithms)`);
}

/**
 * Expect `raw` to be rejected at exactly `path`, with a message of the form "path: detail"
 * whose detail contains every string in `mentions` (the allowed range or values, the value given).
 */
export function expectRejected(raw: unknown, path: string, ...mentions: string[]): ConfigError {
  const e = configError(raw);
  expect(e.path).toBe(path);
  if (path) expect(e.message.startsWith(`${path}: `), e.message).toBe(true);
  expect(e.message).not.toContain('\n');
  for (const m of mentions) expect(e.message).toContain(m);
  return e;
}

/** A small valid config (lock preset, 1 seed, 5 iterations) with top-level fields replaced. */
export function base(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 1, env: { preset: 'lock' }, iterations: 5, seeds: 1, ...over };
}

/** `base` with a single algorithm entry. */
export function withAlgorithm(entry: Record<string, unknown>, over: Record<string, unknown> = {}): Record<string, unknown> {
  return base({ algorithms: [entry], ...over });
}
