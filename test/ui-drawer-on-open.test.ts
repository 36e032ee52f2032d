import { describe, expect, it } from 'vitest';
import { encodeLink } from '../src/core/config/link-codec';
import { DEFAULT_VIEW } from '../src/core/config/view';
import { closesDrawer } from '../src/ui/drawer-on-open';

// The settings drawer when the page opens an address: closed for a lesson and for any shared link
// opened with the page (its charts come first); a plain visit and Back/Forward leave it as it is.

describe('closesDrawer', () => {
  it('a plain visit keeps the first-visit layout: no fragment, or the version alone', () => {
    for (const address of ['', '#', '#v=1', '#v=1&', 'v=1', 'http://localhost:4173/', 'http://localhost:4173/#v=1', 'https://example.org/sub/#v=1'])
      expect(closesDrawer(address, 'startup', false), JSON.stringify(address)).toBe(false);
  });

  it('a link with experiment fields opened with the page closes it', () => {
    for (const address of [
      '#v=1&iterations=20',
      'http://localhost:4173/#v=1&mode=exact&seeds=2&iterations=5',
      '#v=1&algorithms=[grpo,seeupo]',
      '#iterations=20&v=1', // the version need not come first
      '#v=1&view.metric=entropy', // a view is what the link was shared to show
    ])
      expect(closesDrawer(address, 'startup', false), address).toBe(true);
  });

  it('a sweep link and a deflated link opened with the page close it', () => {
    expect(closesDrawer('http://localhost:4173/#v=1&sweep=eJyrVkrLz1eyUkpKLFKqBQAc4wRw', 'startup', false)).toBe(true);
    expect(closesDrawer('#v=1&z=eJyrVkrLz1eyUkpKLFKqBQAc4wRw', 'startup', false)).toBe(true);
  });

  it('the page’s own encoded link closes it (round trip through the link codec)', () => {
    const fragment = encodeLink({ config: { version: 1, iterations: 30, seeds: 3 }, view: { ...DEFAULT_VIEW }, hash: null, embed: false, exact: true });
    expect(fragment).toContain('iterations=30');
    expect(closesDrawer(`http://localhost/#${fragment}`, 'startup', false)).toBe(true);
  });

  it('Back/Forward leave the drawer as the reader set it, unless the entry is a lesson', () => {
    expect(closesDrawer('#v=1&iterations=20', 'history', false)).toBe(false);
    expect(closesDrawer('#v=1&sweep=eJyrVkrLz1eyUkpKLFKqBQAc4wRw', 'history', false)).toBe(false);
    expect(closesDrawer('#v=1&lesson=reverse-escapes-the-exit', 'history', true)).toBe(true);
  });

  it('a lesson closes it however it was opened, even from an address without lesson= (deflated)', () => {
    expect(closesDrawer('v=1&lesson=reverse-escapes-the-exit', 'lesson', true)).toBe(true);
    expect(closesDrawer('#v=1&z=abc', 'history', true)).toBe(true);
    expect(closesDrawer('', 'startup', true)).toBe(true);
  });
});
