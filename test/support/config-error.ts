import { expect } from 'vitest';
import { ConfigError } from '../../src/core/config/fields';

/** The message of the ConfigError `f` throws, or null when it throws nothing (the test fails if it throws anything else). */
function configErrorOrNull(f: () => unknown): string | null {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  return null;
}

/** The message of the ConfigError `f` throws (the test fails if it throws anything else, or nothing). */
export function configErrorOf(f: () => unknown): string {
  const message = configErrorOrNull(f);
  if (message === null) throw new Error('no error');
  return message;
}

/** The message of the ConfigError `f` throws, or 'accepted' when it throws nothing. */
export function configErrorOrAccepted(f: () => unknown): string {
  return configErrorOrNull(f) ?? 'accepted';
}
