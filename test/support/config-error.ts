import { expect } from 'vitest';
import { ConfigError } from '../../src/core/config/fields';

/** The message of the ConfigError `f` throws (the test fails if it throws anything else, or nothing). */
export function configErrorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('no error');
}

/** The message of the ConfigError `f` throws, or 'accepted' when it throws nothing. */
export function configErrorOrAccepted(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  return 'accepted';
}
