// What the page's session actions (session-actions.ts) keep from one press to the next: the
// workers' session, the turn-by-turn hold and the policy trees waiting to be drawn. Each is an
// object whose methods are its rules (a replaced session's events are dropped; the charts stop at
// the held iteration; a session's trees merge until drawn), tested in test/ui-session-slot.test.ts.

/** What the slot needs of a session: its workers can be closed, and it knows when every run has ended. */
export interface SessionLike {
  close(): void;
  readonly finished: boolean;
}

/** The page's one session of workers (none before the first command, after Reset or a failure). */
export class SessionSlot<S extends SessionLike> {
  private session: S | null = null;

  get current(): S | null {
    return this.session;
  }

  /** A session whose runs have not all ended: a command can go to it. */
  get active(): boolean {
    return this.session !== null && !this.session.finished;
  }

  /** Whether `s` is the page's session: the events of a session replaced since are dropped. */
  holds(s: S): boolean {
    return this.session === s;
  }

  /**
   * Close the session's workers before new ones start; it stays the current one (its events are
   * ignored once closed) until `replace` names the new session.
   */
  closeWorkers(): void {
    this.session?.close();
  }

  /** The page's session is now `s` (the one before was closed by closeWorkers). */
  replace(s: S): void {
    this.session = s;
  }

  /** Close the session and forget it. */
  clear(): void {
    this.session?.close();
    this.session = null;
  }
}

/**
 * Stepping turn by turn: the iteration the charts stop at while its turns are shown one press at
 * a time, and the turn records of that iteration.
 */
export class TurnHold<R> {
  private at: number | null = null;
  private turnRecords: R | null = null;

  /** Whether the charts are stopped at a held iteration. */
  get holding(): boolean {
    return this.at !== null;
  }

  /** The turn records of the held iteration, once they came. */
  get records(): R | null {
    return this.turnRecords;
  }

  /** Stop the charts at iteration `at`, whose turns are being recorded. */
  hold(at: number): void {
    this.at = at;
  }

  /** The turn records of the held iteration arrived. */
  recorded(records: R): void {
    this.turnRecords = records;
  }

  /** The iteration the charts show when every run has reached `reached`. */
  shown(reached: number): number {
    return this.at === null ? reached : Math.min(reached, this.at);
  }

  /** The last turn is shown: the charts follow the workers again (the records stay until release). */
  lastTurnShown(): void {
    this.at = null;
  }

  /** Leave turn-by-turn mode: nothing held, no records. */
  release(): void {
    this.at = null;
    this.turnRecords = null;
  }
}

/**
 * The policy trees a session sent since they were last drawn: the workers send one per iteration
 * block (tens a second) and the page draws at most one redraw's worth, so they merge until taken.
 */
export class PendingTrees<S, T> {
  private due: { s: S; trees: T[] } | null = null;

  constructor(private readonly merge: (held: readonly T[], incoming: readonly T[]) => T[]) {}

  /** Trees from `s`: merged with those due from the same session, replacing those of another. */
  add(s: S, trees: readonly T[]): void {
    const due = this.due;
    this.due = { s, trees: this.merge(due?.s === s ? due.trees : [], trees) };
  }

  /** The trees due and the session that sent them, or null; none are due afterwards. */
  take(): { s: S; trees: T[] } | null {
    const due = this.due;
    this.due = null;
    return due;
  }

  /** Forget the trees due (newer ones replace them: the turn records', another choice of runs). */
  drop(): void {
    this.due = null;
  }
}
