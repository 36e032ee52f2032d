// The page derives a few values (links, verdicts, a parsed sweep) on every store change; each is
// kept for its last inputs only, compared by identity, so an unchanged store costs one comparison.
// A value with no inputs (the canvas that measures chart text) is made once, on first use.

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

/** `compute`'s answer, computed on the first call and returned by every call after it (null included). */
export function once<V>(compute: () => V): () => V {
  const remembered = memoLast((_: void) => [], compute);
  return () => remembered();
}
