import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, ROOT, scratchDir, type CliResult } from '../helpers/cli';

// The headless CLI as docs/cli.md fixes it: exit 0 on success, 2 with one line on
// stderr for invalid input, 1 otherwise, never a stack trace.

let tmp: ReturnType<typeof scratchDir>;

beforeAll(() => {
  ensureBuilt();
  tmp = scratchDir();
}, 120_000);

afterAll(() => tmp?.cleanup());

/** stderr is exactly one non-empty line with no stack frames. */
function expectOneErrorLine(r: CliResult, ...mentions: string[]): string {
  const lines = r.stderr.split('\n').filter((l, i, all) => !(i === all.length - 1 && l === ''));
  expect(lines, r.stderr).toHaveLength(1);
  const line = lines[0]!;
  expect(line.trim()).not.toBe('');
  expect(r.stderr).not.toMatch(/^\s*at\s/m); // "    at fn (file:1:2)" frames
  expect(r.stderr).not.toMatch(/\.(js|ts|mjs):\d+:\d+/);
  for (const m of mentions) expect(line).toContain(m);
  return line;
}

const TINY_EXACT = { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 3, seeds: 1, algorithms: [{ id: 'seeupo' }] };

interface Run {
  seed: number;
  J: (number | null)[];
  entropy: (number | null)[];
  kl: (number | null)[];
  clipFraction: (number | null)[];
  zeroVarianceGroups: (number | null)[];
  gradNorm: (number | null)[];
  optimalTokenProb: (number | null)[][];
  diverged: number | null;
}
interface Result {
  version: number;
  Jstar: number;
  appVersion: string;
  executor: string;
  backend: string | null;
  jIsEstimate: boolean;
  threads: number;
  algorithms: { id: string; runs: Run[] }[];
}

describe('advantages', () => {
  it('grae/none on a small input: rewards [1,0,1,1], groups [a,a,b,b] → [0.5,-0.5,0,0]', () => {
    const f = tmp.file('adv-grae.json', { rewards: [1, 0, 1, 1], groups: ['a', 'a', 'b', 'b'], estimator: 'grae', normalization: 'none' });
    const r = cli('advantages', f);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ advantages: [0.5, -0.5, 0, 0] });
  });

  it('rloo/none with numeric group ids: [1,0,1,1], [1,1,2,2] → [1,-1,0,0]', () => {
    const f = tmp.file('adv-rloo.json', { rewards: [1, 0, 1, 1], groups: [1, 1, 2, 2], estimator: 'rloo', normalization: 'none' });
    const r = cli('advantages', f);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ advantages: [1, -1, 0, 0] });
  });

  it('group and batch normalization (unbiased std, ε = 1e-6), interleaved groups', () => {
    // groups a = {1, 0} (std √½), b = {1, 1} (std 0); rollouts interleaved a, b, a, b
    const input = { rewards: [1, 1, 0, 1], groups: ['a', 'b', 'a', 'b'], estimator: 'grae' };
    const g = cli('advantages', tmp.file('adv-group.json', { ...input, normalization: 'group' }));
    expect(g.code).toBe(0);
    const sa = 0.5 / (Math.SQRT1_2 + 1e-6);
    const group = JSON.parse(g.stdout).advantages as number[];
    expect(group).toHaveLength(4);
    [sa, 0, -sa, 0].forEach((v, i) => expect(group[i]).toBeCloseTo(v, 12));

    // batch: Â = [.5, 0, -.5, 0], μ = 0, σ = √((.25 + .25)/3)
    const b = cli('advantages', tmp.file('adv-batch.json', { ...input, normalization: 'batch' }));
    expect(b.code).toBe(0);
    const sb = 0.5 / (Math.sqrt(0.5 / 3) + 1e-6);
    const batch = JSON.parse(b.stdout).advantages as number[];
    [sb, 0, -sb, 0].forEach((v, i) => expect(batch[i]).toBeCloseTo(v, 12));
  });

  it('matches the reference fixtures (test/fixtures/advantages.json) within 1e-5', () => {
    const fx = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/advantages.json'), 'utf8')) as {
      cases: { id: string; input: unknown; expected: { advantages: number[] } }[];
    };
    expect(fx.cases.length).toBeGreaterThan(0);
    for (const c of fx.cases) {
      const r = cli('advantages', tmp.file(`fx-${c.id}.json`, c.input));
      expect(r.code, `${c.id}: ${r.stderr}`).toBe(0);
      const got = JSON.parse(r.stdout).advantages as number[];
      expect(got, c.id).toHaveLength(c.expected.advantages.length);
      got.forEach((v, i) => expect(Math.abs(v - c.expected.advantages[i]!), `${c.id}[${i}]`).toBeLessThanOrEqual(1e-5));
    }
  }, 120_000);

  it('a group of size 1 exits 2 with one line naming groups', () => {
    const f = tmp.file('adv-single.json', { rewards: [1, 0, 1], groups: ['a', 'a', 'b'], estimator: 'grae', normalization: 'none' });
    const r = cli('advantages', f);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expectOneErrorLine(r, 'groups', '"b"', 'at least 2');
  });

  it('other invalid inputs exit 2 naming the field', () => {
    const ok = { rewards: [1, 0], groups: ['a', 'a'], estimator: 'grae', normalization: 'none' };
    const bad: [string, unknown, string[]][] = [
      ['estimator', { ...ok, estimator: 'gae' }, ['estimator', '"grae", "rloo"']],
      ['normalization', { ...ok, normalization: 'std' }, ['normalization', '"none", "group", "batch"']],
      ['lengths', { ...ok, groups: ['a', 'a', 'a'] }, ['groups', 'one entry per reward (2)', 'got 3']],
      ['reward type', { ...ok, rewards: [1, 'x'] }, ['rewards[1]', 'finite number']],
      ['unknown field', { ...ok, colour: 1 }, ['colour', 'unknown field']],
      ['array', [1, 2], ['JSON object']],
    ];
    for (const [name, input, mentions] of bad) {
      const r = cli('advantages', tmp.file(`adv-bad-${name.replace(/ /g, '-')}.json`, input));
      expect(r.code, name).toBe(2);
      expect(r.stdout, name).toBe('');
      expectOneErrorLine(r, ...mentions);
    }
  });

  it('a missing input file exits 2', () => {
    const r = cli('advantages', join(tmp.dir, 'nope.json'));
    expect(r.code).toBe(2);
    expectOneErrorLine(r, 'nope.json');
  });
});

