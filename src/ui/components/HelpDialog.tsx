import { useEffect, useRef } from 'react';
import { toggleHelp, useApp } from '../store';

export const SHORTCUTS: [string, string][] = [
  ['Space', 'Run / pause'],
  ['→', 'Step one iteration'],
  ['Shift + →', 'Step one turn (sequential algorithms, CPU executor)'],
  ['R', 'Reset'],
  ['?', 'This help'],
  ['N / B', 'Next / back in a lesson’s guided tour'],
  ['→ / ← in the tour', 'Next / back while the tour has focus (→ steps while the tour waits for Step)'],
  ['Esc', 'Close this help'],
];

/** The keyboard shortcuts, as a modal dialog. */
export function HelpDialog() {
  const open = useApp((s) => s.helpOpen);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal?.();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="help card" data-testid="help" aria-label="Keyboard shortcuts" onClose={() => toggleHelp(false)}>
      <h2>Keyboard shortcuts</h2>
      <table>
        <tbody>
          {SHORTCUTS.map(([k, what]) => (
            <tr key={k}>
              <th scope="row"><kbd>{k}</kbd></th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">Shortcuts are ignored while you type in a field.</p>
      <button type="button" onClick={() => toggleHelp(false)}>Close</button>
    </dialog>
  );
}
