// docs/deploy/nginx.conf as an instructor copies it: nginx (Debian's, `cargo xtask setup` installs
// it) serves the site built with `--base /courses/ml/` (HOSTED_SITE) with the snippet as it is but
// for its `root`, and the lab loads, reloads and runs under its headers.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { open, runCell, useBrowser } from './helpers.mjs';

const NGINX = '/usr/sbin/nginx';
const SITE = process.env.HOSTED_SITE;
const skip = !SITE ? 'HOSTED_SITE is not set (cargo xtask test sets it)' : !existsSync(NGINX) ? `${NGINX} is missing (cargo xtask setup installs it)` : false;

useBrowser();

let nginx;
let url;
let dir;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'tolab-nginx-'));
  mkdirSync(join(dir, 'www/courses'), { recursive: true });
  symlinkSync(resolve(SITE), join(dir, 'www/courses/ml'));
  const snippet = readFileSync(new URL('../../docs/deploy/nginx.conf', import.meta.url), 'utf8');
  assert.match(snippet, /root \/srv\/www;/);
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join(' ');
  writeFileSync(join(dir, 'nginx.conf'), `daemon off; master_process off; pid ${dir}/nginx.pid; error_log stderr;
events {}
http {
  include /etc/nginx/mime.types; access_log off; ${temp}
  server {
    listen 127.0.0.1:${port};
    ${snippet.replace('root /srv/www;', `root ${dir}/www;`)}
  }
}
`);
  nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  url = `http://127.0.0.1:${port}/courses/ml/`;
  for (let i = 0; ; i++) {
    if (await fetch(url).then(() => true, () => false)) break;
    if (i > 100 || nginx.exitCode !== null) throw new Error(`nginx did not start (exit ${nginx.exitCode})`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

after(() => {
  nginx?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

test('the nginx snippet serves routes, the 404 page and the lab\'s headers', { skip }, async () => {
  const page = await fetch(`${url}lesson/what-to-returns`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  assert.match(page.headers.get('content-security-policy'), /script-src 'self' 'wasm-unsafe-eval'/);
  const html = await page.text();
  const wasm = html.match(/data-wasm="\/courses\/ml\/([^"]+)"/)[1];
  const asset = await fetch(url + wasm);
  assert.equal(asset.status, 200);
  assert.equal(asset.headers.get('content-type'), 'application/wasm');
  assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(asset.headers.get('content-security-policy'), /default-src 'self'/);
  const bare = await fetch(url.replace(/\/$/, ''), { redirect: 'manual' });
  assert.equal(bare.status, 301);
  assert.equal(new URL(bare.headers.get('location'), url).pathname, '/courses/ml/');
  const missing = await fetch(`${url}lesson/no-such-lesson`);
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /<meta name="tolab-app"/);
});

test('a deep link served by nginx loads, reloads and runs a cell under its policy', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open(`${url}lesson/what-to-returns`);
  const cell = page.locator('.cell').first();
  await cell.locator('.cm-editor').waitFor();
  await page.reload();
  await cell.locator('.cm-editor').waitFor();
  assert.equal(page.url(), `${url}lesson/what-to-returns`);
  assert.notEqual((await runCell(page, cell)).length, 0);
  assert.deepEqual(errors, []);
  await page.close();
});
