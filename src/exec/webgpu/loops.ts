// The kernel's loops rewritten to test their condition at the end of each pass, as the compiler
// of a software adapter needs them: SwiftShader runs a loop's body once more than its trips, with
// every lane masked off, because a `for` or `while` tests its condition at the top and SwiftShader
// runs every block of a pass whatever the mask (a loop of 1 trip cost as much as 2; measured with
// a body of 300 exp). The kernel's loops are short (1 to 13 trips), so that pass was a large part
// of its time. The same statements run in the same order on the same values:
//   for (var j = a; c; j++) { b }  →  { var j = a; if (c) { loop { b continuing { j++; break if !(c); } } } }
//   while (c) { b }                →  if (c) { loop { b continuing { break if !(c); } } }
// A `continue` in b goes to the continuing block, as it goes to a for loop's update; a `break` leaves.

/** The index just past the bracket that closes the one opened at `open` ('(' or '{'). */
function closing(src: string, open: number): number {
  const [o, c] = src[open] === '(' ? ['(', ')'] : ['{', '}'];
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === o) depth++;
    else if (src[i] === c && --depth === 0) return i + 1;
  }
  throw new Error('the WebGPU kernel has unbalanced brackets');
}

const HEAD = /\b(for|while) \(/g;

/** Every `for (…; …; …) {…}` and `while (…) {…}` of `src`, nested ones included, rewritten as above. */
export function loopsTestedAtTheEnd(src: string): string {
  HEAD.lastIndex = 0;
  const m = HEAD.exec(src);
  if (!m) return src;
  const open = m.index + m[0].length - 1;
  const close = closing(src, open);
  const header = src.slice(open + 1, close - 1);
  const brace = src.indexOf('{', close);
  if (src.slice(close, brace).trim() !== '') throw new Error(`the WebGPU kernel has a loop without a block: ${src.slice(m.index, brace + 1)}`);
  const end = closing(src, brace);
  const body = loopsTestedAtTheEnd(src.slice(brace + 1, end - 1));
  let loop: string;
  if (m[1] === 'while') {
    loop = `if (${header}) { loop {${body} continuing { break if !(${header}); } } }`;
  } else {
    const parts = header.split(';').map((p) => p.trim());
    if (parts.length !== 3 || !parts[0]!.startsWith('var ')) throw new Error(`the WebGPU kernel has a for loop of another form: for (${header})`);
    const [init, cond, update] = parts as [string, string, string];
    loop = `{ ${init}; if (${cond}) { loop {${body} continuing { ${update}; break if !(${cond}); } } } }`;
  }
  return src.slice(0, m.index) + loop + loopsTestedAtTheEnd(src.slice(end));
}
