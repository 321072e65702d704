// End-to-end tests of the built site in headless Chromium (Debian's /usr/bin/chromium) with WebGPU
// on SwiftShader. `cargo xtask test` builds the site, serves it and sets BASE_URL, SCREENSHOT_DIR
// and CHROME_ARGS. Every page is also checked for console errors.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const SHOTS = process.env.SCREENSHOT_DIR ?? 'target/e2e';
const ARGS = (process.env.CHROME_ARGS ?? '--enable-unsafe-webgpu').split(/\s+/).filter(Boolean);

let browser;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless=new', '--no-sandbox', ...ARGS],
  });
});

after(async () => {
  await browser?.close();
});

async function browserWithoutWebGpu() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless=new', '--no-sandbox', '--disable-features=WebGPU', ...ARGS.filter((a) => !a.includes('webgpu'))],
  });
}

/**
 * Opens a page that records console errors and uncaught exceptions. With `withoutWebGpu`, the page
 * comes from a second Chromium started without WebGPU, so that neither the page nor the runtime's
 * worker has `navigator.gpu`.
 */
async function open(path, { withoutWebGpu = false } = {}) {
  const from = withoutWebGpu ? await browserWithoutWebGpu() : browser;
  const page = await from.newPage({ viewport: { width: 1280, height: 800 } });
  if (withoutWebGpu) {
    page.on('close', () => from.close());
  }
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => errors.push(`request failed: ${req.url()}`));
  await page.goto(BASE + path);
  return { page, errors };
}

async function backendBadge(page) {
  const badge = page.getByTestId('backend');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=backend]')?.dataset.state !== 'probing',
    null,
    { timeout: 30_000 },
  );
  return { state: await badge.getAttribute('data-state'), text: (await badge.textContent()).trim() };
}

