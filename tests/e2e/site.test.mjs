// End-to-end tests of the built site in headless Chromium with WebGPU on SwiftShader: the pages,
// the cells and the visuals. Every page is also checked for console errors. (The notebook's
// robustness and habits are in notebook.test.mjs.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, backendBadge, open, runCell, setCode, useBrowser } from './helpers.mjs';

useBrowser();

test('the home page lists the lessons and names the WebGPU adapter', async () => {
  const { page, errors } = await open('/');
  const cards = page.locator('[data-testid=lesson-list] li');
  await cards.first().waitFor();
  const titles = await cards.locator('.card-title').allTextContents();
  assert.equal(titles.length, 16);
  assert.deepEqual(titles.slice(0, 3), ['What .to() returns', 'The seven steps of a transfer', 'Devices: strings, torch.device and indices']);
  assert.match(await cards.nth(1).locator('.card-meta').textContent(), /^15 min · \d+ cells · 1 exercise$/);
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
  const probe = async () => !!(await navigator.gpu?.requestAdapter());
  const worker = page.workers()[0] ?? (await page.waitForEvent('worker'));
  const adapters = { page: await page.evaluate(probe), worker: await worker.evaluate(probe) };
  assert.deepEqual(adapters, { page: false, worker: false });
  const badge = await backendBadge(page);
  assert.equal(badge.state, 'cpu');
  assert.equal(badge.text, 'emulated on the CPU: this browser has no WebGPU');
  await page.locator('[data-testid=lesson-list] li').first().waitFor();
  await page.screenshot({ path: join(SHOTS, 'no-webgpu.png') });
  // Chromium itself warns that asking for an adapter found none: that is this browser's state.
  assert.deepEqual(errors.filter((e) => e !== 'console warning: No available adapters.'), []);
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
  assert.equal(await page.locator('.course li.current a').textContent(), 'What .to() returns');
  assert.equal(await page.getByTestId('lesson-meta').textContent(), 'About 10 minutes');
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
  await first.getByRole('button', { name: 'Run', exact: true }).click();
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
  // Shift+Enter moved the keyboard to the next cell.
  assert.equal(await page.evaluate(() => document.activeElement.closest('.cell')?.id), 'cell-2');

  // An error shows its traceback, styled as an error; Ctrl+Enter runs it and stays.
  await first.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('torch.ones(2).to("cuda:7")');
  await page.keyboard.press('Control+Enter');
  // The class can be set a frame before the traceback is drawn: wait for both.
  await page.waitForFunction((el) => el.classList.contains('error') && el.textContent.includes('Traceback'), await output.elementHandle(), { timeout: 60_000 });
  assert.match(await output.textContent(), /Traceback[\s\S]*Error/);
  assert.equal(await page.evaluate(() => document.activeElement.closest('.cell')?.id), 'cell-1');
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
  await cell().getByRole('button', { name: 'Run', exact: true }).click();
  const output = cell().locator('.cell-output');
  await page.waitForFunction((el) => el.classList.contains('running'), await output.elementHandle());
  await page.waitForTimeout(300);
  await cell().getByRole('button', { name: 'Stop' }).click();
  await page.waitForFunction((el) => el.classList.contains('error') && el.textContent.includes('KeyboardInterrupt'), await output.elementHandle(), { timeout: 30_000 });
  assert.match(await output.textContent(), /KeyboardInterrupt/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a deep link loads the lesson directly (client-side routing)', async () => {
  const { page, errors } = await open('/lesson/devices');
  const prose = page.getByTestId('lesson-prose');
  await prose.locator('h2', { hasText: 'The current device' }).waitFor();
  // Its prerequisite is a link to that lesson.
  await page.getByTestId('lesson-meta').getByRole('link', { name: 'What .to() returns' }).waitFor();
  assert.ok(await prose.locator('table').isVisible(), 'Markdown tables render');
  await backendBadge(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unknown lesson shows a friendly not-found page, with status 404', async () => {
  const { page, errors } = await open('/lesson/no-such-lesson');
  assert.equal((await page.reload()).status(), 404);
  const notice = page.getByTestId('not-found');
  await notice.waitFor();
  assert.match(await notice.textContent(), /No lesson here.*\/lesson\/no-such-lesson/s);
  await notice.getByRole('link', { name: 'See all lessons' }).click();
  await page.locator('[data-testid=lesson-list] li').first().waitFor();
  await backendBadge(page);
  await page.screenshot({ path: join(SHOTS, 'not-found.png'), fullPage: true });
  // Chromium logs the page's own 404 status, once per load.
  assert.deepEqual(errors, Array(2).fill('console error: Failed to load resource: the server responded with a status of 404 (Not Found)'));
  await page.close();
});

test("the server sends wasm as application/wasm, content-named files with a year's cache, pages checked again, all under the policy", async () => {
  const page = await fetch(`${BASE}/lesson/what-to-returns`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  const policy = page.headers.get('content-security-policy');
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval';/);
  const html = await page.text();
  // The policy is in the page as well, for hosts that send no headers, and there is no inline script.
  assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${policy}" />`));
  assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/);
  const wasm = html.match(/[\w-]+_bg\.wasm/)[0];
  const worker = html.match(/<meta name="tolab-worker" content="([^"]+)"/)[1];
  for (const file of [wasm, worker]) {
    const response = await fetch(`${BASE}/${file}`);
    assert.equal(response.status, 200, file);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable', file);
    assert.equal(response.headers.get('content-security-policy'), policy, file);
  }
  assert.equal((await fetch(`${BASE}/${wasm}`)).headers.get('content-type'), 'application/wasm');
  assert.equal((await fetch(`${BASE}/missing-asset.js`)).status, 404);
});

test('the visuals show a .to("cuda") as seven steps, a ToCopyBackward0 node, memory and a timeline', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const cell = page.locator('.cell').first();
  await cell.locator('.cm-editor').waitFor();
  await setCode(page, cell, [
    'import torch',
    'w = torch.randn(256, requires_grad=True)',
    'x = w.to("cuda")',
    'loss = (x * 2).sum()',
    'print(loss.item() != 0)',
    'd = x.detach()',
    'loss.backward()',
    'print(w.grad.device)',
  ].join('\n'));
  assert.equal(await runCell(page, cell), 'True\ncpu');

  // The transfer pipeline: line 3's transfer, its seven steps with what each decided.
  const viz = cell.locator('.viz');
  await viz.locator('[data-tab=transfers][aria-selected=true]').waitFor();
  await viz.locator('.transfer-choice', { hasText: "line 3: 'cuda' → cuda:0" }).click();
  const steps = viz.locator('.pipeline-step');
  assert.equal(await steps.count(), 7);
  await viz.getByRole('button', { name: 'Show all' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.cell .pipeline-step.lit.ok').length === 7);
  const verdicts = await steps.locator('.step-verdict').allTextContents();
  assert.match(verdicts[0], /'cuda' → cuda:0/);
  assert.match(verdicts[2], /1\.00 KiB|1024 bytes on cuda:0/);
  assert.match(verdicts[3], /ToCopyBackward0/);
  assert.match(verdicts[5], /stays on cpu, unchanged/);
  // Replay lights the steps again from the first, in order.
  await viz.getByRole('button', { name: 'Replay' }).click();
  assert.ok((await viz.locator('.pipeline-step.lit').count()) < 7, 'replay starts over');
  await page.waitForFunction(() => document.querySelectorAll('.cell .pipeline-step.lit').length === 7, null, { timeout: 15_000 });
  await cell.screenshot({ path: join(SHOTS, 'viz-transfer.png') });

  // The autograd graph: the copy's node, the leaf that received its gradient, the cuts.
  await viz.locator('[data-tab=graph]').click();
  await viz.locator('.graph-node[data-name=ToCopyBackward0]').waitFor();
  assert.equal(await viz.locator('.graph-node.leaf.received').count(), 1);
  assert.deepEqual(await viz.locator('.graph-cut').evaluateAll((cuts) => cuts.map((c) => c.dataset.cause)), ['item', 'detach']);
  assert.match(await viz.locator('.graph-cut[data-cause=detach] title').textContent(), /no grad_fn/);
  // Clicking a node shows its line in the editor.
  await viz.locator('.graph-node[data-name=ToCopyBackward0]').click();
  await cell.locator('.cm-picked-line', { hasText: 'w.to("cuda")' }).waitFor();
  await cell.screenshot({ path: join(SHOTS, 'viz-graph.png') });

  // Device memory: cuda:0's allocated bytes rise by the 1 KiB the transfer allocated.
  await viz.locator('[data-tab=memory]').click();
  const cuda = viz.locator('.memory-device[data-device="cuda:0"]');
  await cuda.waitFor();
  const allocated = await cuda.locator('.memory-step').evaluateAll((steps) => steps.map((s) => Number(s.dataset.allocated)));
  assert.equal(allocated[0], 1024);
  assert.ok(await cuda.locator('.memory-peak').isVisible());
  // Hovering a line in the editor lights the marks it caused.
  const line3 = cell.locator('.cm-line').nth(2);
  await line3.hover();
  await page.waitForFunction(() => document.querySelectorAll('.cell .memory-step.linked').length > 0);
  await cell.screenshot({ path: join(SHOTS, 'viz-memory.png') });

  // The device timeline: launches on the host, kernels and copies on cuda:0, the host waiting at .item().
  await viz.locator('[data-tab=timeline]').click();
  await viz.locator('.timeline-canvas').waitFor();
  const lanes = await viz.locator('.lane text').allTextContents();
  assert.deepEqual(lanes, ['host thread', 'cuda:0 copies', 'cuda:0 kernels']);
  assert.ok((await viz.locator('.block.kernel').count()) >= 2);
  assert.match(await viz.locator('.block.wait title').allTextContents().then((t) => t.join('\n')), /sync: .*waited \d+ µs/);
  await cell.screenshot({ path: join(SHOTS, 'viz-timeline.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a transfer that fails turns its step red and never reaches the rest', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const cell = page.locator('.cell').first();
  await cell.locator('.cm-editor').waitFor();
  await setCode(page, cell, 'import torch\ntorch.ones(2, dtype=torch.float64).to("mps")');
  assert.match(await runCell(page, cell), /TypeError: Cannot convert a MPS Tensor to float64 dtype/);
  const viz = cell.locator('.viz');
  await viz.getByRole('button', { name: 'Show all' }).click();
  const states = await viz.locator('.pipeline-step').evaluateAll((steps) => steps.map((s) => s.classList.contains('failed') ? 'failed' : s.classList.contains('unreached') ? 'unreached' : 'ok'));
  assert.deepEqual(states, ['ok', 'failed', 'unreached', 'unreached', 'unreached', 'unreached', 'unreached']);
  assert.match(await viz.locator('.pipeline-step.failed .step-verdict').textContent(), /MPS framework doesn't support float64/);
  await cell.screenshot({ path: join(SHOTS, 'viz-transfer-failed.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Step runs one statement at a time with the visuals following, and Run all above runs the cells before', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const cell = page.locator('.cell').nth(1);
  await cell.locator('.cm-editor').waitFor();
  await setCode(page, cell, 'import torch\na = torch.ones(2)\nb = a.to("cuda")\nprint(b.device)');
  const step = cell.locator('button[data-action=step]');
  const marked = () => cell.locator('.cm-step-line').textContent();
  await step.click();
  await cell.locator('.cm-step-line', { hasText: 'a = torch.ones(2)' }).waitFor();
  await step.click();
  await cell.locator('.cm-step-line', { hasText: 'b = a.to("cuda")' }).waitFor();
  assert.equal(await cell.locator('.transfer-choice').count(), 0, 'no transfer before its line runs');
  await step.click();
  await cell.locator('.cm-step-line', { hasText: 'print(b.device)' }).waitFor();
  await cell.locator('.transfer-choice', { hasText: 'line 3' }).waitFor();
  assert.equal(await marked(), 'print(b.device)');
  await step.click();
  await page.waitForFunction((el) => el.textContent.includes('cuda:0'), await cell.locator('.cell-output').elementHandle());
  assert.equal(await cell.locator('.cm-step-line').count(), 0, 'the mark goes when the cell ends');
  assert.equal((await cell.locator('.cell-output').textContent()).trim(), 'cuda:0');

  // Run all above, from the third cell: the first two run, in order.
  await page.reload();
  const third = page.locator('.cell').nth(2);
  await third.locator('.cm-editor').waitFor();
  await third.locator('button[data-action=run-above]').click();
  const outputs = page.locator('.cell-output');
  await page.waitForFunction(() => [...document.querySelectorAll('.cell-output')].slice(0, 2).every((o) => o.textContent.trim() !== '' && !o.classList.contains('running')), null, { timeout: 60_000 });
  assert.equal(await outputs.nth(2).textContent(), '', 'the cell itself does not run');
  assert.ok(!(await outputs.nth(0).getAttribute('class')).includes('error'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the device panel lists the devices and sets the GPU count and CUDA_VISIBLE_DEVICES', async () => {
  const { page, errors } = await open('/devices');
  const rows = page.locator('[data-testid=devices] tbody tr');
  await rows.first().waitFor();
  assert.deepEqual(await rows.locator('td:first-child').allTextContents(), ['cpu', 'cuda:0', 'cuda:1', 'mps']);
  assert.match(await rows.nth(1).textContent(), /swiftshader/i);
  await page.getByLabel('Number of GPUs').fill('4');
  await page.getByLabel('CUDA_VISIBLE_DEVICES').fill('3,1');
  await page.getByRole('button', { name: 'Apply and reset the session' }).click();
  await page.getByRole('status').filter({ hasText: 'Applied' }).waitFor();
  assert.deepEqual(await rows.locator('td:nth-child(4)').allTextContents(), ['–', '3', '1', '–']);
  await page.screenshot({ path: join(SHOTS, 'devices.png'), fullPage: true });

  // The setting is kept: a lesson opened later runs on that machine.
  await page.goto(`${BASE}/lesson/what-to-returns`);
  const cell = page.locator('.cell').first();
  await cell.locator('.cm-editor').waitFor();
  await setCode(page, cell, 'import torch, os\nprint(torch.cuda.device_count(), os.environ["CUDA_VISIBLE_DEVICES"])');
  assert.equal(await runCell(page, cell), '2 3,1');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the light theme and a narrow laptop screen keep the lesson readable', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  await page.locator('.cell .cm-editor').first().waitFor();
  // The first visit follows the system's choice.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await page.locator('.cell .cm-editor').first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.getByRole('button', { name: 'Switch to the light theme' }).click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  const colours = await page.evaluate(() => {
    const style = getComputedStyle(document.body);
    return [style.backgroundColor, style.color];
  });
  assert.deepEqual(colours, ['rgb(246, 247, 251)', 'rgb(20, 26, 38)']);
  const cell = page.locator('.cell').first();
  await setCode(page, cell, 'import torch\nx = torch.ones(3, requires_grad=True).to("cuda")\nx.sum()');
  await runCell(page, cell);
  await page.screenshot({ path: join(SHOTS, 'light.png') });
  // Keyboard: the tabs of the visuals move with the arrow keys.
  await cell.locator('[data-tab=transfers]').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.tab), 'graph');
  assert.equal(await cell.locator('[data-tab=graph]').getAttribute('aria-selected'), 'true');
  await page.reload();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light', 'the choice is kept');

  await page.setViewportSize({ width: 900, height: 700 });
  await page.locator('.cell .cm-editor').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px too wide)`);
  await page.screenshot({ path: join(SHOTS, 'narrow.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the course list shows the cells run per lesson, and a cell has its own address', async () => {
  const { page, errors } = await open('/lesson/what-to-returns');
  const progress = page.locator('.course li.current .lesson-progress');
  await progress.waitFor();
  const total = parseInt((await progress.textContent()).split('/')[1], 10);
  assert.equal(await progress.textContent(), `0/${total} cells`);
  assert.ok(total >= 3);
  const cell = page.locator('.cell').first();
  await cell.locator('.cm-editor').waitFor();
  await runCell(page, cell);
  await page.waitForFunction((el) => el.textContent.startsWith('1/'), await progress.elementHandle());
  await page.reload();
  await page.waitForFunction(() => document.querySelector('.course li.current .lesson-progress')?.textContent.startsWith('1/'));

  // `#cell-3` leads to the third cell once the cells exist.
  assert.equal(await page.locator('.cell').nth(2).locator('.cell-anchor').getAttribute('href'), '#cell-3');
  await page.goto(`${BASE}/lesson/what-to-returns#cell-3`);
  await page.locator('#cell-3 .cm-editor').waitFor();
  await page.waitForFunction(() => {
    const top = document.getElementById('cell-3').getBoundingClientRect().top;
    return top >= 0 && top < window.innerHeight / 2;
  });
  assert.deepEqual(errors, []);
  await page.close();
});
