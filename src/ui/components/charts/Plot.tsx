import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from 'react';
import { invertLinear, linearScale, linePath, logScale, niceTicks, type Box, type Domain, type Scale } from './plot-geometry';

// The line charts' frame as plain SVG: grid, axes, ticks and titles, with the chart's own layers
// drawn by `children` from the frame's scales, and a pointer tooltip. A redraw is one small React
// render of a few dozen elements; recharts took 30–150 ms per chart on each streamed frame
// on this 2-core machine (13–48 ms of it script), over the 50 ms a main-thread task may take.
// Lines are .plot-line > path.plot-line-curve and reference lines .plot-reference-line (the page's
// tests find the drawn curves by them). With the keyboard: focus the chart, then ← → (Shift: in
// bigger steps), Home and End move the tooltip; Escape hides it.

export interface XSpec {
  domain: Domain;
  format: (v: number) => string;
  title: string;
}

export interface YSpec {
  domain: Domain;
  ticks: number[];
  format: (v: number) => string;
  title?: string;
  log?: boolean;
  /** Room for the tick labels (px). */
  width?: number;
}

export interface Frame {
  x: Scale;
  y: Scale;
  box: Box;
}

/** What the tooltip shows for the pointer at data x: the x it snaps to, the points to mark (data y, colour) and its content. */
export type Tip = (x: number) => { x: number; dots: { y: number; color: string }[]; content: ReactNode } | null;

const MARGIN = { top: 12, right: 24, bottom: 20, left: 4 };
const X_AXIS_HEIGHT = 30;

