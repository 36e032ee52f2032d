import { pauseRun, resetRun, startRun, stepOnce, stepTurn, toggleHelp, tourBack, tourNext, useApp } from './store';

/** True when the key goes to a field being typed in (shortcuts then stay out of the way). */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || target.isContentEditable;
}

/**
 * Space run/pause, → step, Shift+→ step one turn, R reset, ? help; N / B next and back in an open
 * tour. (With focus in the tour, → and ← are its Next and Back: Tour.tsx handles them first.)
 */
export function onShortcut(e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
  const s = useApp.getState();
  if (s.helpOpen && e.key !== '?') return;
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
