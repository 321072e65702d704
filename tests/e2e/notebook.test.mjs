// The notebook as a new learner meets it, in headless Chromium with WebGPU on SwiftShader: every
// page opens in a fresh context with no stored state, cells and exercises are run out of order,
// and the page is measured while cells loop and print.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, backendBadge, open, runCell, runs, runsPast, setCode, theBrowser, useBrowser } from './helpers.mjs';

useBrowser();

/** Starts recording the page's frame times (requestAnimationFrame deltas, in ms). */
async function watchFrames(page) {
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      window.__framesId = requestAnimationFrame(tick);
    };
    window.__framesId = requestAnimationFrame(tick);
  });
}

/** The longest frame since `watchFrames`, in ms, and how many frames there were. */
async function worstFrame(page) {
  return page.evaluate(() => {
    cancelAnimationFrame(window.__framesId);
    const frames = window.__frames.slice(1);
    return { worst: Math.max(0, ...frames), frames: frames.length };
  });
}

test('every exercise passes on a fresh page with its solution, and Run all brings the lesson to 100 %', { timeout: 900_000 }, async () => {
  const { page, errors } = await open('/');
  await page.locator('[data-testid=lesson-list] li').first().waitFor();
  const slugs = await page.locator('[data-testid=lesson-list] a').evaluateAll((links) => links.map((a) => a.getAttribute('href').split('/').pop()));
  await page.close();
  assert.equal(slugs.length, 16);
  for (const slug of slugs) {
    // A fresh context: nothing run, nothing stored.
    const { page, errors: pageErrors } = await open(`/lesson/${slug}`);
    const exercise = page.locator('section.exercise').first();
    await exercise.locator('.cm-editor').waitFor();
    const check = exercise.locator('button[data-action=check]');
    const results = exercise.locator('.checks');
    await check.click();
    await results.locator('.check-summary').waitFor({ timeout: 90_000 }).catch(async (error) => {
      const shown = await exercise.locator('.cell-output').textContent();
      throw new Error(`${slug}: no verdict; the exercise shows ${JSON.stringify(shown)} (${error.message.split('\n')[0]})`);
    });
    assert.ok((await results.locator('.check.failed').count()) >= 1, `${slug}: the starter fails a check`);
    assert.match(await results.locator('.check-summary').textContent(), /Not yet/);
    // The output says which of the lesson's cells ran first. It is drawn with the next frame,
    // the checks list at once, so wait for the run to be counted on the output.
    assert.match(await runsPast(page, exercise, 0), /Checked in a fresh notebook/);

    await exercise.locator('button[data-action=solution]').click();
    await setCode(page, exercise, await exercise.locator('.solution pre').textContent());
    await check.click();
    await page.waitForFunction((el) => el.querySelector('.check-summary')?.textContent.startsWith('Every check passes'), await results.elementHandle(), { timeout: 60_000 });
    assert.equal(await results.locator('.check.failed').count(), 0, `${slug}: ${await results.textContent()}`);
    if (slug === 'autograd-across-devices') await exercise.screenshot({ path: join(SHOTS, 'exercise.png') });

    // Run all: every cell shows what the lesson records (errors shown on purpose included).
    await page.locator('[data-action=run-all]').click();
    const progress = page.locator('.course li.current .lesson-progress');
    await page.waitForFunction((el) => el.classList.contains('complete'), await progress.elementHandle(), { timeout: 240_000 });
    const badge = page.locator('.course li.current .exercise-progress');
    assert.ok(await badge.evaluate((el) => el.classList.contains('complete')), `${slug}: the exercise counts`);
    assert.match(await badge.textContent(), /^✓ 1\/1 exercise$/);

    // After a reload the exercise is still done, and its solution still offered.
    await page.reload();
    await exercise.locator('.cm-editor').waitFor();
    assert.equal(await exercise.locator('button[data-action=solution]').isDisabled(), false, `${slug}: solution offered`);
    assert.match(await results.textContent(), /Done earlier/);
    assert.deepEqual(pageErrors, [], slug);
    await page.close();
  }
  assert.deepEqual(errors, []);
});

