import { useApp } from './store';

// `hide=…` in a link (classroom links, as TensorFlow Playground's): controls by their config path
// (`seeds`, `optimizer.lr`, `algorithms.0.clip`, `algorithms.*.clip`; a prefix hides everything
// under it: `optimizer`) and parts of the page by name (src/core/config/view.ts HIDE_PARTS).

/** "algorithms[2].clip" → "algorithms.2.clip" (the link's notation). */
const dotted = (path: string) => path.replace(/\[(\d+)\]/g, '.$1');

/** True when `hide` lists this part name or control path (exactly, by a `*` index, or a prefix of it). */
export function isHidden(hide: readonly string[], item: string): boolean {
  if (hide.length === 0) return false;
  const segs = dotted(item).split('.');
  return hide.some((h) => {
    const hs = h.split('.');
    if (hs.length > segs.length) return false;
    return hs.every((s, i) => s === segs[i] || (s === '*' && /^\d+$/.test(segs[i])));
  });
}

/** Whether the page's link hides this part or control. */
export const useHidden = (item: string): boolean => useApp((s) => isHidden(s.hidden, item));
