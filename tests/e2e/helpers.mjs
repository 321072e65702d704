// What every end-to-end test file shares: the browser (Debian's /usr/bin/chromium, headless, with
// WebGPU on SwiftShader), pages that record console errors, and the steps a learner takes in a
// cell. `cargo xtask test` builds the site, serves it and sets BASE_URL, SCREENSHOT_DIR and
// CHROME_ARGS.

import { before, after } from 'node:test';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
export const SHOTS = process.env.SCREENSHOT_DIR ?? 'target/e2e';
const ARGS = (process.env.CHROME_ARGS ?? '--enable-unsafe-webgpu').split(/\s+/).filter(Boolean);

let browser;

/** Starts one Chromium for the file's tests, and closes it after them. */
export function useBrowser() {
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launch(ARGS);
  });
  after(async () => {
    await browser?.close();
  });
}

function launch(args) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless=new', '--no-sandbox', ...args],
  });
}

/** The file's Chromium. */
export function theBrowser() {
  return browser;
}

/**
 * Opens a page (a path under BASE, or a whole URL) in a fresh context (no stored state) that records console errors and uncaught
 * exceptions. With `withoutWebGpu`, the page comes from a second Chromium started without WebGPU,
 * so that neither the page nor the runtime's worker has `navigator.gpu`.
 */
export async function open(path, { withoutWebGpu = false, viewport = { width: 1280, height: 800 } } = {}) {
  const from = withoutWebGpu
    ? await launch(['--disable-features=WebGPU', ...ARGS.filter((a) => !a.includes('webgpu'))])
    : browser;
  const page = await from.newPage({ viewport });
  if (withoutWebGpu) {
    page.on('close', () => from.close());
  }
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') errors.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => errors.push(`request failed: ${req.url()}`));
  await page.goto(path.startsWith('http') ? path : BASE + path);
  return { page, errors };
}

/** Replaces the text of `cell`'s editor with `code`. */
export async function setCode(page, cell, code) {
  await cell.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(code);
}

/** Waits until `cell`'s output has counted more than `runs` finished runs and no run is going. */
export async function runsPast(page, cell, runs, timeout = 60_000) {
  const output = cell.locator('.cell-output');
  await page.waitForFunction(
    ([el, n]) => Number(el.dataset.runs ?? 0) > n && !el.classList.contains('running'),
    [await output.elementHandle(), runs],
    { timeout },
  );
  return (await output.textContent()).trim();
}

/** How many finished runs `cell`'s output has counted. */
export async function runs(cell) {
  return Number((await cell.locator('.cell-output').getAttribute('data-runs')) ?? 0);
}

/** Runs `cell` with its Run button and waits for the run to finish (the output counts runs). */
export async function runCell(page, cell, timeout = 60_000) {
  const before = await runs(cell);
  await cell.locator('button[data-action=run]').click();
  return runsPast(page, cell, before, timeout);
}

export async function backendBadge(page) {
  const badge = page.getByTestId('backend');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=backend]')?.dataset.state !== 'probing',
    null,
    { timeout: 30_000 },
  );
  return { state: await badge.getAttribute('data-state'), text: (await badge.textContent()).trim() };
}
