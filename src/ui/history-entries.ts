// How the address bar's history follows the experiment: every committed change is one entry;
// while a slider is held or a field has focus, the edit's entry is replaced as the value moves
// (one drag or one typed number is one entry, so Back undoes the whole edit); Back/Forward and
// opening a link write nothing. Pure: url-sync.ts feeds it the page's events and does what it says.

export type HistoryWrite = 'push' | 'replace' | null;

export class HistoryEntries {
  /** The fragment the address shows. */
  private shownFragment = '';
  /** The entry of the edit in progress, replaced until the edit ends. */
  private entryOpen = false;
  private sliding = false;
  private typing = false;
  /** A link is being opened: the store's changes come from the address, not to it. */
  private opening = false;

  /** An edit in progress: a slider held, or a field with focus. */
  get editing(): boolean {
    return this.sliding || this.typing;
  }

  /** What the address shows, computed when first needed (shownLater). */
  private pendingShown: (() => string | null) | null = null;

  /** The experiment's address is now `fragment`: push a new entry, replace the open one, or nothing. */
  write(fragment: string): HistoryWrite {
    if (this.opening) return null;
    this.settle();
    if (fragment === this.shownFragment) return null;
    this.shownFragment = fragment;
    if (this.entryOpen) {
      if (!this.editing) this.entryOpen = false;
      return 'replace';
    }
    this.entryOpen = this.editing;
    return 'push';
  }

  /** While `open` runs (it opens a link into the store), `opening` is true: the changes come from the address. */
  opened(open: () => void): void {
    this.opening = true;
    try {
      open();
    } finally {
      this.opening = false;
    }
  }

  get isOpening(): boolean {
    return this.opening;
  }

  /** The address shows `fragment` already (a link was just opened there). */
  shown(fragment: string): void {
    this.pendingShown = null;
    this.shownFragment = fragment;
  }

  /**
   * The address shows what `fragment()` gives (null: unchanged); computed at the next write or
   * settle(), so that opening a link does not also encode it again in the same task.
   */
  shownLater(fragment: () => string | null): void {
    this.pendingShown = fragment;
  }

  /** Compute the fragment shownLater was given, if it is still pending. */
  settle(): void {
    const f = this.pendingShown;
    if (!f) return;
    this.pendingShown = null;
    const fragment = f();
    if (fragment !== null) this.shownFragment = fragment;
  }

  /** Back or Forward: the next change starts an entry of its own. */
  moved(): void {
    this.entryOpen = false;
  }

  slideStart(): void {
    this.sliding = true;
  }

  slideEnd(): void {
    if (!this.sliding) return;
    this.sliding = false;
    this.entryOpen = false;
  }

  typingStart(): void {
    this.typing = true;
  }

  typingEnd(): void {
    this.typing = false;
    this.entryOpen = false;
  }

  /** Enter in a typed field commits what was typed: the next keystroke starts a new entry. */
  commit(): void {
    if (this.typing) this.entryOpen = false;
  }
}
