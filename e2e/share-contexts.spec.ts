import { expect, test, type Page } from '@playwright/test';
import { decodeLink } from '../src/core/config/link-codec';
import { resolveConfig } from '../src/core/config/resolve';
import { computeOptimum } from '../src/core/env/exact';
import { buildTree } from '../src/core/env/tree';
import { openSettings, watchProblems } from './helpers';

// The policy controls' "Share the table across prompts" switch (docs/math.md, "Policies"): it
// changes J* to the mean table's, travels in the address as policy.shareContexts=1, is refused
// with one context beside the switch, and is not offered for an MLP.

const policyOf = (page: Page) => {
  const d = decodeLink(page.url());
  if (!d.ok) throw new Error(d.message);
  return d.state.config.policy as Record<string, unknown> | undefined;
};
const jstar = (shared: boolean) => {
  const env = resolveConfig({ version: 1, env: { preset: 'two-prompts' } }).env;
  return computeOptimum(env, buildTree(env), shared).Jstar.toFixed(3);
};

test('share the table across prompts: J* of the mean table, the address, the one-context refusal, none for an MLP', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&env.preset=two-prompts&iterations=20&seeds=2');
  await openSettings(page);
  const box = page.getByTestId('field-policy.shareContexts');
  await expect(box).not.toBeChecked();
  await expect(page.getByTestId('summary-caption')).toContainText(`J* = ${jstar(false)}`);
  await box.check();
  await expect.poll(() => page.url()).toContain('policy.shareContexts=1');
  expect(policyOf(page)).toEqual({ kind: 'tabular', shareContexts: true });
  expect(jstar(true)).not.toBe(jstar(false));
  await expect(page.getByTestId('summary-caption')).toContainText(`J* = ${jstar(true)}`);

  // one context: refused beside the switch, naming why
  await page.getByTestId('field-env.preset').selectOption('lock');
  await expect(page.getByTestId('error-policy.shareContexts')).toContainText('at least 2 contexts');
  await box.uncheck();
  await expect(page.getByTestId('error-policy.shareContexts')).toHaveCount(0);
  await expect.poll(() => page.url()).not.toContain('shareContexts');

  await page.getByTestId('field-policy.kind').selectOption('mlp');
  await expect(page.getByTestId('field-policy.shareContexts')).toHaveCount(0);
  expect(problems).toEqual([]);
});