test('an unfinished exercise shows no tick, and a hint seen stays seen', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const badge = page.locator('.course li.current .exercise-progress');
  await badge.waitFor();
  assert.equal(await badge.textContent(), '0/1 exercise');
  const exercise = page.locator('section.exercise').first();
  await exercise.locator('button[data-action=hint]').click();
  await page.reload();
  await exercise.locator('.cm-editor').waitFor();
  assert.equal(await exercise.locator('.hints li').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a cell run out of order offers to run the cell that defines the name it needs', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const second = page.locator('#cell-2');
  await second.locator('.cm-editor').waitFor();
  const shown = await runCell(page, second);
  assert.match(shown, /NameError: name 'x' is not defined/);
  const help = second.locator('.cell-help');
  await help.locator('button[data-action=run-needed]').waitFor();
  assert.match(await help.textContent(), /uses `x`, which cell 1 defines/);
  const before = await runs(second);
  await help.locator('button[data-action=run-needed]').click();
  const after = await runsPast(page, second, before);
  assert.match(after, /False/);
  assert.equal(await page.locator('#cell-1 .cell-counter').textContent(), '[2]');
  assert.equal(await second.locator('.cell-counter').textContent(), '[3]');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a cuda loop and a million printed lines never freeze the page, and Stop acts within a second', { timeout: 300_000 }, async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const cell = page.locator('#cell-1');
  await cell.locator('.cm-editor').waitFor();
  await backendBadge(page);
  const output = cell.locator('.cell-output');

  for (const code of [
    'import torch\nx = torch.zeros(1000, device="cuda")\nwhile True:\n    x = x + 1',
    'for i in range(1_000_000):\n    print(i)\nwhile True:\n    pass',
  ]) {
    await setCode(page, cell, code);
    const before = await runs(cell);
    await cell.locator('button[data-action=run]').click();
    await page.waitForFunction((el) => el.classList.contains('running'), await output.elementHandle());
    await watchFrames(page);
    if (code.includes('print')) {
      await page.waitForFunction((el) => Number(el.dataset.lines ?? 0) >= 1_000_000, await output.elementHandle(), { timeout: 150_000, polling: 500 });
    } else {
      await page.waitForTimeout(8_000);
    }
    const { worst, frames } = await worstFrame(page);
    assert.ok(frames > 20, `the page drew (${frames} frames)`);
    // A frozen page misses frames for seconds; on a shared 2-core machine with the GPU emulated
    // on the CPU a single frame can take ~120 ms now and then, which is noise, not a freeze
    // (timed goals belong to `cargo xtask bench`, not to tests).
    assert.ok(worst < 500, `the longest frame took ${worst.toFixed(0)} ms while "${code.split('\n')[0]}" ran`);
    // The running cell shows its time: there is no limit but Stop.
    assert.match(await cell.locator('.cell-status').textContent(), /^running \d+\.\d s$/);
    const stopped = Date.now();
    await cell.locator('button[data-action=stop]').click();
    const shown = await runsPast(page, cell, before, 5_000);
    assert.ok(Date.now() - stopped < 1_500, `Stop took ${Date.now() - stopped} ms`);
    assert.match(shown, /KeyboardInterrupt/);
  }
  // A million lines: the start and the end are shown, the rest counted, with a download.
  const hidden = Number(await output.getAttribute('data-hidden'));
  assert.ok(hidden > 100_000, `${hidden} lines hidden`);
  assert.match(await output.textContent(), /^0\n1\n2\n/);
  assert.match(await output.locator('.out-elided').textContent(), /lines hidden/);
  await output.locator('button[data-action=download]').waitFor();
  const height = await output.evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height < 600, `the output box is ${height}px high`);
  await cell.screenshot({ path: join(SHOTS, 'long-output.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a runtime that dies is replaced, the cell says so, and the next cell runs', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const cell = page.locator('#cell-1');
  await cell.locator('.cm-editor').waitFor();
  await backendBadge(page);
  // The runtime's worker dies as a panicking wasm module does.
  await page.evaluate(() => window.tolabRuntime.worker.dispatchEvent(new ErrorEvent('error', { message: 'RuntimeError: unreachable' })));
  await setCode(page, cell, 'import time\ntime.sleep(30)');
  const before = await runs(cell);
  await cell.locator('button[data-action=run]').click();
  await page.waitForTimeout(200);
  await page.evaluate(() => window.tolabRuntime.worker.dispatchEvent(new ErrorEvent('error', { message: 'RuntimeError: unreachable' })));
  const shown = await runsPast(page, cell, before, 10_000);
  assert.match(shown, /The runtime was restarted \(the runtime crashed: RuntimeError: unreachable\): the notebook's variables are gone; your code is kept\./);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.runtimeRestarts), '2');
  await setCode(page, cell, 'print(6 * 7)');
  assert.equal(await runCell(page, cell), '42');
  // A worker that stops answering (terminated without a word) is replaced too, by its missed heartbeat.
  await page.evaluate(() => window.tolabRuntime.worker.terminate());
  const next = await runs(cell);
  await cell.locator('button[data-action=run]').click();
  assert.match(await runsPast(page, cell, next, 20_000), /did not answer for 10 s/);
  assert.equal(await runCell(page, cell), '42');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a runtime that never gets ready is started again, and the cell waiting for it just runs', { timeout: 120_000 }, async () => {
  const browser = theBrowser();
  const context = await browser.newContext();
  // The first worker the page starts hangs as it loads (as one start in fifty does in headless
  // Chromium): its script never says it is ready. (It is the lab's own address, as the page's
  // Content-Security-Policy allows workers from nowhere else.)
  let first = true;
  await context.route(/\/tolab-worker-[0-9a-f]+\.js$/, (route) => {
    if (!first) return route.continue();
    first = false;
    return route.fulfill({ contentType: 'text/javascript', body: '/* never ready */' });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${BASE}/lesson/what-to-returns`);
  const cell = page.locator('#cell-1');
  await cell.locator('.cm-editor').waitFor();
  await setCode(page, cell, 'print("up")');
  assert.equal(await runCell(page, cell, 60_000), 'up');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.runtimeRestarts), '1');
  assert.equal(first, false, 'the first worker was the one that hangs');
  assert.deepEqual(errors, []);
  await context.close();
});

test('100 fresh loads start the runtime every time', { timeout: 900_000 }, async () => {
  const browser = theBrowser();
  let hangs = 0;
  // Starts that never got ready and were started again (the page recovers in 15 s).
  let restarts = 0;
  for (let i = 0; i < Number(process.env.FRESH_LOADS ?? 100); i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${BASE}/lesson/what-to-returns`);
    try {
      await page.waitForFunction(() => document.querySelector('[data-testid=backend]')?.dataset.state === 'gpu', null, { timeout: 30_000 });
      const cell = page.locator('#cell-1');
      await cell.locator('.cm-editor').waitFor();
      await setCode(page, cell, 'print("up")');
      const shown = await runCell(page, cell, 30_000);
      assert.equal(shown, 'up', `the cell showed ${JSON.stringify(shown)}`);
      restarts += Number(await page.evaluate(() => document.documentElement.dataset.runtimeRestarts ?? 0));
    } catch (error) {
      hangs += 1;
      const badge = await page.getByTestId('backend').textContent().catch(() => '?');
      const output = await page.locator('#cell-1 .cell-output').textContent().catch(() => '?');
      console.log(`load ${i + 1} hung: ${error.message.replace(/\n/g, ' ')} (badge: ${badge}; output: ${JSON.stringify(output)})`);
    }
    await context.close();
  }
  console.log(`100 fresh loads: ${hangs} hung, ${restarts} runtime restarts on the way`);
  assert.equal(hangs, 0, `${hangs} of 100 loads hung`);
});

test("Jupyter's habits: counters, stale outputs, Clear outputs, Tab indents, the shortcuts panel", async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const first = page.locator('#cell-1');
  const second = page.locator('#cell-2');
  await first.locator('.cm-editor').waitFor();
  await runCell(page, first);
  await runCell(page, second);
  assert.equal(await first.locator('.cell-counter').textContent(), '[1]');
  assert.equal(await second.locator('.cell-counter').textContent(), '[2]');
  // Cell 1 runs again: cell 2's output is older than the code above it.
  await runCell(page, first);
  assert.ok(await second.evaluate((el) => el.classList.contains('stale')));
  assert.ok(!(await first.evaluate((el) => el.classList.contains('stale'))));
  // Outputs are kept across a reload, marked as from the last visit.
  await page.reload();
  await first.locator('.cm-editor').waitFor();
  await page.waitForFunction((el) => el.textContent.trim() === 'True', await first.locator('.cell-output').elementHandle());
  assert.equal(await first.locator('.cell-status').textContent(), 'from your last visit');
  assert.equal(await first.locator('.cell-counter').textContent(), '[3]');
  // Editing marks the cell as edited, and its output as stale.
  await first.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nif True:\n');
  // Enter indents the block by four spaces; Shift+Tab dedents and Tab indents again.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('z = 1');
  const code = await first.locator('.cm-content').evaluate((el) => el.innerText);
  assert.match(code, /if True:\n {4}z = 1/, code);
  assert.ok(await first.evaluate((el) => el.classList.contains('edited') && el.classList.contains('stale')));
  // The shortcuts panel opens with ? outside an editor, and closes with Escape.
  await page.locator('h1').first().click();
  await page.keyboard.press('?');
  await page.getByTestId('shortcuts').waitFor();
  await page.screenshot({ path: join(SHOTS, 'notebook-controls.png') });
  await page.keyboard.press('Escape');
  assert.ok(await page.getByTestId('shortcuts').isHidden());
  await page.locator('[data-action=clear-outputs]').click();
  assert.equal(await first.locator('.cell-counter').textContent(), '[ ]');
  await page.waitForFunction((el) => el.textContent.trim() === '', await first.locator('.cell-output').elementHandle());
  // Syntax errors read as CPython's; input() says why it cannot work here.
  await setCode(page, first, 'print(1');
  assert.match(await runCell(page, first), /print\(1\n {9}\^\nSyntaxError: '\(' was never closed$/);
  await setCode(page, first, 'name = input()');
  assert.match(await runCell(page, first), /OSError: input\(\) reads from the keyboard/);
  // A loop past the old step budget runs to its end: interactive cells have no limit.
  await setCode(page, first, 'total = 0\nfor i in range(3_000_000):\n    total += i\ntotal');
  assert.equal(await runCell(page, first, 120_000), '4499998500000');
  assert.deepEqual(errors, []);
  await page.close();
});

test('completion offers names, attributes and keyword arguments from the live namespace', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const first = page.locator('#cell-1');
  await first.locator('.cm-editor').waitFor();
  await runCell(page, first);
  const second = page.locator('#cell-2');
  await second.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nx.t');
  const list = page.locator('.cm-tooltip-autocomplete');
  await list.waitFor();
  const options = await list.locator('li .cm-completionLabel').allTextContents();
  assert.ok(options.includes('to') && options.includes('tolist'), options.join(' '));
  await second.screenshot({ path: join(SHOTS, 'completion.png') });
  await page.keyboard.press('Escape');
  await setCode(page, second, 'def train(model, epochs=3):\n    pass\n');
  await runCell(page, second);
  await second.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('train(x, ep');
  await list.waitFor();
  assert.deepEqual(await list.locator('li .cm-completionLabel').allTextContents(), ['epochs=']);
  assert.match(await list.textContent(), /train\(model, epochs=…\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scratch cell added under a cell runs in the notebook, is kept, and Run all runs it in its place', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const first = page.locator('#cell-1');
  await first.locator('.cm-editor').waitFor();
  await first.locator('button[data-action=add-cell]').click();
  const scratch = page.locator('.cell.scratch');
  await scratch.locator('.cm-editor').waitFor();
  // It stands right under cell 1, and the keyboard is in it.
  assert.ok(await page.evaluate(() => document.querySelector('#cell-1').nextElementSibling.classList.contains('scratch')));
  await page.keyboard.insertText('print(x.sum())');
  await page.reload();
  await scratch.locator('.cm-editor').waitFor();
  assert.equal(await scratch.locator('.cm-content').textContent(), 'print(x.sum())');
  // Run all: cell 1, then the scratch cell under it (x exists by then), then the rest.
  await page.locator('[data-action=run-all]').click();
  await page.waitForFunction(() => Number(document.querySelector('#cell-4 .cell-output')?.dataset.runs ?? 0) > 0);
  assert.equal((await scratch.locator('.cell-output').textContent()).trim(), 'tensor(3.)');
  await scratch.locator('button[data-action=remove]').click();
  await page.reload();
  await first.locator('.cm-editor').waitFor();
  assert.equal(await page.locator('.cell.scratch').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('nothing is thrown away silently: Restore can be undone, Reset asks, the device panel checks its inputs', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const cell = page.locator('#cell-1');
  await cell.locator('.cm-editor').waitFor();
  await setCode(page, cell, 'print("mine")');
  assert.ok(await cell.evaluate((el) => el.classList.contains('edited')));
  await cell.locator('.cell-toolbar button[data-action=restore]').click();
  assert.ok(!(await cell.evaluate((el) => el.classList.contains('edited'))));
  await cell.locator('button[data-action=undo-restore]').click();
  assert.equal(await cell.locator('.cm-content').textContent(), 'print("mine")');

  await runCell(page, cell);
  await cell.locator('.cell-toolbar button[data-action=reset]').click();
  await cell.locator('button[data-action=confirm-reset]').waitFor();
  await cell.locator('button[data-action=cancel]').click();
  assert.equal((await cell.locator('.cell-help').textContent()).trim(), '');
  await cell.locator('.cell-toolbar button[data-action=reset]').click();
  await cell.locator('button[data-action=confirm-reset]').click();
  await page.waitForFunction((el) => el.textContent.includes('every variable is gone'), await cell.locator('.cell-output').elementHandle());

  await page.goto(`${BASE}/devices`);
  await page.getByTestId('devices').waitFor();
  await page.getByLabel('Number of GPUs').fill('9');
  await page.getByRole('button', { name: 'Apply and reset the session' }).click();
  await page.getByRole('status').filter({ hasText: 'from 0 to 8' }).waitFor();
  await page.getByLabel('Number of GPUs').fill('2');
  await page.getByLabel('CUDA_VISIBLE_DEVICES').fill('0,3');
  await page.getByRole('button', { name: 'Apply and reset the session' }).click();
  await page.getByRole('status').filter({ hasText: 'names GPU 3, but this machine has 2 GPUs' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('tolab:devices')), null, 'nothing was applied');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a phone sees a compact header, the lesson before the course list, and the emulated GPU named', async () => {
  const { page, errors } = await open('/lesson/what-to-returns', { viewport: { width: 390, height: 844 } });
  const cell = page.locator('#cell-1');
  await cell.locator('.cm-editor').waitFor();
  // The skip link is the keyboard's first stop.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  const badge = await backendBadge(page);
  assert.match(badge.text, /emulated on the CPU$/);
  assert.equal(await page.title(), 'What .to() returns · to(device) lab');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px too wide)`);
  const [lesson, course] = await page.evaluate(() => [
    document.querySelector('.lesson-main').getBoundingClientRect().top,
    document.querySelector('.course').getBoundingClientRect().top,
  ]);
  assert.ok(lesson < course, 'the lesson comes first');
  // The first cuda run says the GPU is emulated, and why cuda can be slower here.
  await setCode(page, cell, 'import torch\ntorch.ones(2, device="cuda").sum().item()');
  assert.equal(await runCell(page, cell), '2.0');
  assert.match(await cell.locator('.cell-help').textContent(), /a GPU emulated on the CPU/);
  await page.screenshot({ path: join(SHOTS, 'phone.png'), fullPage: false });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => localStorage.removeItem('tolab:theme'));
  await page.reload();
  await page.locator('#cell-1 .cm-editor').waitFor();
  await page.screenshot({ path: join(SHOTS, 'phone-light.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
