import { expect, test, type Page } from '@playwright/test';
import { deflateSync } from 'fflate';
import { decodeLink, MAX_LINK_CHARS } from '../src/core/config/link-codec';
import { watchProblems, RUN_TIMEOUT } from './helpers';

// Bad permalinks: each opens in a fresh page load, is refused in the error banner naming
// the bad field, nothing from it runs (script payloads in values, keys and z stay text), the
// page keeps the default experiment, and after all of them it still runs.

declare global {
  interface Window {
    /** Set only if a payload ever ran as code. */
    __pwned?: unknown;
  }
}

const z = (pairs: string) => Buffer.from(deflateSync(new TextEncoder().encode(pairs))).toString('base64url');
const bomb = Buffer.from(deflateSync(new Uint8Array(5_000_000))).toString('base64url');

/** [what, fragment (without '#'), the field the banner must name]. */
const BAD: [string, string, string][] = [
  // script injection: in values, quoted values, keys, z, the results hash
  ['img onerror in a value', 'v=1&env.preset=<img src=x onerror="window.__pwned=1">', 'env.preset'],
  ['script in a quoted algorithm id', 'v=1&algorithms=[%22<script>window.__pwned=1</script>%22]', 'algorithms[0].id'],
  ['javascript: as a bare value', 'v=1&env.preset=javascript:window.__pwned=1', 'env.preset'],
  ['javascript: as a quoted value', 'v=1&env.preset="javascript:window.__pwned=1"', 'env.preset'],
  ['svg onload breaking out of an attribute', 'v=1&view.metric="><svg onload=window.__pwned=1>', 'view.metric'],
  ['%-encoded img in a quoted value', 'v=1&env.preset=%22%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E%22', 'env.preset'],
  ['iframe in a number', 'v=1&algorithms=[seeupo,grpo]&algorithms.1.clip="<iframe src=javascript:window.__pwned=1>"', 'algorithms[1].clip'],
  ['img in a key', 'v=1&<img src=x onerror=window.__pwned=1>=1', '<img src'],
  ['script in a key', 'v=1&%3Cscript%3Ewindow.__pwned=1%3C/script%3E=1', '<script>window.__pwned'],
  ['svg in the app version', 'v=1&hash=0123456789ab&by=cpu&app=<svg/onload=window.__pwned=1>', 'app'],
  ['img in policy.kind', 'v=1&policy.kind=<img/src/onerror=window.__pwned=1>', 'policy.kind'],
  ['script inside z', `v=1&z=${z('iterations=5&env.preset=<script>window.__pwned=1</script>')}`, 'env.preset'],
  ['img in the hash inside z', `v=1&z=${z('hash=<img src=x onerror=window.__pwned=1>&by=cpu&app=0.1.0')}`, 'hash'],
  ['img key inside z', `v=1&z=${z('<img src=x onerror=window.__pwned=1>=1')}`, '<img src'],
  // versions, numbers, names
  ['a future version', 'v=9&iterations=5', 'v'],
  ['no version', 'iterations=5', 'v'],
  ['not a number', 'v=1&iterations=abc', 'iterations'],
  ['out of range', 'v=1&iterations=0', 'iterations'],
  ['a clip out of range', 'v=1&algorithms=[seeupo,grpo]&algorithms.1.clip=11', 'algorithms[1].clip'],
  ['not an integer', 'v=1&seeds=1.5', 'seeds'],
  ['an unknown field', 'v=1&colour=red', 'colour'],
  ['an unknown env field', 'v=1&env.preset=lock&env.colour=red', 'env.colour'],
  ['an unknown preset', 'v=1&env.preset=nowhere', 'env.preset'],
  ['a key given twice', 'v=1&iterations=5&iterations=6', 'iterations'],
  ['bad %-encoding', 'v=1&iterations=%ZZ', 'iterations'],
  ['a change past the end', 'v=1&changes.0.at=500&changes.0.path=optimizer.lr&changes.0.value=0.1', 'changes[0].at'],
  ['a hash without by and app', 'v=1&hash=0123456789ab', 'by'],
  ['z that is not base64url', 'v=1&z=!!!', 'z'],
  ['a deflate bomb', `v=1&z=${bomb}`, 'z'],
  ['a huge link', `v=1&iterations=5&pad=${'x'.repeat(MAX_LINK_CHARS)}`, 'link'],
];

const INJECTIONS = 14;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The field as a whole token (so "v" is not found inside "version"). */
const naming = (field: string) => new RegExp(`(^|[^\\w.\\[\\]])${escapeRe(field)}($|[^\\w.\\[])`);

async function noInjection(page: Page, where: string): Promise<void> {
  expect(await page.evaluate(() => window.__pwned), where).toBeUndefined();
  // nothing the payloads carry became an element
  await expect(page.locator('img[src="x"], [onerror], [onload], script:not([src]):not([type="module"]), iframe, object, embed'), where).toHaveCount(0);
  await expect(page.getByTestId('error-banner').locator('img, svg, script, iframe, a[href^="javascript"]'), where).toHaveCount(0);
}

test.describe('bad links', () => {
  test('30 bad links: each refused in the banner naming its field, nothing runs, the default experiment stays and still runs', async ({ page }) => {
    test.setTimeout(240_000);
    expect(BAD).toHaveLength(30);
    const problems = watchProblems(page);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });

    for (const [what, fragment] of BAD.slice(0, INJECTIONS)) expect(fragment.includes('__pwned') || fragment.startsWith('v=1&z='), what).toBe(true);

    for (const [what, fragment, field] of BAD) {
      // the fixture itself: the codec refuses the link as the browser delivers it, naming `field`
      const hash = new URL(`http://localhost/#${fragment}`).hash;
      const d = decodeLink(hash);
      expect(d.ok, what).toBe(false);
      if (!d.ok) expect(d.field, what).toBe(field);

      await page.goto('about:blank'); // a new document every time: changing only the hash would not reload
      await page.goto(`/#${fragment}`);
      const banner = page.getByTestId('error-banner');
      await expect(banner, what).toBeVisible();
      await expect(banner, what).toContainText(naming(field));
      if (field === 'v' && fragment.startsWith('v=9')) await expect(banner, what).toContainText(/newer version/);
      // the page keeps the default experiment: nothing from the link was applied
      await expect(page.getByTestId('field-iterations'), what).toHaveValue('200');
      await expect(page.getByTestId('progress'), what).toHaveAttribute('aria-valuenow', '0');
      await noInjection(page, what);
      expect(dialogs, what).toEqual([]);
      expect(problems, what).toEqual([]);
    }

    // still usable: edit a field, run to the end
    await page.getByTestId('field-iterations').fill('20');
    await expect(page.getByTestId('run')).toBeEnabled();
    await page.getByTestId('run').click();
    const progress = page.getByTestId('progress');
    await expect(progress).toHaveAttribute('data-status', /^(done|error)$/, { timeout: RUN_TIMEOUT });
    await expect(progress).toHaveAttribute('data-status', 'done');
    await expect(progress).toHaveAttribute('aria-valuenow', '20');
    await expect(page.getByTestId('summary-table').locator('tbody tr[data-algorithm]')).toHaveCount(9);
    await noInjection(page, 'after the run');
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  });
});
