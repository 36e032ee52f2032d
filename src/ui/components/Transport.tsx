import { isValid, pauseRun, resetRun, setSpeed, startRun, stepOnce, stepTurn, turnStepBlocked, useApp } from '../store';
import { RunProgress } from './RunProgress';
import { RunBlocked } from './RunBlocked';
import { useHidden } from '../hide';

/** Speeds the slider offers, in iterations per second (0 = as fast as the workers go). */
export const SPEEDS = [1, 2, 5, 10, 30, 60, 0] as const;
const speedText = (v: number) => (v === 0 ? 'as fast as possible' : `${v} iteration${v === 1 ? '' : 's'} per second`);

/** Run, Pause, Step, Step one turn, Reset and the speed; every button also has a key (press ?). */
export function Transport({ minimal = false }: { minimal?: boolean }) {
  const status = useApp((s) => s.status);
  const valid = useApp(isValid);
  const iteration = useApp((s) => s.iteration);
  const hide = { pause: useHidden('pause'), reset: useHidden('reset'), speed: useHidden('speed') };
  const running = status === 'running';
  const finished = status === 'done';
  const runLabel = running ? 'Running…' : status === 'paused' && iteration > 0 ? 'Resume' : finished ? 'Run again' : 'Run';
  const onRun = () => {
    if (finished) resetRun();
    startRun();
  };
  return (
    <section className="transport card" aria-label="Run controls">
      <div className="transport-buttons">
        <button type="button" className="run" data-testid="run" onClick={onRun} disabled={!valid || running} title="Run to the end (Space)">
          {runLabel}
        </button>
        {!hide.pause && (
          <button type="button" data-testid="pause" onClick={pauseRun} disabled={!running} title="Pause at once (Space)">
            Pause
          </button>
        )}
        {!minimal && <StepButtons />}
        {!hide.reset && (
          <button type="button" data-testid="reset" onClick={resetRun} disabled={status === 'idle' && iteration === 0} title="Stop and clear (R)">
            Reset
          </button>
        )}
        {!minimal && !hide.speed && <SpeedSlider />}
      </div>
      {!minimal && <RunBlocked />}
      <RunProgress />
      <Notice />
    </section>
  );
}

function StepButtons() {
  const status = useApp((s) => s.status);
  const valid = useApp(isValid);
  const plan = useApp((s) => s.plan);
  const iteration = useApp((s) => s.iteration);
  const total = useApp((s) => s.total);
  const running = status === 'running';
  const finished = status === 'done';
  const blocked = turnStepBlocked(plan);
  const hide = { step: useHidden('step'), turn: useHidden('step-turn') };
  return (
    <>
          {!hide.step && <button type="button" data-testid="step" onClick={stepOnce} disabled={!valid || running || finished || iteration >= total} title="One iteration of every run (→)">
            Step
          </button>}
          {!hide.turn && <button
            type="button"
            data-testid="step-turn"
            onClick={stepTurn}
            disabled={!valid || running || finished || blocked !== null}
            title={blocked ?? 'The next turn’s update of sequential algorithms: watch reverse order turn by turn (Shift+→)'}
          >
            Step one turn
          </button>}
    </>
  );
}

function SpeedSlider() {
  const speed = useApp((s) => s.speed);
  const index = Math.max(0, SPEEDS.indexOf(speed as (typeof SPEEDS)[number]));
  return (
    <label className="speed">
      <span>Speed</span>
      <input
        type="range"
        data-testid="speed"
        min={0}
        max={SPEEDS.length - 1}
        step={1}
        value={index}
        aria-label="Speed"
        aria-valuetext={speedText(SPEEDS[index])}
        onChange={(e) => setSpeed(SPEEDS[Number(e.target.value)])}
      />
      <span className="speed-text">{SPEEDS[index] === 0 ? 'max' : `${SPEEDS[index]} it/s`}</span>
    </label>
  );
}

/** What the last change did (applied hot, or restarted the experiment). */
function Notice() {
  const notice = useApp((s) => s.notice);
  if (!notice) return null;
  return (
    <p className="notice" data-testid="notice" role="status">
      {notice}
    </p>
  );
}
