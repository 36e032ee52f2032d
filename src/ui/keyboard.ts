import { pauseRun, resetRun, startRun, stepOnce, stepTurn, toggleHelp, tourBack, tourNext, useApp } from './store';

/** Widgets whose arrow keys and letters are their own (a segmented control, the header's tabs, a menu). */
const OWN_KEYS = '[role="radiogroup"], [role="tablist"], [role="listbox"], [role="menu"], [role="slider"], [role="spinbutton"]';

/** True when `el` is a form control or a widget that takes keys itself. */
function ownsKeys(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || el.isContentEditable || el.closest(OWN_KEYS) !== null;
}

/**
 * True when the key belongs to a form control (shortcuts then never act): the event's target, or
 * the focused element (a select keeps focus after its menu closes, and → must go on choosing in it).
 */
function typing(target: EventTarget | null): boolean {
  return ownsKeys(target instanceof Element ? target : null) || ownsKeys(typeof document === 'undefined' ? null : document.activeElement);
}

/**
 * Space run/pause, → step, Shift+→ step one turn, R reset, ? help; N / B next and back in an open
 * tour. (With focus in the tour, → and ← are its Next and Back: Tour.tsx handles them first.)
 */
export function onShortcut(e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || typing(e.target)) return;
  const s = useApp.getState();
  if (s.helpOpen && e.key !== '?') return;
  // the Sweep view has no transport: its keys would run the explorer's experiment unseen
  if (s.page === 'sweep' && e.key !== '?') return;
  switch (e.key) {
    case ' ':
      if (e.target instanceof HTMLButtonElement) return; // Space presses the focused button
      e.preventDefault();
      if (s.status === 'running') pauseRun();
      else {
        if (s.status === 'done') resetRun();
        startRun();
      }
      return;
    case 'ArrowRight':
      e.preventDefault();
      if (e.shiftKey) stepTurn();
      else stepOnce();
      return;
    case 'r':
    case 'R':
      resetRun();
      return;
    case '?':
      toggleHelp();
      return;
    case 'n':
    case 'N':
      if (!s.tour) return;
      e.preventDefault();
      tourNext();
      return;
    case 'b':
    case 'B':
      if (!s.tour) return;
      e.preventDefault();
      tourBack();
      return;
  }
}
