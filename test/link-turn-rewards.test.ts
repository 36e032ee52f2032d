import { describe, expect, it } from 'vitest';
import { COMPRESS_OVER, decodeLink, encodeLink, type LinkDecoded, type LinkState } from '../src/core/config/link-codec';
import { importConfig, importEnv } from '../src/core/config/import-file';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { DEFAULT_VIEW } from '../src/core/config/view';

// Permalinks and imported files carry the config fields of docs/cli.md "The config": per-turn rewards
// (env.turnRewards), an algorithm's own learning rate (algorithms[i].lr) and seedIndices.

type Config = Record<string, unknown>;

const state = (config: Config): LinkState => ({ config, view: { ...DEFAULT_VIEW }, hash: null, embed: false, exact: true });

function decoded(link: string): Extract<LinkDecoded, { ok: true }> {
  const d = decodeLink(link);
  if (!d.ok) throw new Error(`expected ${JSON.stringify(link.slice(0, 80))} to decode, got ${d.message}`);
  return d;
}

function rejected(link: string, field: string, ...mentions: (string | RegExp)[]): void {
  const d = decodeLink(link);
  if (d.ok) throw new Error(`expected ${JSON.stringify(link.slice(0, 80))} to be rejected at ${field}, but it decoded`);
  expect(d.field).toBe(field);
  expect(d.message.startsWith(`${field}: `), d.message).toBe(true);
  for (const m of mentions) expect(d.message).toMatch(m);
}

function roundTrip(config: Config): { link: string; back: Extract<LinkDecoded, { ok: true }> } {
  const link = encodeLink(state(config));
  const back = decoded(link);
  expect(back.exp).toEqual(resolveConfig(config));
  expect(resolveConfig(back.state.config)).toEqual(resolveConfig(config));
  return { link, back };
}

/** T = 2, V = 2, L = 1, one context: 0.5 for a first token 0, then 0.8 for the sequence 1-0 (docs/cli.md "env"). */
const contractEnv = { turns: 2, vocab: 2, tokensPerTurn: 1, turnRewards: [[[0.5, 0]]], rewards: [[0, 0, 0.8, 0]] };

