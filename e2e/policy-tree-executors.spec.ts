import { expect, test, type Locator, type Page } from '@playwright/test';
import { finalJ, runToEnd, watchProblems } from './helpers';

// The policy tree on the tensor and WebGPU executors (Chromium's WebGPU is SwiftShader here):
// the tensor executor draws it from the log-probabilities it reads back every iteration (an
// MLP's from the network at every prefix), the WebGPU executor from the logits every read back
// brings (tables only). Each parent's children's π sum to 1, and the context's value V^π is the
// run's J (one context, one seed). An MLP on the WebGPU executor says why it has no tree.

const LOCK = 'env.preset=lock&env.turns=4&mode=exact&seeds=1&algorithms=[seeupo,grpo]';

interface NodeData {
  prefix: string;
  prob: number;
  value: number;
}

async function nodes(tree: Locator): Promise<NodeData[]> {
  return tree.locator('[data-testid="tree-node"]').evaluateAll((els) =>
    els.map((e) => ({ prefix: e.getAttribute('data-prefix')!, prob: Number(e.getAttribute('data-prob')), value: Number(e.getAttribute('data-value')) })),
  );
}

/** Per shown parent (a prefix with children drawn): the sum of its children's π. */
function sumsByParent(all: NodeData[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const n of all) {
    if (n.prefix === '') continue;
    const parent = n.prefix.split('-').slice(0, -1).join('-');
    sums.set(parent, (sums.get(parent) ?? 0) + n.prob);
  }
  return sums;
}

async function checkTrees(page: Page, iterations: number, tolJ: number): Promise<void> {
  const J = await finalJ(page);
  const trees = page.getByTestId('policy-tree');
  await expect(trees).toHaveCount(2);
  for (const tree of await trees.all()) {
    const id = (await tree.getAttribute('data-algorithm'))!;
    await expect(tree, id).toHaveAttribute('data-iteration', String(iterations));
    const all = await nodes(tree);
    expect(all.length, `${id}: nodes drawn`).toBeGreaterThan(4);
    const sums = sumsByParent(all);
    expect(sums.size, `${id}: parents`).toBeGreaterThan(1);
    for (const [parent, sum] of sums) expect(Math.abs(sum - 1), `${id}: children of "${parent}" sum to ${sum}`).toBeLessThan(1e-9);
    const root = all.find((n) => n.prefix === '')!;
    expect(Math.abs(root.value - J[id]), `${id}: V^π(context) ${root.value} vs J ${J[id]}`).toBeLessThanOrEqual(tolJ);
  }
}

test('tensor executor (wasm), tabular: the tree of each run, π summing to 1 per parent, V^π(context) = J', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto(`/#v=1&${LOCK}&iterations=4&optimizer.kind=sgd&optimizer.lr=30&executor=tensor&backend=wasm`);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-executor', 'tensor');
  await expect(page.getByTestId('tree-blocked')).toHaveCount(0);
  await runToEnd(page, 4);
  await checkTrees(page, 4, 1e-9); // the same log-probability table gives J and the tree
  expect(problems).toEqual([]);
});

test('tensor executor (wasm), MLP: π(token | prefix) from the network at every prefix, summing to 1, V^π(context) = J', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto(`/#v=1&${LOCK}&iterations=5&policy.kind=mlp&executor=tensor&backend=wasm`);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-executor', 'tensor');
  await runToEnd(page, 5);
  await checkTrees(page, 5, 1e-9);
  // an MLP's π is not uniform after training: the drawn edges are the network's, not a placeholder
  const probs = (await nodes(page.locator('[data-testid="policy-tree"][data-algorithm="seeupo"]'))).filter((n) => n.prefix !== '').map((n) => n.prob);
  expect(Math.max(...probs) - Math.min(...probs)).toBeGreaterThan(1e-3);
  await page.getByTestId('chart-tree').screenshot({ path: 'docs/screenshots/policy-tree-tensor-mlp.png' });
  expect(problems).toEqual([]);
});

test('WebGPU executor, tabular: the tree from the logits each read back brings, π summing to 1, V^π(context) = J (float32)', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto(`/#v=1&${LOCK}&iterations=6&optimizer.kind=sgd&optimizer.lr=30&executor=webgpu`);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-executor', 'webgpu');
  await runToEnd(page, 6);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-backend', 'webgpu');
  await checkTrees(page, 6, 1e-4);
  expect(problems).toEqual([]);
});

test('WebGPU executor, MLP: the tree panel says plainly why there is no tree, naming the executor', async ({ page }) => {
  await page.goto(`/#v=1&${LOCK}&iterations=3&policy.kind=mlp&executor=webgpu`);
  const blocked = page.getByTestId('tree-blocked');
  await expect(blocked).toHaveAttribute('data-executor', 'webgpu');
  await expect(blocked).toContainText('No policy tree on the WebGPU executor for an MLP');
  await expect(page.getByTestId('chart-tree').getByTestId('policy-tree')).toHaveCount(0);
  await page.getByTestId('chart-tree').screenshot({ path: 'docs/screenshots/policy-tree-webgpu-mlp-blocked.png' });
});
