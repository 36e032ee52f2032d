import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { configure, runToEnd, watchProblems } from './helpers';

// Export: the results as CSV and JSON, every chart as PNG and SVG.
// The files are captured as downloads and checked the way a spreadsheet or an image viewer
// would read them. Exported images are kept in test-results/ to look at.

const ALGORITHMS = 9; // the default comparison
const SEEDS = 2;
const ITERATIONS = 10;
const TURNS = 3; // lock
/** algorithms × seeds × ((iterations + 1) evaluations × (J, entropy, one per turn) + iterations updates × 5 metrics) */
const CSV_ROWS = ALGORITHMS * SEEDS * ((ITERATIONS + 1) * (2 + TURNS) + ITERATIONS * 5);
const CHARTS = ['return', 'gap', 'metric', 'seeds', 'heatmap'] as const;

async function save(page: Page, button: Locator): Promise<{ name: string; bytes: Buffer; download: Download }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(await download.failure()).toBeNull();
  const bytes = await readFile((await download.path())!);
  return { name: download.suggestedFilename(), bytes, download };
}

/** Width and height from a PNG's IHDR chunk (after the 8-byte signature and the chunk's length and type). */
function pngSize(b: Buffer): { width: number; height: number } {
  expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(b.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/**
 * Parse an SVG file as XML (as an image viewer would) and count what it draws. In a blank page of
 * the same browser: a document parsed inside the app's page would inherit its Content-Security-
 * Policy, which refuses the file's style attributes (an image viewer applies no such policy).
 */
async function inspectSvg(page: Page, text: string) {
  const blank = await page.context().newPage();
  try {
    return await inspectSvgIn(blank, text);
  } finally {
    await blank.close();
  }
}

function inspectSvgIn(page: Page, text: string) {
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const root = doc.documentElement;
    const count = (sel: string) => doc.querySelectorAll(sel).length;
    return {
      error: doc.getElementsByTagName('parsererror').length > 0,
      root: root.localName,
      ns: root.namespaceURI,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      viewBox: root.getAttribute('viewBox'),
      title: root.querySelector(':scope > title')?.textContent ?? null,
      background: root.querySelector(':scope > rect')?.getAttribute('fill') ?? null,
      paths: count('path'),
      lines: count('line'),
      rects: count('rect'),
      texts: [...doc.querySelectorAll('text')].map((e) => e.textContent ?? ''),
      /** class or var() references left unresolved in presentation (they would not exist outside the page) */
      vars: (t.match(/var\(--/g) ?? []).length,
    };
  }, text);
}

test('exports the results as CSV and JSON, and every chart as PNG and SVG', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  // nothing to export before a run
  await expect(page.getByTestId('export-csv')).toBeDisabled();
  await expect(page.getByTestId('export-json')).toBeDisabled();
  await expect(page.getByTestId('export-csv')).toHaveAttribute('title', /No results yet/);

  await configure(page, { seeds: SEEDS, iterations: ITERATIONS });
  await runToEnd(page, ITERATIONS);
  await expect(page.getByTestId('export-csv')).toBeEnabled();

  // CSV: long format, one row per (algorithm, seed, iteration, metric)
  const csv = await save(page, page.getByTestId('export-csv'));
  expect(csv.name).toMatch(/^seeupo-lock-\d{8}-\d{4}\.csv$/);
  const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
  expect(lines[0]).toBe('algorithm,seed,iteration,metric,value');
  expect(lines.length - 1).toBe(CSV_ROWS);
  expect(lines[1]).toMatch(/^reinforce,0,0,J,0\.\d+$/); // the first algorithm of the default comparison
  expect(lines.filter((l) => l.includes(',optimalTokenProb_turn3,')).length).toBe(ALGORITHMS * SEEDS * (ITERATIONS + 1));
  expect(lines.filter((l) => l.includes(',kl,')).length).toBe(ALGORITHMS * SEEDS * ITERATIONS);
  for (const l of lines.slice(1)) expect(l).toMatch(/^[A-Za-z0-9_.+-]+,\d+,\d+,[A-Za-z0-9_]+,(-?[\d.]+(e[+-]\d+)?)?$/);

  // JSON: the CLI's result with the config and the results hash
  const json = await save(page, page.getByTestId('export-json'));
  expect(json.name).toMatch(/^seeupo-lock-\d{8}-\d{4}\.json$/);
  const result = JSON.parse(json.bytes.toString('utf8'));
  expect(result.version).toBe(1);
  expect(result.complete).toBe(true);
  expect(result.iterations).toBe(ITERATIONS);
  expect(result.config).toMatchObject({ seeds: SEEDS, iterations: ITERATIONS });
  expect(result.resultsHash.digest).toMatch(/^[0-9a-f]{12}$/);
  expect(result.resultsHash.by).toBe('cpu');
  expect(result.algorithms).toHaveLength(ALGORITHMS);
  expect(result.algorithms[0].runs).toHaveLength(SEEDS);
  expect(result.algorithms[0].runs[0].J).toHaveLength(ITERATIONS + 1);
  // the CSV and the JSON hold the same numbers
  expect(lines[1]).toBe(`${result.algorithms[0].id},0,0,J,${result.algorithms[0].runs[0].J[0]}`);

  // every chart, both formats
  for (const chart of CHARTS) {
    const card = page.getByTestId(`chart-${chart}`);
    await card.scrollIntoViewIfNeeded();
    const png = await save(page, page.getByTestId(`export-png-${chart}`));
    expect(png.name).toMatch(new RegExp(`^seeupo-${chart}(-[a-zA-Z]+)?\\.png$`));
    const size = pngSize(png.bytes);
    const box = (await card.boundingBox())!;
    // drawn at 2 pixels per CSS pixel
    expect(size.width).toBeGreaterThanOrEqual(Math.floor(box.width * 2) - 2);
    expect(size.height).toBeGreaterThanOrEqual(Math.floor(box.height * 2) - 2);
    await png.download.saveAs(`test-results/export-${chart}.png`);

    const svg = await save(page, page.getByTestId(`export-svg-${chart}`));
    expect(svg.name).toMatch(new RegExp(`^seeupo-${chart}(-[a-zA-Z]+)?\\.svg$`));
    const text = svg.bytes.toString('utf8');
    await svg.download.saveAs(`test-results/export-${chart}.svg`);
    const s = await inspectSvg(page, text);
    expect(s.error, chart).toBe(false);
    expect(s.root).toBe('svg');
    expect(s.ns).toBe('http://www.w3.org/2000/svg');
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(s.width).toBeGreaterThan(100);
    expect(s.height).toBeGreaterThan(100);
    expect(s.viewBox).toBe(`0 0 ${s.width} ${s.height}`);
    expect(s.title, chart).toBeTruthy();
    expect(s.texts.join(' ')).toContain(s.title!);
    expect(s.background).toBe('rgb(255, 255, 255)'); // the light theme's card
    expect(s.vars, chart).toBe(0);
    expect(s.texts.some((t) => /^(PNG|SVG)$/.test(t)), 'the export buttons are left out').toBe(false);
    if (chart === 'heatmap') expect(s.rects).toBeGreaterThanOrEqual(ALGORITHMS * TURNS); // the cells
    else expect(s.paths + s.lines, chart).toBeGreaterThan(ALGORITHMS);
    if (chart === 'seeds') expect(s.paths).toBeGreaterThanOrEqual(ALGORITHMS * (SEEDS + 1)); // every seed and the mean
    if (chart === 'return') expect(s.texts).toEqual(expect.arrayContaining(['J*']));
  }

  // dark theme: the export keeps the page's dark background, so light text stays readable
  await page.getByTestId('theme-toggle').click(); // system → light
  await page.getByTestId('theme-toggle').click(); // light → dark
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const dark = await save(page, page.getByTestId('export-svg-return'));
  const d = await inspectSvg(page, dark.bytes.toString('utf8'));
  expect(d.background).toBe('rgb(30, 33, 39)');
  const darkPng = await save(page, page.getByTestId('export-png-return'));
  pngSize(darkPng.bytes);
  await darkPng.download.saveAs('test-results/export-return-dark.png');

  expect(problems).toEqual([]);
});

test('a partial run exports what has been computed', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await configure(page, { seeds: SEEDS, iterations: ITERATIONS });
  await page.getByTestId('step').click();
  await page.getByTestId('step').click();
  await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', '2');
  await expect(page.getByTestId('export-json')).toBeEnabled();
  const result = JSON.parse((await save(page, page.getByTestId('export-json'))).bytes.toString('utf8'));
  expect(result.complete).toBe(false);
  expect(result.computedIterations).toBe(2);
  const J = result.algorithms[0].runs[0].J as (number | null)[];
  expect(J).toHaveLength(ITERATIONS + 1);
  expect(J.slice(0, 3).every((v) => typeof v === 'number')).toBe(true);
  expect(J.slice(3).every((v) => v === null)).toBe(true);
  const lines = (await save(page, page.getByTestId('export-csv'))).bytes.toString('utf8').trimEnd().split('\n');
  expect(lines.length - 1).toBe(ALGORITHMS * SEEDS * (3 * (2 + TURNS) + 2 * 5));
  expect(problems).toEqual([]);
});