describe('links carry per-turn rewards, per-algorithm learning rates and seed indices', () => {
  const config: Config = {
    ...structuredClone(DEFAULT_CONFIG),
    env: contractEnv,
    iterations: 20,
    seeds: 4,
    seedIndices: [1, 3],
    optimizer: { kind: 'sgd', lr: 0.3 },
    algorithms: [{ id: 'seeupo', lr: 0.5 }, { id: 'grpo' }, { id: 'reinforce', lr: 700 }],
  };

  it('as readable pairs, defaults left out', () => {
    const { link, back } = roundTrip(config);
    expect(link).toBe(
      'v=1&env.turns=2&env.vocab=2&env.tokensPerTurn=1&env.turnRewards.0=[[0.5,0]]&env.rewards.0=[0,0,0.8,0]&iterations=20&seeds=4' +
        '&algorithms=[seeupo,grpo,reinforce]&algorithms.0.lr=0.5&algorithms.2.lr=700&seedIndices=[1,3]',
    );
    expect(back.exp.seedIndices).toEqual([1, 3]);
    expect(back.exp.algorithms.map((a) => a.lr)).toEqual([0.5, null, 700]);
    expect(back.exp.env.turnRewards?.map((c) => c.map((t) => Array.from(t)))).toEqual([[[0.5, 0]]]);
    expect(Array.from(back.exp.env.returns[0]!)).toEqual([0.5, 0.5, 0.8, 0]);
  });

  it('a learning rate of null (the experiment\'s) and no turnRewards leave no trace', () => {
    const { link } = roundTrip({ ...structuredClone(DEFAULT_CONFIG), algorithms: [{ id: 'seeupo', lr: null }, { id: 'grpo' }] });
    expect(link).toBe('v=1&algorithms=[seeupo,grpo]');
    expect(link).not.toMatch(/turnRewards|seedIndices|lr/);
  });

  it('optimizer.lr and an algorithm\'s lr up to 1000', () => {
    const { link } = roundTrip({ ...structuredClone(DEFAULT_CONFIG), optimizer: { kind: 'adam', lr: 1000 }, algorithms: [{ id: 'rloo', lr: 1000 }] });
    expect(link).toContain('optimizer.lr=1000');
    expect(link).toContain('algorithms.0.lr=1000');
    rejected('v=1&algorithms=[rloo]&algorithms.0.lr=1001', 'algorithms[0].lr', '1000', '1001');
    rejected('v=1&algorithms=[rloo]&algorithms.0.lr=0', 'algorithms[0].lr', '> 0');
    rejected('v=1&optimizer.kind=sgd&optimizer.lr=1e4', 'optimizer.lr', '1000');
  });

  it('presets with per-turn rewards: several contexts, several tokens per turn', () => {
    // two-prompts: 2 contexts; T = 3, V = 3 → turn tables of 3 and 9 numbers
    const tables = (x: number) => [[0, 0.1 * x, 0], Array.from({ length: 9 }, (_, q) => (q === 4 ? 0.25 * (x + 1) : 0))];
    const { link, back } = roundTrip({
      ...structuredClone(DEFAULT_CONFIG),
      env: { preset: 'two-prompts', turns: 3, vocab: 3, turnRewards: [tables(0), tables(1)] },
      iterations: 5,
    });
    expect(link).toContain(`env.turnRewards.1=[[0,0.1,0],[${tables(1)[1]!.join(',')}]]`);
    expect(back.exp.env.turnRewards).not.toBeNull();
    // tokens: T = 2, V = 2, L = 2 → turn 1 has V^(1·L) = 4 prefixes
    const pairs = roundTrip({ ...structuredClone(DEFAULT_CONFIG), env: { preset: 'tokens', turnRewards: [[[0, 0, 0.5, 0]]] }, iterations: 5 });
    expect(pairs.link).toContain('env.preset=tokens&env.turnRewards.0=[[0,0,0.5,0]]');
    rejected('v=1&env.preset=tokens&env.turnRewards.0=[[0,0.5]]', 'env.turnRewards[0][0]', 'turn 1 needs 4 numbers (V^(1·L)), got 2');
  });

  it('per-turn tables of zeros are kept in the link (the same experiment as none)', () => {
    const zeros = { ...contractEnv, turnRewards: [[[0, 0]]] };
    const { link, back } = roundTrip({ ...structuredClone(DEFAULT_CONFIG), env: zeros, iterations: 5 });
    expect(link).toContain('env.turnRewards.0=[[0,0]]');
    expect(back.exp.env.turnRewards).toBeNull();
    expect(back.state.config.env).toEqual(zeros);
  });

  it('one turn: an empty list of turn tables per context round-trips', () => {
    const env = { turns: 1, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1], [1, 0]], turnRewards: [[], []] };
    const { link, back } = roundTrip({ ...structuredClone(DEFAULT_CONFIG), env, iterations: 5 });
    expect(link).toContain('env.turnRewards.0=[]&env.turnRewards.1=[]');
    expect(back.state.config.env).toEqual(env);
  });

  it('long turn tables are deflated past 1,500 characters and come back bit for bit', () => {
    // T = 4, V = 4: turn tables of 4, 16 and 64 numbers per context, 3 contexts
    const cell = (x: number, t: number, q: number) => Math.sin(1 + x * 1000 + t * 100 + q) / 3;
    const turnRewards = [0, 1, 2].map((x) => [4, 16, 64].map((n, t) => Array.from({ length: n }, (_, q) => cell(x, t, q))));
    const rewards = [0, 1, 2].map((x) => Array.from({ length: 256 }, (_, s) => (s === 17 * (x + 1) ? 1 : 0)));
    const config = { ...structuredClone(DEFAULT_CONFIG), env: { turns: 4, vocab: 4, tokensPerTurn: 1, rewards, turnRewards }, iterations: 5, seeds: 1 };
    const readable = encodeLink(state({ ...config, env: { ...config.env, turnRewards: [[[0, 0, 0, 0], [], []]] } }));
    expect(readable.length).toBeLessThanOrEqual(COMPRESS_OVER + 10); // zeros and one-hot rewards stay short
    const { link, back } = roundTrip(config);
    expect(link).toMatch(/^v=1&z=[A-Za-z0-9_-]+$/);
    expect(back.compressed).toBe(true);
    expect((back.state.config.env as { turnRewards: number[][][] }).turnRewards).toEqual(turnRewards);
    expect(back.exp.env.turnRewards![2]![2]![63]).toBe(cell(2, 2, 63));
  });

  it('the largest exact environment with per-turn rewards fits a link (one pair per context)', () => {
    // 256 contexts · 2^8 sequences = 65,536 (the exact-J limit), 7 turn tables per context
    const contexts = 256;
    const turnRewards = Array.from({ length: contexts }, (_, x) => Array.from({ length: 7 }, (_, t) => Array.from({ length: 2 ** (t + 1) }, (_, q) => ((x + q) % 5 === 0 ? 1 : 0))));
    const rewards = Array.from({ length: contexts }, (_, x) => Array.from({ length: 256 }, (_, s) => (s === x ? 1 : 0)));
    const config = {
      ...structuredClone(DEFAULT_CONFIG),
      env: { turns: 8, vocab: 2, tokensPerTurn: 1, rewards, turnRewards },
      mode: 'exact',
      iterations: 1,
      seeds: 1,
      algorithms: [{ id: 'reinforce' }],
    };
    const { back } = roundTrip(config);
    expect(back.compressed).toBe(true);
    expect(back.exp.env.turnRewards).toHaveLength(contexts);
  });
});

