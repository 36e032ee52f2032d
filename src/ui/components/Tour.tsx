import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ACTION_KEY, ACTION_TEXT, fillText, pressesSince } from '../tour';
import { closeTour, currentLesson, tourBack, tourNext, useApp } from '../store';
import { useLiveClaims } from './VerdictPanel';
import { lessonVerdict } from '../../core/lessons/verdict';
import { placeTag, type Rect, type TagPlace } from '../tour-tag';
import './claims.css';

// The lesson's guided tour: one numbered step at a time with Back and Next, an outline and an
// arrow on the element the step is about (scrolled into view), Next held until the learner has
// pressed the step's action, and a line saying what that action did, from the numbers.
// Keys while the tour has focus: → Next (when it is waiting for a Step, → steps, as on the page),
// ← Back, Escape closes; N and B work anywhere on the page while a tour is open (keyboard.ts).

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where a step points when its target is not on the page: the policy tree shows each turn's probability on the optimal path, as the heatmaps do. */
const STANDS_IN: Record<string, string> = { 'chart-heatmap': 'chart-tree', 'chart-seeds': 'chart-return' };

/** The ring's margin around the element it points at. */
const PAD = 6;

/** The boxes on screen of the elements `selector` finds. */
function boxesOf(selector: string): Rect[] {
  const out: Rect[] = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight) out.push({ left: r.left, top: r.top, width: r.width, height: r.height });
  }
  return out;
}

/** The page's controls and the tour's own panel (drawn over the tag): the tag covers none of them. */
const CONTROLS = 'button, a[href], input, select, textarea, summary, [role="button"], .tour';
/** Better left uncovered too: headings and progress bars. */
const SOFT = '[role="progressbar"], progress, h1, h2, h3';

const reduced = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The step's target: marked (data-tour-target, outlined by CSS), scrolled into view once, and followed by a ring and arrow. */
function Pointer({ target, label, onStandIn, layout }: { target: string | undefined; label: string; onStandIn: (standIn: boolean) => void; layout: string }) {
  const [box, setBox] = useState<Box | null>(null);
  const tag = useRef<HTMLSpanElement>(null);
  const [place, setPlace] = useState<TagPlace | null>(null);
  // the tag beside the ring, off every control of the page (src/ui/tour-tag.ts); placed again with
  // every look at the target, as controls and the tour's panel move and grow around it
  const placeTagBy = useCallback((b: Box) => {
    const size = tag.current?.getBoundingClientRect() ?? { width: 110, height: 28 };
    const ring = { left: b.left - PAD, top: b.top - PAD, width: b.width + 2 * PAD, height: b.height + 2 * PAD };
    const next = placeTag(ring, size, boxesOf(CONTROLS), { width: innerWidth, height: innerHeight }, boxesOf(SOFT));
    setPlace((old) => (old && old.left === next.left && old.top === next.top && old.above === next.above ? old : next));
  }, []);
  // a layout effect: the step's text follows what is found (the target or its stand-in) before the first paint
  useLayoutEffect(() => {
    if (!target) {
      setBox(null);
      onStandIn(false);
      return;
    }
    let scrolled = false;
    let marked: Element | null = null;
    const byId = (id: string) => document.querySelector(`[data-testid="${CSS.escape(id)}"]`);
    // a layout without the chart (the classroom has no heatmaps) points at what shows the same thing
    const find = () => byId(target) ?? (STANDS_IN[target] ? byId(STANDS_IN[target]) : null);
    const update = () => {
      const el = find();
      onStandIn(el !== null && el.getAttribute('data-testid') !== target);
      if (el !== marked) {
        marked?.removeAttribute('data-tour-target');
        marked = el;
      }
      if (!el) {
        setBox(null);
        return;
      }
      if (!el.hasAttribute('data-tour-target')) el.setAttribute('data-tour-target', '');
      if (!scrolled) {
        scrolled = true;
        el.scrollIntoView({ block: 'center', behavior: reduced() ? 'auto' : 'smooth' });
      }
      const r = el.getBoundingClientRect();
      setBox((b) => (b && b.left === r.left && b.top === r.top && b.width === r.width && b.height === r.height ? b : { left: r.left, top: r.top, width: r.width, height: r.height }));
      placeTagBy(r);
    };
    update();
    const timer = setInterval(update, 250);
    addEventListener('scroll', update, { capture: true, passive: true });
    addEventListener('resize', update);
    return () => {
      clearInterval(timer);
      removeEventListener('scroll', update, { capture: true });
      removeEventListener('resize', update);
      marked?.removeAttribute('data-tour-target');
    };
  }, [target, onStandIn, placeTagBy]);
  // `layout` changes when the tour's panel does (its note, its action): the tag is placed again before the paint
  useLayoutEffect(() => {
    if (box) placeTagBy(box);
  }, [box, placeTagBy, layout]);
  if (!box) return null;
  const above = place?.above ?? box.top > 40;
  return (
    <div className="tour-ring" data-testid="tour-pointer" data-target={target} aria-hidden="true"
      style={{ left: box.left - PAD, top: box.top - PAD, width: box.width + 2 * PAD, height: box.height + 2 * PAD }}>
      <span ref={tag} className={`tour-arrow ${above ? 'above' : 'below'}`} data-testid="tour-tag"
        style={place ? { left: place.left, top: place.top, bottom: 'auto', visibility: 'visible' } : { visibility: 'hidden' }}>
        {above ? `${label} ▼` : `▲ ${label}`}
      </span>
    </div>
  );
}

