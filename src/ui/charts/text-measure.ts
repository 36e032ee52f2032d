import { once } from '../memo-last';

// Widths of chart text in pixels before it is drawn, so that labels can be shortened or moved to
// stay inside a chart and off one another (the classroom sets every chart text to 20 px).

/** A text's width in pixels. */
export type Measure = (text: string) => number;

/** The font a text is drawn in: size in px, and the CSS weight and family. */
export interface TextFont {
  size: number;
  weight: string;
  family: string;
}

/** One canvas measures every text (made on first use): null where there is none (Node, a refused context). */
const context = once((): CanvasRenderingContext2D | null => {
  try {
    return typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  } catch {
    return null;
  }
});

/**
 * A measure for `font`: the canvas's text metrics where there is a canvas, else an estimate of
 * 0.62 em a character (wide enough for the digits and capitals of a sans-serif face).
 */
export function measureFor(font: TextFont): Measure {
  const ctx = context();
  if (!ctx) return (text) => text.length * font.size * 0.62;
  const spec = `${font.weight} ${font.size}px ${font.family}`;
  const cache = new Map<string, number>();
  return (text) => {
    let w = cache.get(text);
    if (w === undefined) {
      ctx.font = spec;
      w = ctx.measureText(text).width;
      cache.set(text, w);
    }
    return w;
  };
}

/** The font an element's text is drawn in (its computed style). */
export function fontOf(el: Element): TextFont {
  const st = getComputedStyle(el);
  return { size: parseFloat(st.fontSize) || 12, weight: st.fontWeight || '400', family: st.fontFamily || 'sans-serif' };
}
