import { fragmentOf } from '../core/config/link-codec';

/** How an address came to be opened: the page's own start-up, Back/Forward, or a lesson chosen in the page. */
export type OpenedFrom = 'startup' | 'history' | 'lesson';

/**
 * Whether opening `address` closes the settings drawer (false: the drawer stays as it is).
 *
 * - A lesson opens on its charts and its story, however it was reached.
 * - At start-up, any link that carries more than its version (an experiment's settings, a sweep, a
 *   results hash, a view, a deflated `z=`) was shared to show something: the page opens on the
 *   charts, and the ⚙ Settings toggle opens the drawer.
 * - A plain visit (`/`, which opens the opening lesson, or `/#v=1` alone) keeps the first-visit
 *   layout: the drawer open on a wide window, closed on a phone (state.ts, DRAWER_OPEN_FROM).
 * - Back/Forward keep whatever the reader chose.
 *
 * `lesson`: the decoded link is a lesson's (a deflated link hides its `lesson=` key from the address).
 */
export function closesDrawer(address: string, from: OpenedFrom, lesson: boolean): boolean {
  if (lesson) return true;
  if (from !== 'startup') return false;
  return fragmentOf(address)
    .split('&')
    .some((pair) => pair !== '' && !/^v(=|$)/.test(pair));
}