/** The element's width in whole pixels, kept current by a ResizeObserver (0 before the first layout). */
export function useWidth(ref: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(Math.floor(el.getBoundingClientRect().width));
    const ro = new ResizeObserver(([e]) => setWidth(Math.floor(e.contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

function frameOf(width: number, height: number, x: XSpec, y: YSpec): Frame {
  const left = MARGIN.left + (y.width ?? 60);
  const box = { left, right: Math.max(left + 1, width - MARGIN.right), top: MARGIN.top, bottom: height - MARGIN.bottom - X_AXIS_HEIGHT };
  return { box, x: linearScale(x.domain, [box.left, box.right]), y: (y.log ? logScale : linearScale)(y.domain, [box.bottom, box.top]) };
}

function Axes({ f, x, y, height }: { f: Frame; x: XSpec; y: YSpec; height: number }) {
  const { left, right, top, bottom } = f.box;
  const xTicks = niceTicks(x.domain[0], x.domain[1], Math.max(2, Math.min(5, Math.floor((right - left) / 70))), true);
  const yTicks = y.ticks.filter((t) => t >= y.domain[0] && t <= y.domain[1]);
  return (
    <>
      <g className="plot-grid">
        {yTicks.map((t) => <line key={`h${t}`} x1={left} x2={right} y1={f.y(t)} y2={f.y(t)} />)}
        {xTicks.map((t) => <line key={`v${t}`} x1={f.x(t)} x2={f.x(t)} y1={top} y2={bottom} />)}
      </g>
      <g className="plot-axis">
        <line x1={left} x2={right} y1={bottom} y2={bottom} />
        {xTicks.map((t) => (
          <g key={t}>
            <line x1={f.x(t)} x2={f.x(t)} y1={bottom} y2={bottom + 6} />
            <text x={f.x(t)} y={bottom + 8} dy="0.71em" textAnchor="middle">{x.format(t)}</text>
          </g>
        ))}
        <text className="plot-title" x={(left + right) / 2} y={height - 8} textAnchor="middle">{x.title}</text>
        <line x1={left} x2={left} y1={top} y2={bottom} />
        {yTicks.map((t) => (
          <g key={t}>
            <line x1={left - 6} x2={left} y1={f.y(t)} y2={f.y(t)} />
            <text x={left - 8} y={f.y(t)} dy="0.355em" textAnchor="end">{y.format(t)}</text>
          </g>
        ))}
        {y.title ? (
          <text className="plot-title" x={MARGIN.left + 10} y={(top + bottom) / 2} textAnchor="middle"
            transform={`rotate(-90 ${MARGIN.left + 10} ${(top + bottom) / 2})`}>{y.title}</text>
        ) : null}
      </g>
    </>
  );
}

/** The pointer's tooltip and cursor line; its state is its own, so moving the pointer redraws only it. */
function Hover({ f, x, tip, width, height, listen }: { f: Frame; x: XSpec; tip: Tip; width: number; height: number; listen: RefObject<((px: number | null) => void) | null> }) {
  const [px, setPx] = useState<number | null>(null);
  useLayoutEffect(() => {
    listen.current = setPx;
    return () => {
      listen.current = null;
    };
  }, [listen]);
  if (px === null || px < f.box.left || px > f.box.right) return null;
  const shown = tip(invertLinear(x.domain, [f.box.left, f.box.right], px));
  if (!shown) return null;
  const cx = f.x(shown.x);
  const flip = cx > width / 2;
  return (
    <>
      <svg className="plot-cursor" width={width} height={height} aria-hidden="true" data-export-ignore="">
        <line x1={cx} x2={cx} y1={f.box.top} y2={f.box.bottom} />
        {shown.dots.map((d, i) => <circle key={i} cx={cx} cy={f.y(d.y)} r={4} fill={d.color} />)}
      </svg>
      <div className="plot-tip" style={{ left: flip ? cx - 12 : cx + 12, top: f.box.top + 4, transform: flip ? 'translateX(-100%)' : undefined }}>
        {shown.content}
      </div>
    </>
  );
}

export function Plot({ height, x, y, tip, children }: { height: number; x: XSpec; y: YSpec; tip?: Tip; children: (f: Frame) => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const listen = useRef<((px: number | null) => void) | null>(null);
  const width = useWidth(ref);
  const f = frameOf(width, height, x, y);
  const at = useRef<number | null>(null);
  const show = (px: number | null) => {
    at.current = px;
    listen.current?.(px);
  };
  const move = (e: PointerEvent<HTMLDivElement>) => show(e.clientX - e.currentTarget.getBoundingClientRect().left);
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    const { left, right } = f.box;
    const step = ((right - left) / 50) * (e.shiftKey ? 10 : 1);
    const from = at.current ?? right;
    const to = { ArrowLeft: from - step, ArrowRight: from + step, Home: left, End: right }[e.key];
    if (e.key === 'Escape') show(null);
    else if (to === undefined) return;
    else show(Math.min(right, Math.max(left, to)));
    e.preventDefault();
  };
  return (
    <div ref={ref} className="plot" style={{ height }} onPointerMove={tip ? move : undefined} onPointerLeave={() => show(null)}
      tabIndex={tip ? 0 : undefined} onKeyDown={tip ? key : undefined} onBlur={() => show(null)}
      aria-label={tip ? `${y.title ?? 'Value'} against ${x.title}: arrow keys read the values` : undefined}>
      {width > 0 ? (
        <svg className="plot-svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
          <Axes f={f} x={x} y={y} height={height} />
          {children(f)}
        </svg>
      ) : null}
      {tip && width > 0 ? <Hover f={f} x={x} tip={tip} width={width} height={height} listen={listen} /> : null}
    </div>
  );
}

export interface LineSeries<P> {
  id: string;
  color: string;
  className: string;
  points: readonly P[];
}

/** One path per series (a gap where the value is null). */
/** The lines of a chart; `hover`: the id whose line stands out while the others fade (null: none). */
export function Lines<P extends { x: number }>({ f, series, value, hover = null }: { f: Frame; series: readonly LineSeries<P>[]; value: (p: P) => number | null; hover?: string | null }) {
  return (
    <g className="plot-lines">
      {series.map((s) => (
        <g key={s.id} className={`plot-line ${s.className}${hover === null ? '' : hover === s.id ? ' hot' : ' dim'}`} data-algorithm={s.id}>
          <path className="plot-line-curve" d={linePath(s.points, value, f.x, f.y)} stroke={s.color} strokeWidth={2}
            fill="none" strokeLinejoin="round" />
        </g>
      ))}
    </g>
  );
}

/** A horizontal reference line across the plot, its label at the right end below it. */
export function HLine({ f, y, className, label, dash }: { f: Frame; y: number; className: string; label?: string; dash: string }) {
  const py = f.y(y);
  return (
    <g className={`plot-reference-line ${className}`}>
      <line x1={f.box.left} x2={f.box.right} y1={py} y2={py} strokeDasharray={dash} strokeWidth={1.5} />
      {label ? <text className="plot-ref-label" x={f.box.right - 5} y={py + 5} dy="0.71em" textAnchor="end">{label}</text> : null}
    </g>
  );
}

/** A vertical reference line at data x, its label at the top right of it. */
export function VLine({ f, x, className, label, title }: { f: Frame; x: number; className: string; label?: string; title?: string }) {
  const px = f.x(x);
  return (
    <g className={`plot-reference-line ${className}`}>
      {title ? <title>{title}</title> : null}
      <line x1={px} x2={px} y1={f.box.top} y2={f.box.bottom} strokeDasharray="4 4" />
      {label ? <text className="plot-ref-label" x={px + 5} y={f.box.top + 5} dy="0.71em">{label}</text> : null}
    </g>
  );
}