describe('run', () => {
  let tiny: CliResult;
  let result: Result;
  beforeAll(() => {
    tiny = cli('run', tmp.file('tiny.json', TINY_EXACT));
    result = JSON.parse(tiny.stdout) as Result;
  }, 120_000);

  it('a tiny exact config exits 0 with the result JSON on stdout and nothing on stderr', () => {
    expect(tiny.code).toBe(0);
    expect(tiny.stderr).toBe('');
    expect(tiny.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('states version, J*, executor, backend and jIsEstimate', () => {
    expect(result.version).toBe(1);
    expect(result.Jstar).toBe(1);
    expect(result.executor).toBe('cpu');
    expect(result.backend).toBeNull();
    expect(result.jIsEstimate).toBe(false);
    expect(result.appVersion).toBe('0.1.0');
  });

  it('J has iterations+1 values, J[0] = the uniform policy’s 1/27 + 0.3/3', () => {
    expect(result.algorithms).toHaveLength(1);
    expect(result.algorithms[0]!.id).toBe('seeupo');
    expect(result.algorithms[0]!.runs).toHaveLength(1);
    const run = result.algorithms[0]!.runs[0]!;
    expect(run.seed).toBe(0);
    expect(run.J).toHaveLength(4);
    expect(Math.abs(run.J[0]! - 0.1370370370370371)).toBeLessThan(1e-15);
    expect(run.J[0]).toBeCloseTo(1 / 27 + 0.3 / 3, 15);
    for (const j of run.J) {
      expect(typeof j).toBe('number');
      expect(j!).toBeGreaterThanOrEqual(0);
      expect(j!).toBeLessThanOrEqual(1);
    }
    // exact mode is deterministic and the update moves J
    expect(run.J[3]).not.toBe(run.J[0]);
    expect(run.diverged).toBeNull();
  });

  it('per-iteration metrics have the lengths the contract says', () => {
    const run = result.algorithms[0]!.runs[0]!;
    // defined before the first update: iterations + 1
    expect(run.entropy).toHaveLength(4);
    expect(run.entropy[0]).toBeCloseTo(Math.log(3), 12); // uniform over 3 tokens at every node
    expect(run.optimalTokenProb).toHaveLength(3); // one array per turn
    for (const p of run.optimalTokenProb) {
      expect(p).toHaveLength(4);
      expect(p[0]).toBeCloseTo(1 / 3, 12);
    }
    // defined per update: iterations
    for (const m of ['kl', 'clipFraction', 'zeroVarianceGroups', 'gradNorm'] as const) {
      expect(run[m], m).toHaveLength(3);
      for (const v of run[m]) expect(typeof v, m).toBe('number');
    }
  });

  it('exact runs are reproducible', () => {
    const again = JSON.parse(cli('run', tmp.file('tiny-again.json', TINY_EXACT)).stdout) as Result;
    expect(again.algorithms[0]!.runs[0]!.J).toEqual(result.algorithms[0]!.runs[0]!.J);
  });

  it('--out writes the result file and leaves stdout empty', () => {
    const out = join(tmp.dir, 'result.json');
    const r = cli('run', tmp.file('tiny-out.json', TINY_EXACT), '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const written = JSON.parse(readFileSync(out, 'utf8')) as Result;
    expect(written.version).toBe(1);
    expect(written.algorithms[0]!.runs[0]!.J).toEqual(result.algorithms[0]!.runs[0]!.J);
  });

  it('warnings go to stderr, the result still to stdout', () => {
    const r = cli('run', tmp.file('warn.json', { ...TINY_EXACT, algorithms: [{ id: 'reinforce', epochs: 2 }] }));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning/i);
    expect(r.stderr).toContain('epochs');
    expect(r.stderr).not.toMatch(/^\s*at\s/m);
    expect(JSON.parse(r.stdout).algorithms[0].id).toBe('reinforce');
  });

  it('a missing config file exits 2 with one line naming the file', () => {
    const r = cli('run', join(tmp.dir, 'missing-config.json'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expectOneErrorLine(r, 'missing-config.json');
  });

  it('malformed JSON exits 2 with one line naming the file', () => {
    for (const [name, text] of [
      ['truncated.json', '{"version": 1, "env": {"preset": '],
      ['empty.json', ''],
      ['trailing-comma.json', '{"version": 1,}'],
    ] as const) {
      const r = cli('run', tmp.file(name, text));
      expect(r.code, name).toBe(2);
      expect(r.stdout, name).toBe('');
      expectOneErrorLine(r, name, 'JSON');
    }
  });

  it('an invalid field exits 2 with one line naming the field and the allowed range', () => {
    const r = cli('run', tmp.file('bad-clip.json', { ...TINY_EXACT, algorithms: [{ id: 'grpo', clip: 0 }] }));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expectOneErrorLine(r, 'algorithms[0].clip', '> 0 and ≤ 10', 'got 0');
  });

  it('other validation failures exit 2 naming the field', () => {
    const cases: [string, unknown, string[]][] = [
      ['version', { ...TINY_EXACT, version: 2 }, ['version', 'newer']],
      ['unknown', { ...TINY_EXACT, colour: 'red' }, ['colour', 'unknown field']],
      ['groupSize', { ...TINY_EXACT, groupSize: 1 }, ['groupSize', 'from 2 to 4096']],
      ['rewards', { ...TINY_EXACT, env: { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[0, 1]] } }, ['env.rewards[0]', 'must have 4 numbers']],
      ['sequences', { ...TINY_EXACT, env: { turns: 5, vocab: 16, tokensPerTurn: 1, rewards: [[]] } }, ['65,536']],
      ['array', [TINY_EXACT], ['JSON object']],
      ['null', null, ['JSON object']],
    ];
    for (const [name, cfg, mentions] of cases) {
      const r = cli('run', tmp.file(`invalid-${name}.json`, cfg));
      expect(r.code, name).toBe(2);
      expect(r.stdout, name).toBe('');
      expectOneErrorLine(r, ...mentions);
    }
  });

  it('an unknown command exits 2 with one line', () => {
    const r = cli('frobnicate', tmp.file('any.json', TINY_EXACT));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expectOneErrorLine(r, 'frobnicate');
  });

  it('no command exits 2 with one line listing every command (lessons too)', () => {
    const r = cli();
    expect(r.code).toBe(2);
    expectOneErrorLine(r, 'run, claims, advantages, sweep, merge or lessons');
  });

  it("a sweep's link given to run --link exits 2 saying it is a sweep's, not an unknown field", () => {
    const r = cli('run', '--link', 'http://localhost/#v=1&sweep=eJyrVspMUbIyNjIwMjAzMDAwNjA0MjE2NDQxMTK0MDSuBQBDcQXh');
    expect(r.code).toBe(2);
    expect(expectOneErrorLine(r, "--link: this is a sweep's link")).not.toContain('unknown field');
  });

  it('a config file that starts with a byte-order mark runs as without one (as the page imports it)', () => {
    const plain = cli('run', tmp.file('plain.json', TINY_EXACT), '--threads', '1');
    const bom = cli('run', tmp.file('bom.json', `\ufeff${JSON.stringify(TINY_EXACT)}`), '--threads', '1');
    expect(bom.code, bom.stderr).toBe(0);
    const strip = (out: string) => ({ ...JSON.parse(out), wallSeconds: 0, algorithms: null });
    expect(strip(bom.stdout)).toEqual(strip(plain.stdout));
    expect(JSON.parse(bom.stdout).resultsHash).toEqual(JSON.parse(plain.stdout).resultsHash);
  });

  it('run without a file exits 2', () => {
    const r = cli('run');
    expect(r.code).toBe(2);
    expectOneErrorLine(r);
  });

  it('a bad --threads value exits 2 naming --threads', () => {
    const r = cli('run', tmp.file('threads-bad.json', TINY_EXACT), '--threads', '0');
    expect(r.code).toBe(2);
    expectOneErrorLine(r, '--threads');
  });

  it('--out into a missing folder is refused before the run (exit 2, the folder named)', () => {
    const r = cli('run', tmp.file('tiny-out-bad.json', TINY_EXACT), '--out', join(tmp.dir, 'no-such-dir', 'r.json'));
    expect(r.code).toBe(2);
    expectOneErrorLine(r);
    expect(r.stderr).toContain('--out: cannot write in the folder');
    expect(r.stderr).toContain('no-such-dir');
    expect(r.stderr).toContain('does not exist');
    expect(r.stderr).not.toContain('running');
  });

  it('--out naming a folder is invalid input, refused before the run (exit 2, one line, no stack)', () => {
    const r = cli('run', tmp.file('tiny-out-dir.json', TINY_EXACT), '--out', tmp.dir);
    expect(r.code).toBe(2);
    expectOneErrorLine(r);
    expect(r.stderr).toContain('is a folder; give a file name');
    expect(r.stderr).not.toContain('running');
  });

  it('--threads 1 and --threads 2 give identical J for a sampled config (2 algorithms × 3 seeds)', () => {
    const cfg = {
      version: 1,
      env: { preset: 'two-prompts' },
      mode: 'sampled',
      iterations: 6,
      seeds: 3,
      groupSize: 4,
      algorithms: [{ id: 'grpo' }, { id: 'seeupo-random' }],
    };
    const f = tmp.file('sampled.json', cfg);
    const one = cli('run', f, '--threads', '1');
    const two = cli('run', f, '--threads', '2');
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const a = JSON.parse(one.stdout) as Result;
    const b = JSON.parse(two.stdout) as Result;
    const J = (r: Result) => r.algorithms.map((alg) => ({ id: alg.id, runs: alg.runs.map((run) => ({ seed: run.seed, J: run.J })) }));
    expect(J(a).map((x) => x.id)).toEqual(['grpo', 'seeupo-random']);
    for (const alg of J(a)) {
      expect(alg.runs.map((r) => r.seed)).toEqual([0, 1, 2]);
      for (const run of alg.runs) expect(run.J).toHaveLength(7);
    }
    // the two runs really used one and two shards
    expect(a.threads).toBe(1);
    expect(b.threads).toBe(2);
    expect(J(b)).toEqual(J(a));
    // sampled runs differ between seeds (otherwise the comparison above proves little)
    const grpo = J(a)[0]!.runs;
    expect(grpo[1]!.J).not.toEqual(grpo[0]!.J);
  }, 120_000);
});

describe('regressions found in review', () => {
  // src/cli/inputs.ts readJson: the JSON.parse message is embedded as is. V8's "Unexpected token"
  // messages quote the start of the input verbatim, newlines included, so a multi-line malformed
  // file produces a multi-line stderr instead of one line.
  it('malformed multi-line JSON still gives exactly one stderr line', () => {
    const r = cli('run', tmp.file('multiline.json', '{"version":\n x\n}\n'));
    expect(r.code).toBe(2);
    expectOneErrorLine(r, 'multiline.json');
  });
});

describe('run --link (permalinks)', () => {
  const LINK = 'http://localhost:4173/#v=1&env.preset=two-prompts&iterations=12&seeds=3&algorithms=[seeupo,grpo]&algorithms.1.clip=0.3';
  const CONFIG = { version: 1, env: { preset: 'two-prompts' }, iterations: 12, seeds: 3, algorithms: [{ id: 'seeupo' }, { id: 'grpo', clip: 0.3 }] };

  it('runs the experiment a link encodes: the same result and hash as its config file', () => {
    const viaLink = cli('run', '--link', LINK);
    expect(viaLink.code, viaLink.stderr).toBe(0);
    const a = JSON.parse(viaLink.stdout);
    const viaFile = JSON.parse(cli('run', tmp.file('link-config.json', CONFIG)).stdout);
    expect(a.resultsHash).toEqual(viaFile.resultsHash);
    expect(a.resultsHash.digest).toMatch(/^[0-9a-f]{12}$/);
    expect(a.resultsHash.by).toBe('cpu');
    expect(a.algorithms.map((x: { runs: Run[] }) => x.runs.map((r) => r.J))).toEqual(viaFile.algorithms.map((x: { runs: Run[] }) => x.runs.map((r) => r.J)));
    expect(viaLink.stderr).toContain(`results hash: ${a.resultsHash.digest} (cpu, version `);
  });

  it('a link carrying its hash says reproduced; a wrong digest says how it differs', () => {
    const digest = JSON.parse(cli('run', '--link', LINK).stdout).resultsHash.digest as string;
    const ok = cli('run', '--link', `${LINK}&hash=${digest}&by=cpu&app=0.1.0`);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('reproduced ✓');
    const other = cli('run', '--link', `${LINK}&hash=${digest}&by=tensor-webgpu&app=0.1.0`);
    expect(other.stderr).toMatch(/not reproduced: the link's results were computed by tensor-webgpu, these by cpu/);
    const wrong = cli('run', '--link', `${LINK}&hash=000000000000&by=cpu&app=0.1.0`);
    expect(wrong.stderr).toMatch(/not reproduced: the curves differ/);
  });

  it('scheduled changes in a link apply (the result differs from the link without them)', () => {
    const plain = JSON.parse(cli('run', '--link', LINK).stdout).resultsHash.digest;
    const changed = JSON.parse(cli('run', '--link', `${LINK}&changes.0.at=5&changes.0.path=optimizer.lr&changes.0.value=0.05`).stdout).resultsHash.digest;
    expect(changed).not.toBe(plain);
  });

  it('a link marked exact=0 warns that it is not reproducible and runs what it holds, its changes included', () => {
    const withChange = `${LINK}&changes.0.at=5&changes.0.path=optimizer.lr&changes.0.value=0.05`;
    const marked = cli('run', '--link', `${withChange}&exact=0`);
    expect(marked.code).toBe(0);
    expect(marked.stderr).toContain('it is not reproducible: this runs the settings the link holds, without the changes it could not carry');
    expect(JSON.parse(marked.stdout).resultsHash.digest).toBe(JSON.parse(cli('run', '--link', withChange).stdout).resultsHash.digest);
  });

  it('a bad link exits 2 with one line naming the field', () => {
    expectOneErrorLine(cli('run', '--link', '#v=1&iterations=0'), '--link', 'iterations', 'from 1 to 100000');
    expectOneErrorLine(cli('run', '--link', '#v=1&algorithms.0.clip=x'), 'algorithms[0]');
    expectOneErrorLine(cli('run', '--link', '#v=7'), 'newer version');
    expectOneErrorLine(cli('run', '--link', 'http://localhost:4173/'), 'no #v=1');
    expectOneErrorLine(cli('run', '--link'), '--link');
    expectOneErrorLine(cli('run', tmp.file('x.json', CONFIG), '--link', LINK), 'not both');
  });

  it('a large result piped to another process arrives whole (stdout is flushed before exit)', () => {
    const r = cli('run', '--link', '#v=1&iterations=200&seeds=16');
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(1_000_000);
    expect(JSON.parse(r.stdout).algorithms).toHaveLength(9);
  });
});