describe('a bad turn table in a link is refused with the field named', () => {
  const head = 'v=1&env.turns=2&env.vocab=2&env.tokensPerTurn=1&env.rewards.0=[0,0,0.8,0]';

  it('a table of the wrong length', () => {
    rejected(`${head}&env.turnRewards.0=[[0.5,0,1]]`, 'env.turnRewards[0][0]', 'turn 1 needs 2 numbers (V^1), got 3');
    rejected(`${head}&env.turnRewards.0.0=[0.5]`, 'env.turnRewards[0][0]', 'turn 1 needs 2 numbers');
  });

  it('a cell that is not a finite number', () => {
    rejected(`${head}&env.turnRewards.0=[[0.5,x]]`, 'env.turnRewards[0][0][1]', 'finite number', '"x"');
    rejected(`${head}&env.turnRewards.0=[[0.5,NaN]]`, 'env.turnRewards[0]', 'NaN is not allowed');
  });

  it('the wrong number of tables or contexts', () => {
    rejected(`${head}&env.turnRewards.0=[[0.5,0],[1,0,0,0]]`, 'env.turnRewards[0]', 'must have 1 tables', 'got 2');
    rejected(`${head}&env.turnRewards=[]`, 'env.turnRewards', 'one list of turn tables per context (1), got 0');
    rejected(`${head}&env.turnRewards=7`, 'env.turnRewards');
  });

  it('inside a deflated link too', () => {
    const turnRewards = [[Array.from({ length: 15 }, (_, q) => q / 7)]]; // turn 1 of V = 16 needs 16
    const rewards = [Array.from({ length: 256 }, (_, s) => Math.cos(s) / 5)];
    const link = encodeLink(state({ ...structuredClone(DEFAULT_CONFIG), env: { turns: 2, vocab: 16, tokensPerTurn: 1, rewards, turnRewards } }));
    expect(link).toMatch(/^v=1&z=/);
    rejected(link, 'env.turnRewards[0][0]', 'turn 1 needs 16 numbers (V^1), got 15');
  });

  it('bad seed indices and learning rates name their field', () => {
    rejected('v=1&seeds=4&seedIndices=[0,4]', 'seedIndices[1]', 'from 0 to 3');
    rejected('v=1&seeds=4&seedIndices=[2,2]', 'seedIndices[1]', 'duplicate');
    rejected('v=1&seedIndices=[]', 'seedIndices', 'at least one');
    rejected('v=1&algorithms=[grpo]&algorithms.0.lr=fast', 'algorithms[0].lr', '"fast"');
  });
});

describe('imported files carry them', () => {
  it('an environment file with per-turn rewards', () => {
    const r = importEnv(JSON.stringify(contractEnv));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect((r.config.env as Config).turnRewards).toEqual([[[0.5, 0]]]);
    expect(r.exp.env.turnRewards).not.toBeNull();
    // J* = 0.8 (the sequence 1-0), not 0.5
    expect(Math.max(...r.exp.env.returns[0]!)).toBe(0.8);
    // and its link gives the same experiment
    expect(decoded(encodeLink(state(r.config))).exp).toEqual(r.exp);
  });

  it('an environment file with a bad turn table is refused at the table or cell', () => {
    const bad = (turnRewards: unknown) => importEnv(JSON.stringify({ ...contractEnv, turnRewards }));
    const check = (r: ReturnType<typeof importEnv>, field: string, text: string) => {
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.field).toBe(field);
      expect(r.message.startsWith(`${field}: `)).toBe(true);
      expect(r.message).toContain(text);
    };
    check(bad([[[0.5, 0, 0]]]), 'env.turnRewards[0][0]', 'turn 1 needs 2 numbers (V^1), got 3');
    check(bad([[[0.5, 'x']]]), 'env.turnRewards[0][0][1]', 'finite number');
    check(bad([[[0.5, 0]], [[0, 0]]]), 'env.turnRewards', 'per context (1), got 2');
  });

  it('a config file with per-algorithm learning rates and seed indices', () => {
    const config = { version: 1, env: contractEnv, seeds: 3, seedIndices: [2], algorithms: [{ id: 'seeupo', lr: 2 }, { id: 'grpo', lr: null }] };
    const r = importConfig(JSON.stringify(config));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.exp.seedIndices).toEqual([2]);
    expect(r.exp.algorithms.map((a) => a.lr)).toEqual([2, null]);
    const bad = importConfig(JSON.stringify({ ...config, algorithms: [{ id: 'seeupo', lr: 5000 }] }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.field).toBe('algorithms[0].lr');
  });
});