test('the home page lists the lessons and names the WebGPU adapter', async () => {
  const { page, errors } = await open('/');
  const cards = page.locator('[data-testid=lesson-list] li');
  await cards.first().waitFor();
  const titles = await cards.locator('.card-title').allTextContents();
  assert.deepEqual(titles.slice(0, 2), ['What .to() returns', 'Devices: strings, torch.device and indices']);
  const summaries = await cards.locator('.card-summary').allTextContents();
  assert.ok(summaries.every((s) => s.length > 20), `summaries: ${summaries}`);

  const badge = await backendBadge(page);
  assert.equal(badge.state, 'gpu', badge.text);
  assert.match(badge.text, /^GPU: .*swiftshader.*\(WebGPU/i);

  await page.screenshot({ path: join(SHOTS, 'home.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a browser without WebGPU is told plainly that the CPU stands in', async () => {
  const { page, errors } = await open('/', { withoutWebGpu: true });
  // Neither the page nor a worker (where the runtime lives) gets a WebGPU adapter.
  const adapters = await page.evaluate(async () => {
    const probe = 'postMessage(!!(await navigator.gpu?.requestAdapter()))';
    const worker = new Worker(URL.createObjectURL(new Blob([`(async () => { ${probe} })()`])));
    const inWorker = await new Promise((resolve) => (worker.onmessage = (e) => resolve(e.data)));
    return { page: !!(await navigator.gpu?.requestAdapter()), worker: inWorker };
  });
  assert.deepEqual(adapters, { page: false, worker: false });
  const badge = await backendBadge(page);
  assert.equal(badge.state, 'cpu');
  assert.equal(badge.text, 'emulated on the CPU: this browser has no WebGPU');
  await page.locator('[data-testid=lesson-list] li').first().waitFor();
  await page.screenshot({ path: join(SHOTS, 'no-webgpu.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson opens from the list and renders its prose', async () => {
  const { page, errors } = await open('/');
  await page.getByRole('link', { name: /What \.to\(\) returns/ }).click();
  await page.waitForURL(`${BASE}/lesson/what-to-returns`);
  const prose = page.getByTestId('lesson-prose');
  await assert.doesNotReject(prose.locator('h1', { hasText: 'What .to() returns' }).waitFor());
  await prose.locator('.cell .cm-editor').first().waitFor();
  assert.ok((await prose.locator('.cell').count()) >= 3, 'Python examples become cells');
  assert.equal(await page.locator('.course li.current').textContent(), 'What .to() returns');
  await backendBadge(page);
  await page.screenshot({ path: join(SHOTS, 'lesson.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a lesson's Python blocks are code editors that run in the runtime", async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const first = page.locator('.cell').first();
  await first.locator('.cm-editor').waitFor();
  assert.equal(await first.getAttribute('aria-label'), 'Cell 1');
  assert.ok(await first.locator('.cm-lineNumbers').isVisible(), 'line numbers');
  assert.ok((await first.locator('.cm-line').count()) >= 5, 'the block text is in the editor');

  // Edit, then Run: a trailing expression's value is shown.
  await first.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('import torch\nx = torch.ones(3)\nx.to("cpu") is x');
  await first.getByRole('button', { name: 'Run' }).click();
  const output = first.locator('.cell-output');
  await page.waitForFunction((el) => !el.classList.contains('running') && el.textContent.trim() !== '', await output.elementHandle(), { timeout: 60_000 });
  assert.equal((await output.textContent()).trim(), 'True');

  // Shift+Enter runs what the editor holds now, in the same notebook (torch is imported).
  await first.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('print(torch.ones(2) * 3)');
  await page.keyboard.press('Shift+Enter');
  await page.waitForFunction((el) => el.textContent.includes('tensor('), await output.elementHandle(), { timeout: 60_000 });
  assert.equal((await output.textContent()).trim(), 'tensor([3., 3.])');

  // An error shows its traceback, styled as an error.
  await page.keyboard.press('Control+A');
  await page.keyboard.type('torch.ones(2).to("cuda:7")');
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction((el) => el.classList.contains('error'), await output.elementHandle(), { timeout: 60_000 });
  assert.match(await output.textContent(), /Traceback[\s\S]*Error/);
  // The line the error was raised on is marked in the editor; an edit clears the mark.
  assert.equal(await first.locator('.cm-error-line').count(), 1);
  await page.screenshot({ path: join(SHOTS, 'cells.png'), fullPage: true });
  await page.keyboard.type(' ');
  assert.equal(await first.locator('.cm-error-line').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('edits survive a reload, Restore original brings the code back, and Stop ends a loop', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const cell = () => page.locator('.cell').nth(1);
  const code = () => cell().locator('.cm-content');
  await cell().locator('.cm-editor').waitFor();
  const original = await code().textContent();
  await code().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('print("edited")');
  await page.reload();
  await cell().locator('.cm-editor').waitFor();
  assert.equal(await code().textContent(), 'print("edited")');
  await cell().getByRole('button', { name: 'Restore original' }).click();
  assert.equal(await code().textContent(), original);
  await page.reload();
  await cell().locator('.cm-editor').waitFor();
  assert.equal(await code().textContent(), original);

  // An infinite loop ends with KeyboardInterrupt when Stop is pressed.
  await code().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('while True:\npass');
  await cell().getByRole('button', { name: 'Run' }).click();
  const output = cell().locator('.cell-output');
  await page.waitForFunction((el) => el.classList.contains('running'), await output.elementHandle());
  await page.waitForTimeout(300);
  await cell().getByRole('button', { name: 'Stop' }).click();
  await page.waitForFunction((el) => el.classList.contains('error'), await output.elementHandle(), { timeout: 30_000 });
  assert.match(await output.textContent(), /KeyboardInterrupt/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a deep link loads the lesson directly (client-side routing)', async () => {
  const { page, errors } = await open('/lesson/devices');
  const prose = page.getByTestId('lesson-prose');
  await prose.locator('h2', { hasText: 'The current device' }).waitFor();
  assert.ok(await prose.locator('table').isVisible(), 'Markdown tables render');
  await backendBadge(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unknown lesson shows a friendly not-found page', async () => {
  const { page, errors } = await open('/lesson/no-such-lesson');
  const notice = page.getByTestId('not-found');
  await notice.waitFor();
  assert.match(await notice.textContent(), /No lesson here.*\/lesson\/no-such-lesson/s);
  await notice.getByRole('link', { name: 'See all lessons' }).click();
  await page.locator('[data-testid=lesson-list] li').first().waitFor();
  await backendBadge(page);
  await page.screenshot({ path: join(SHOTS, 'not-found.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the server sends wasm as application/wasm and 404s missing assets', async () => {
  const html = await (await fetch(`${BASE}/`)).text();
  const wasm = html.match(/[\w-]+_bg\.wasm/)?.[0];
  assert.ok(wasm, 'index.html references the wasm module');
  const response = await fetch(`${BASE}/${wasm}`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/wasm');
  assert.equal((await fetch(`${BASE}/missing-asset.js`)).status, 404);
});
