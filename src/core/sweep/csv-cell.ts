// One CSV field (RFC 4180), safe to open in a spreadsheet. A text field that starts with = + - @
// (or a tab or carriage return) is a formula to Excel, LibreOffice and Google Sheets:
// `=HYPERLINK("http://…","click")` in an algorithm label or an axis value would run when the file
// is opened. Such a field gets a leading apostrophe (shown as text, OWASP's "CSV injection"
// advice) and is quoted; a plain number (-0.5, +3e-7) is left as the number it is.

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A field as CSV: formula starts defused, then quoted when it holds a comma, quote, CR or LF or starts/ends with a space. */
export function csvField(s: string): string {
  const defused = FORMULA_START.test(s) && !NUMBER.test(s);
  const text = defused ? `'${s}` : s;
  return defused || /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
