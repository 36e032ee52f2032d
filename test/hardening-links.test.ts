import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeLink,
  encodeLinkChecked,
  MAX_FRAGMENT_CHARS,
  MAX_LINK_CHARS,
  TOO_LARGE_FOR_LINK,
  type LinkState,
} from '../src/core/config/link-codec';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { DEFAULT_VIEW } from '../src/core/config/view';
import { resolveConfig } from '../src/core/config/resolve';

// The page never writes a link it would refuse. For any accepted config,
// encodeLinkChecked either gives a fragment that opens (within every decoding limit) as the same
// experiment, or says "too large for a link: use Export config".

type Config = Record<string, unknown>;
const state = (config: Config): LinkState => ({ config, view: { ...DEFAULT_VIEW }, hash: null, embed: false, exact: true });
/** The address the page writes: its origin and path, '#', the fragment. */
const ADDRESS = 'https://example.org/some/deploy/path/index.html#';

/** Each reward table's values: random doubles (incompressible), a few decimals, or small integers. */
const valueKind = fc.constantFrom('double', 'decimals', 'integers');
function values(n: number, kind: string, seed: number): number[] {
  let x = seed >>> 0 || 1;
  const rnd = () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return Array.from({ length: n }, () => (kind === 'double' ? rnd() * 2 - 1 : kind === 'decimals' ? Math.round(rnd() * 100) / 100 : Math.floor(rnd() * 5)));
}

/** Custom environments up to the exact-J limit (65,536 sequences), with and without per-turn tables. */
const customEnv = fc
  .record({ turns: fc.integer({ min: 1, max: 4 }), vocab: fc.integer({ min: 2, max: 16 }), contexts: fc.integer({ min: 1, max: 256 }), kind: valueKind, seed: fc.nat(), perTurn: fc.boolean() })
  .filter(({ turns, vocab, contexts }) => contexts * vocab ** turns <= 65_536)
  .map(({ turns, vocab, contexts, kind, seed, perTurn }) => {
    const n = vocab ** turns;
    const env: Config = { turns, vocab, tokensPerTurn: 1, contexts, rewards: Array.from({ length: contexts }, (_, c) => values(n, kind, seed + c)) };
    if (perTurn && turns > 1)
      env.turnRewards = Array.from({ length: contexts }, (_, c) => Array.from({ length: turns - 1 }, (_, t) => values(vocab ** (t + 1), kind, seed + 7 * c + t)));
    return env;
  });

function checkInvariant(config: Config): 'link' | 'too large' {
  const exp = resolveConfig(config); // only accepted configs
  const r = encodeLinkChecked(state(config));
  if (!r.ok) {
    expect(r.message).toContain(TOO_LARGE_FOR_LINK);
    return 'too large';
  }
  expect(r.fragment.length).toBeLessThanOrEqual(MAX_FRAGMENT_CHARS);
  const address = ADDRESS + r.fragment;
  expect(address.length).toBeLessThanOrEqual(MAX_LINK_CHARS);
  const d = decodeLink(address);
  if (!d.ok) throw new Error(`the page would refuse its own link: ${d.message}`);
  expect(d.exp).toEqual(exp);
  return 'link';
}

describe('links the page writes always open', () => {
  it('custom environments up to 65,536 entries: a link that opens as the same experiment, or "too large"', () => {
    const seen = { link: 0, 'too large': 0 };
    fc.assert(
      fc.property(customEnv, (env) => {
        seen[checkInvariant({ ...structuredClone(DEFAULT_CONFIG), env, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] })]++;
      }),
      { numRuns: 60, seed: 1616 },
    );
    // both outcomes occur among the generated cases, so the property tests each branch
    expect(seen.link).toBeGreaterThan(10);
    expect(seen['too large']).toBeGreaterThan(0);
  }, 120_000);

  it('regression: the largest custom environment of random numbers (65,536 entries) is "too large", not a refused link', () => {
    const env = { turns: 4, vocab: 16, tokensPerTurn: 1, rewards: [values(65_536, 'double', 42)] };
    const r = encodeLinkChecked(state({ ...structuredClone(DEFAULT_CONFIG), env }));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(/^This experiment is too large for a link: use Export config \(it needs [\d,]+ characters; a link holds at most 191,808\)$/);
      expect(Number(/needs ([\d,]+)/.exec(r.message)![1]!.replace(/,/g, ''))).toBeGreaterThan(MAX_FRAGMENT_CHARS);
    }
  });

  it('the same size with two-decimal rewards compresses into a link that opens', () => {
    const env = { turns: 4, vocab: 16, tokensPerTurn: 1, rewards: [values(65_536, 'decimals', 42)] };
    expect(checkInvariant({ ...structuredClone(DEFAULT_CONFIG), env })).toBe('link');
  });

  it('every other setting at its largest still fits: 16 algorithms with every field, 64 changes, 256 noise entries', () => {
    const algorithms = Array.from({ length: 16 }, (_, i) => ({
      id: `a${i}`, preset: 'seeupo', normalization: 'group', order: 'random', turnRatio: 'geomean', mCorrection: false, mClip: 0.5,
      clip: 0.3, epochs: 8, minibatches: 2, lr: 0.125 + i, advantage: 'rloo',
    }));
    const changes = Array.from({ length: 64 }, (_, i) => ({ at: i + 1, path: i % 2 ? 'optimizer.lr' : 'algorithms[3].clip', value: 0.01 * (i + 1) }));
    const env = { turns: 2, vocab: 4, tokensPerTurn: 1, contexts: 256, rewards: Array.from({ length: 256 }, (_, c) => values(16, 'double', c)), noise: Array.from({ length: 256 }, (_, c) => ({ kind: 'gaussian', sigma: 0.1 + c / 1000 })) };
    expect(checkInvariant({ ...structuredClone(DEFAULT_CONFIG), iterations: 500, env, algorithms, changes })).toBe('link');
  });
});
