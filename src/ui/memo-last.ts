// The page derives a few values (links, verdicts, a parsed sweep) on every store change; each is
// kept for its last inputs only, compared by identity, so an unchanged store costs one comparison.

/**
 * `compute`, remembering its last answer: while every entry of `keyOf(arg)` is identical (===)
 * to last time's, the last answer is returned without computing.
 */
export function memoLast<A, V>(keyOf: (arg: A) => readonly unknown[], compute: (arg: A) => V): (arg: A) => V {
  let last: { key: readonly unknown[]; value: V } | null = null;
  return (arg) => {
    const key = keyOf(arg);
    if (last && last.key.length === key.length && last.key.every((k, i) => k === key[i])) return last.value;
    const value = compute(arg);
    last = { key, value };
    return value;
  };
}
