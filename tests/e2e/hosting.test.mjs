// The lab hosted as an instructor hosts it: a site built with `cargo xtask site --base /courses/ml/`
// (HOSTED_SITE, HOSTED_BASE; `cargo xtask test` builds it) on a plain static host with no rewrite
// rule and no headers (static-host.mjs, as GitHub Pages is), so that index.html's own
// Content-Security-Policy is the only one. And a lesson's exercise embedded in a page on another
// origin, with docs/HOSTING.md's snippet, reporting a passed exercise to it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SHOTS, open, runCell, setCode, theBrowser, useBrowser } from './helpers.mjs';
import { serveStatic } from './static-host.mjs';

const SITE = process.env.HOSTED_SITE;
const MOUNT = process.env.HOSTED_BASE ?? '/courses/ml/';
const skip = SITE ? false : 'HOSTED_SITE is not set (cargo xtask test sets it)';

useBrowser();

let host;
before(async () => {
  if (SITE) host = await serveStatic(resolve(SITE), { mount: MOUNT });
});
after(async () => {
  await host?.close();
});

/** Every path the host was asked for since `from`, outside the base. */
function outsideBase(from) {
  return host.requests.slice(from).filter((path) => !path.startsWith(MOUNT));
}

test('the home page under the base links every lesson under it, with nothing fetched outside it', { skip }, async () => {
  const asked = host.requests.length;
  const { page, errors } = await open(host.url);
  await page.locator('[data-testid=lesson-list] li').first().waitFor();
  const links = await page.locator('[data-testid=lesson-list] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.equal(links.length, 16);
  for (const href of links) assert.match(href, new RegExp(`^${MOUNT}lesson/[a-z0-9-]+$`));
  await page.locator('.site-nav a', { hasText: 'Devices' }).click();
  await page.waitForURL(`${host.url}devices`);
  assert.equal(await page.locator('.site-nav a', { hasText: 'Lessons' }).getAttribute('href'), MOUNT);
  assert.deepEqual(outsideBase(asked), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a deep link loads, reloads and runs a cell, and an exercise is checked, on a host without rewrites', { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open(`${host.url}lesson/what-to-returns`);
  const cell = page.locator('.cell').first();
  await cell.locator('.cm-editor').waitFor();
  // The host answered the folder's index.html after adding a slash; the app took the slash off.
  assert.equal(page.url(), `${host.url}lesson/what-to-returns`);
  await page.reload();
  await cell.locator('.cm-editor').waitFor();
  assert.equal(page.url(), `${host.url}lesson/what-to-returns`);
  assert.notEqual((await runCell(page, cell)).length, 0);
  assert.doesNotMatch(await cell.locator('.cell-output').getAttribute('class'), /error/);

  const exercise = page.locator('section.exercise').first();
  const check = exercise.locator('button[data-action=check]');
  await check.click();
  await exercise.locator('.check-summary').waitFor({ timeout: 90_000 });
  await exercise.locator('button[data-action=solution]').click();
  await setCode(page, exercise, await exercise.locator('.solution pre').textContent());
  await check.click();
  await page.waitForFunction((el) => el.querySelector('.check-summary')?.textContent.startsWith('Every check passes'), await exercise.elementHandle(), { timeout: 90_000 });

  assert.deepEqual(errors, []);

  // A route the build did not know gets 404.html (the status Chromium logs): the app, with its
  // own page and a way home.
  const response = await page.goto(`${host.url}lesson/no-such-lesson`);
  assert.equal(response.status(), 404);
  await page.getByTestId('not-found').waitFor();
  assert.equal(await page.getByTestId('not-found').locator('a').getAttribute('href'), MOUNT);
  assert.deepEqual(errors, ['console error: Failed to load resource: the server responded with a status of 404 (Not Found)']);
  await page.close();
});

test('progress kept under one base is not another course\'s on the same host', { skip }, async () => {
  const context = await theBrowser().newContext();
  const page = await context.newPage();
  await page.goto(`${host.url}lesson/what-to-returns`);
  await page.locator('.cell .cm-editor').first().waitFor();
  const keys = await page.evaluate(() => Object.keys(localStorage));
  assert.ok(keys.length > 0);
  for (const key of keys) assert.ok(key.startsWith(`${MOUNT}tolab:`), key);
  await context.close();
});

test("an embedded exercise on another origin's page reports its verdict to it with the documented snippet", { skip, timeout: 180_000 }, async () => {
  const docs = readFileSync(new URL('../../docs/HOSTING.md', import.meta.url), 'utf8');
  const snippet = docs.match(/<!-- embed-snippet -->\s*```html\n([\s\S]*?)```/)?.[1];
  assert.ok(snippet, 'docs/HOSTING.md has the embed snippet');
  const address = 'https://YOUR-HOST/courses/ml/lesson/what-to-returns/?embed=1&exercise=keep-what-to-returns';
  assert.ok(snippet.includes(address), 'the snippet embeds an exercise');
  // The LMS page: the snippet, with its console.log of a pass recorded where the test can read it.
  const page = `<!doctype html><title>LMS</title><h1>Week 1</h1>${snippet.replace(address, `${host.url}lesson/what-to-returns/?embed=1&exercise=keep-what-to-returns`)}`;
  const lms = await serveStatic({ page }, { host: 'localhost' });
  try {
    const { page: parent, errors } = await open(lms.url);
    const passed = [];
    parent.on('console', (msg) => {
      if (msg.text().startsWith('passed')) passed.push(msg.text());
    });
    const frame = parent.frameLocator('iframe#tolab');
    const exercise = frame.locator('section.exercise');
    await exercise.locator('.cm-editor').waitFor({ timeout: 60_000 });
    // The snippet sizes the frame to the exercise: smaller than the 600 px it starts at.
    await fitsItsFrame(parent, 'iframe#tolab');
    const before = await frameHeight(parent, 'iframe#tolab');
    assert.ok(before < 600, `the frame shrank to the exercise (${before} px)`);
    // No site chrome, the one exercise and nothing else of the lesson.
    assert.equal(await frame.locator('.site-header').count(), 0);
    assert.equal(await frame.locator('.course').count(), 0);
    assert.equal(await frame.locator('[data-testid=lesson-prose] > *').count(), 1);
    assert.equal(await frame.locator('.cell:not(.exercise-cell)').count(), 0);

    const check = exercise.locator('button[data-action=check]');
    await check.click();
    await exercise.locator('.check-summary').waitFor({ timeout: 90_000 });
    assert.deepEqual(passed, [], 'the starter does not pass');
    await exercise.locator('button[data-action=solution]').click();
    const solution = await exercise.locator('.solution pre').textContent();
    await exercise.locator('.cm-content').click();
    await parent.keyboard.press('Control+A');
    await parent.keyboard.insertText(solution);
    await check.click();
    await exercise.locator('.check.passed').first().waitFor({ timeout: 90_000 });
    await waitUntil(() => passed.length > 0, 10_000);
    assert.deepEqual(passed, ['passed what-to-returns keep-what-to-returns']);
    // The checks and the solution made it taller, and the frame followed.
    await fitsItsFrame(parent, 'iframe#tolab');
    assert.ok((await frameHeight(parent, 'iframe#tolab')) > before);
    await parent.screenshot({ path: join(SHOTS, 'embed.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await parent.close();
  } finally {
    await lms.close();
  }
});

test('messages go only to the parent= origin, and carry the code checked only there', { skip, timeout: 180_000 }, async () => {
  // Two frames: one whose parent= is the LMS page's own origin, one whose parent= is another.
  const page = `<!doctype html><title>LMS</title><iframe id="mine"></iframe><iframe id="other"></iframe>
    <script>
      window.heard = [];
      const mine = document.getElementById('mine');
      addEventListener('message', (e) => heard.push({ from: e.source === mine.contentWindow ? 'mine' : 'other', origin: e.origin, data: e.data }));
      const embed = (parent) => '${host.url}lesson/what-to-returns/?embed=1&exercise=keep-what-to-returns&parent=' + encodeURIComponent(parent);
      mine.src = embed(location.origin);
      document.getElementById('other').src = embed('https://other.example');
    </script>`;
  const lms = await serveStatic({ page }, { host: 'localhost' });
  try {
    const { page: parent } = await open(lms.url);
    const mine = parent.frameLocator('#mine').locator('section.exercise');
    await mine.locator('.cm-editor').waitFor({ timeout: 60_000 });
    await parent.frameLocator('#other').locator('section.exercise .cm-editor').waitFor({ timeout: 60_000 });
    await mine.locator('button[data-action=check]').click();
    await mine.locator('.check-summary').waitFor({ timeout: 90_000 });
    await parent.waitForFunction(() => heard.some((m) => m.data.type === 'tolab:exercise-checked'));
    const heard = await parent.evaluate(() => heard);
    assert.deepEqual([...new Set(heard.map((m) => m.from))], ['mine'], 'nothing reached the page from the frame whose parent= is another origin');
    assert.ok(heard.every((m) => m.origin === host.origin));
    const checked = heard.find((m) => m.data.type === 'tolab:exercise-checked').data;
    assert.equal(checked.passed, false);
    assert.match(checked.code, /x\.to\("cuda"\)/);
    await parent.close();
  } finally {
    await lms.close();
  }
});

test('an embed address with a wrong exercise or parent says what is wrong', { skip }, async () => {
  const { page, errors } = await open(`${host.url}lesson/what-to-returns?embed=1&exercise=nope`);
  await page.getByTestId('embed-error').waitFor();
  assert.match(await page.getByTestId('embed-error').textContent(), /exercise=nope: .* its exercises are keep-what-to-returns/);
  await page.goto(`${host.url}lesson/what-to-returns?embed=1&parent=lms`);
  await page.getByTestId('embed-error').waitFor();
  assert.match(await page.getByTestId('embed-error').textContent(), /parent=lms is not an origin/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a site copied under a path it was not built for says so instead of a blank page', { skip }, async () => {
  const elsewhere = await serveStatic(resolve(SITE), { mount: '/elsewhere/' });
  try {
    const page = await theBrowser().newPage();
    await page.goto(`${elsewhere.url}lesson/what-to-returns`);
    await page.getByText('Loading the to(device) lab…').waitFor();
    const help = page.locator('.boot-help');
    assert.match(await help.textContent(), /A site is built for one path: serve it where it was built for\s+\(cargo xtask site --base \/path\/\)/);
    // Shown at once: without the stylesheet nothing delays it.
    assert.equal(await help.evaluate((el) => getComputedStyle(el).opacity), '1');
    await page.close();
  } finally {
    await elsewhere.close();
  }
});

/** The frame's height, in CSS pixels. */
function frameHeight(page, selector) {
  return page.locator(selector).evaluate((el) => el.getBoundingClientRect().height);
}

/** Waits until the frame is as tall as the page inside it (the snippet follows tolab:resize). */
async function fitsItsFrame(page, selector) {
  const body = page.frameLocator(selector).locator('body');
  let heights;
  await waitUntil(async () => {
    heights = [await frameHeight(page, selector), await body.evaluate((el) => Math.ceil(el.getBoundingClientRect().height))];
    return Math.abs(heights[0] - heights[1]) <= 1;
  }, 10_000, () => `the frame is ${heights[0]} px tall, its page ${heights[1]} px`);
}

/** Polls `condition` (which may be async) every 100 ms until it holds, for at most `timeout` ms. */
async function waitUntil(condition, timeout, what = () => 'timed out') {
  const end = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(what());
    await new Promise((r) => setTimeout(r, 100));
  }
}
