import { useLayoutEffect, useState, type RefObject } from 'react';
import { fontOf, measureFor, type Measure, type TextFont } from '../../charts/text-measure';

/**
 * The font of the element `ref` points at (an empty probe <text> styled like the labels to be
 * placed) and a measure for it, read before the first paint; null until then.
 */
export function useTextFont(ref: RefObject<Element | null>): { font: TextFont; measure: Measure } | null {
  const [got, setGot] = useState<{ font: TextFont; measure: Measure } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const font = fontOf(el);
    setGot((old) => (old && old.font.size === font.size && old.font.family === font.family && old.font.weight === font.weight ? old : { font, measure: measureFor(font) }));
  });
  return got;
}