export function Tour() {
  const tour = useApp((s) => s.tour);
  const plan = useApp((s) => s.plan);
  const live = useApp((s) => s.live);
  const iteration = useApp((s) => s.iteration);
  const status = useApp((s) => s.status);
  const turnStep = useApp((s) => s.turnStep);
  useApp((s) => s.version); // placeholders follow the numbers
  const claims = useLiveClaims();
  const panel = useRef<HTMLElement>(null);
  const [standIn, setStandIn] = useState(false);
  // the classroom gives the note what room is left: one squeezed below a line of text is marked and hidden (classroom.css)
  const note = useRef<HTMLParagraphElement>(null);
  const noteShown = Boolean(tour?.note);
  useLayoutEffect(() => {
    const el = note.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const check = () => el.toggleAttribute('data-clipped', el.clientHeight < parseFloat(getComputedStyle(el).fontSize) * 1.3);
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, [noteShown]);
  const lesson = tour ? currentLesson() : null;
  const open = tour !== null;
  useEffect(() => {
    if (open) panel.current?.focus({ preventScroll: true });
  }, [open]);
  if (!tour || !lesson) return null;
  const step = lesson.tour[tour.step];
  if (!step) return null;
  const n = lesson.tour.length;
  const last = tour.step === n - 1;
  const verdict = (claims && lessonVerdict(lesson, claims.claims)?.verdict) ?? null;
  const text = fillText(standIn && step.standIn ? step.standIn : step.text, { plan, live, iteration, verdict });
  const keys = (e: KeyboardEvent<HTMLElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    if (e.key === 'ArrowRight' && tour.done) tourNext();
    else if (e.key === 'ArrowLeft') tourBack();
    else if (e.key === 'Escape') closeTour();
    else return;
    e.preventDefault();
    e.stopPropagation(); // not the page's → (step)
  };
  const action = step.action;
  const times = step.times ?? 1;
  const left = action && times > 1 ? Math.max(0, times - pressesSince(action, tour.mark, { status, iteration, turnStep }, plan?.exp.env.turns)) : null;
  return (
    <>
      <aside ref={panel} className="tour" data-testid="tour" role="dialog" aria-modal="false" aria-labelledby="tour-title" tabIndex={-1} onKeyDown={keys}>
        <div className="tour-head">
          <span id="tour-title" className="tour-title">
            Guided tour · {lesson.title}
          </span>
          <button type="button" className="tour-close" data-testid="tour-close" onClick={closeTour} aria-label="Close the tour (Escape)" title="Close the tour (Escape)">
            ×
          </button>
        </div>
        <ol className="tour-dots" aria-hidden="true">
          {lesson.tour.map((_, i) => (
            <li key={i} className={i === tour.step ? 'now' : i < tour.step ? 'past' : undefined}>
              {i + 1}
            </li>
          ))}
        </ol>
        <p className="tour-step" data-testid="tour-step" data-step={tour.step + 1} data-steps={n} data-done={tour.done} data-stand-in={standIn && step.standIn ? '1' : undefined} aria-live="polite">
          <span className="tour-num">{tour.step + 1}</span>
          {text}
        </p>
        {action && (
          <p className={`tour-action${tour.done ? ' done' : ''}`} data-testid="tour-action" data-action={action} data-done={tour.done} data-left={left ?? undefined}>
            {tour.done
              ? `✓ ${ACTION_TEXT[action]} done.`
              : status === 'running' && action === 'run'
                ? 'Running… Next is enabled when the run ends.'
                : left !== null
                  ? `Press ${ACTION_TEXT[action]} (outlined; key ${ACTION_KEY[action]}): ${left} more ${left === 1 ? 'press' : 'presses'}, then Next.`
                  : `Press ${ACTION_TEXT[action]} (outlined; key ${ACTION_KEY[action]}): Next waits for it.`}
          </p>
        )}
        {tour.note && (
          <p ref={note} className="tour-note" data-testid="tour-note" role="status">
            <strong>What just happened:</strong> {tour.note}
          </p>
        )}
        <div className="tour-nav">
          <button type="button" data-testid="tour-back" onClick={tourBack} disabled={tour.step === 0}>
            ← Back
          </button>
          <span className="tour-count">
            {tour.step + 1} / {n}
          </span>
          <button type="button" className="tour-next" data-testid="tour-next" onClick={tourNext} disabled={!tour.done}
            title={tour.done ? (last ? 'End the tour' : 'Next step (→ or N)') : `Press ${action ? ACTION_TEXT[action] : ''} first`}>
            {last ? 'Finish' : 'Next →'}
          </button>
        </div>
      </aside>
      <Pointer target={step.target} label={`step ${tour.step + 1}`} onStandIn={setStandIn} layout={`${tour.step}:${tour.done}:${left}:${tour.note ?? ''}`} />
    </>
  );
}
