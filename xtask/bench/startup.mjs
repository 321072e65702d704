// `cargo xtask bench`: how fast the lab starts, next to Pyodide, in the same headless Chromium in
// the same run. For each, from navigation (a fresh browser context, so nothing is cached) to the
// first cell's result on screen, and the bytes the page fetched, gzip-compressed as a server
// would send them. Prints one JSON object of medians over RUNS runs.
//
// usage: node startup.mjs LAB_URL PYODIDE_URL   (each ending in /, as xtask's server gives them)

import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const [labUrl, pyodideUrl] = process.argv.slice(2);
const RUNS = 3;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless=new', '--no-sandbox', '--enable-unsafe-webgpu', '--js-flags=--stack-size=4096'],
});

/** Opens `url` in a fresh context; `ready(page)` resolves when the first cell's result shows. */
async function measure(url, ready) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const bodies = [];
  page.on('response', (response) => bodies.push(response.body().catch(() => Buffer.alloc(0))));
  await page.goto(url);
  await ready(page);
  const ms = await page.evaluate(() => performance.now());
  const gzip = (await Promise.all(bodies)).reduce((sum, body) => sum + gzipSync(body).length, 0);
  await context.close();
  return { ms, gzip };
}

const lab = (page) =>
  page.waitForFunction(
    () => {
      const output = document.querySelector('.cell-output');
      return output && !output.classList.contains('running') && output.textContent.trim() !== '';
    },
    null,
    { timeout: 120_000, polling: 'raf' },
  );

// The lab's first cell is clicked as soon as its Run button exists: the run waits for the runtime.
const labRun = async (page) => {
  await page.locator('.cell button[data-action=run]').first().click({ timeout: 120_000 });
  await lab(page);
};

const pyodide = (page) =>
  page.waitForFunction(() => document.getElementById('output')?.textContent === '332833500', null, {
    timeout: 120_000,
    polling: 'raf',
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const figures = {};
for (const [name, url, ready] of [
  ['lab', `${labUrl}lesson/what-to-returns`, labRun],
  ['pyodide', pyodideUrl, pyodide],
]) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(url, ready));
  figures[`${name}_first_cell_ms`] = median(runs.map((r) => r.ms));
  figures[`${name}_gzip_bytes`] = median(runs.map((r) => r.gzip));
}
await browser.close();
console.log(JSON.stringify(figures));
