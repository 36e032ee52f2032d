import { checkReproduced, openLink, pageBase, shareInputOf } from './link-actions';
import { followTour } from './lesson-actions';
import { shareLink } from './share';
import { fragmentOf as fragmentOfText } from '../core/config/link-codec';
import { checkSweep, openDecodedSweepLink, openSweepLink, prepareSweepLink, sweepDocOf } from './sweep-actions';
import { decodeSweepLink, encodeSweepLink, isSweepLink } from '../core/sweep/link';
import { isValid, useApp, type AppState } from './store';
import { memoLast } from './memo-last';
import { HistoryEntries } from './history-entries';
import { LatestOnly } from './latest-only';

// The address bar follows the experiment: every committed change pushes one history entry,
// while a slider is dragged (or a field typed into) its entry is replaced as the value moves,
// and Back/Forward reopen the entry's experiment. The page is opened from its fragment once at start-up.

const entries = new HistoryEntries();

/**
 * The address for the experiment: '#' + its fragment, or the bare page when it is too large for
 * a link (then `tooLarge` says so; the page never writes a link it would refuse to open).
 */
function addressOf(s: AppState): { fragment: string; tooLarge: string | null } | null {
  if (!isValid(s)) return null;
  if (s.page === 'sweep') return sweepAddressOf(s);
  return explorerAddressOf(s);
}

const explorerAddressOf = memoLast(
  (s: AppState) => [s.draft, s.metric, s.xAxis, s.embed, s.live, s.live?.changes.length, s.lesson, s.classroom, s.hidden],
  (s) => {
    const link = shareLink(shareInputOf(s));
    return link.ok ? { fragment: `#${link.fragment}`, tooLarge: null } : { fragment: pageBase(), tooLarge: link.message };
  },
);

/** On the Sweep view the address replays the sweep (its axes over the explorer's experiment); none while the axes are invalid. */
const sweepAddressOf = memoLast(
  (s: AppState) => [s.draft, s.plan, s.sweep.axes, s.sweep.view],
  (s): { fragment: string; tooLarge: string | null } | null => {
    const d = sweepDocOf(s);
    if (!d.ok || !checkSweep(d.doc).ok) return null;
    const link = encodeSweepLink(d.doc, s.sweep.view);
    return link.ok ? { fragment: `#${link.fragment}`, tooLarge: null } : { fragment: pageBase(), tooLarge: link.message };
  },
);

function write(s: AppState): void {
  if (entries.isOpening) return;
  const address = addressOf(s);
  if (address === null) return;
  if (s.linkTooLarge !== address.tooLarge) useApp.setState({ linkTooLarge: address.tooLarge });
  const how = entries.write(address.fragment);
  if (how === 'replace') history.replaceState(null, '', address.fragment);
  else if (how === 'push') history.pushState(null, '', address.fragment);
}

/** Links opened from the history: a sweep link still waiting for its task is dropped when another came after it. */
const openings = new LatestOnly();

/**
 * Back/Forward on the running page. A sweep link (up to thousands of cells) is decoded in this
 * task and loaded in the next, and the entry's address (the link encoded again: a deflate) is
 * computed in a third, so that no step of opening it blocks the page for long.
 */
function applyFromHistory(text: string): void {
  const isLatest = openings.start();
  const load = (open: () => boolean) => {
    if (!isLatest()) return;
    entries.opened(open);
    // the entry already shows this experiment
    const opened = useApp.getState();
    entries.shownLater(() => addressOf(opened)?.fragment ?? null);
    setTimeout(() => entries.settle(), 0);
  };
  if (!isSweepLink(text)) return load(() => openLink(text, 'history'));
  const decoded = decodeSweepLink(text);
  prepareSweepLink(decoded);
  setTimeout(() => load(() => openDecodedSweepLink(decoded, text, 'history')), 0);
}

function apply(text: string, source: 'startup' | 'history'): void {
  if (source === 'history') return applyFromHistory(text);
  entries.opened(() => (isSweepLink(text) ? openSweepLink(text, source) : openLink(text, source)));
  const address = addressOf(useApp.getState());
  if (address === null) return;
  entries.shown(address.fragment); // the entry already shows this experiment
  // opened with no experiment in the address: it now names the opening lesson
  if (source === 'startup' && fragmentOfText(text) === '' && address.tooLarge === null) history.replaceState(null, '', address.fragment);
}

const isSlider = (t: EventTarget | null) => t instanceof HTMLInputElement && t.type === 'range';
/** A field typed into: its keystrokes are one edit, committed when it loses focus or on Enter. */
const isTyped = (t: EventTarget | null) => (t instanceof HTMLInputElement && /^(text|number|search)$/.test(t.type)) || t instanceof HTMLTextAreaElement;

/** Open the page's link and keep the address in step from now on. Call once, before the first render. */
export function startUrlSync(): void {
  apply(location.hash, 'startup');
  useApp.subscribe((s, prev) => {
    write(s);
    checkReproduced(s);
    followTour(s, prev);
  });
  addEventListener('popstate', () => {
    entries.moved();
    apply(location.hash, 'history');
  });
  addEventListener('pointerdown', (e) => {
    if (isSlider(e.target)) entries.slideStart();
  }, true);
  addEventListener('pointerup', () => entries.slideEnd(), true);
  addEventListener('pointercancel', () => entries.slideEnd(), true);
  addEventListener('focusin', (e) => {
    if (isTyped(e.target)) entries.typingStart();
  }, true);
  addEventListener('focusout', () => entries.typingEnd(), true);
  addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Enter') entries.commit();
  }, true);
}
