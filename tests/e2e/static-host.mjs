// A plain static host, as GitHub Pages, S3 or `python3 -m http.server` with an error page are: files
// as they are, a folder's index.html after a redirect that adds the slash, and 404.html (status
// 404) for anything else. No rewrite rule and none of the lab's headers: what the built site must
// work on by itself (docs/HOSTING.md).

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

/**
 * Serves `dir` under the URL path `mount` (`/courses/ml/`) on `host`, or a page given as text at
 * `/` when `dir` is `{ page }`. Resolves to `{ origin, url, requests, close }`; `requests` lists
 * every path asked for.
 */
export async function serveStatic(dir, { mount = '/', host = '127.0.0.1' } = {}) {
  const requests = [];
  const server = createServer(async (req, res) => {
    const { pathname, search } = new URL(req.url, 'http://x');
    let path;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      res.writeHead(400);
      return res.end('bad request');
    }
    requests.push(path);
    if (typeof dir === 'object') {
      // The page, and an empty favicon (the browser asks for one).
      res.writeHead(path === '/' ? 200 : 204, { 'Content-Type': TYPES['.html'] });
      res.end(path === '/' ? dir.page : '');
      return;
    }
    const send = async (file, status = 200) => {
      const body = await readFile(file);
      res.writeHead(status, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    };
    const notFound = () => send(join(dir, '404.html'), 404).catch(() => {
      res.writeHead(404);
      res.end('not found');
    });
    if (!path.startsWith(mount)) return notFound();
    const file = normalize(join(dir, path.slice(mount.length)));
    if (!(file + sep).startsWith(dir + sep) && file !== dir) return notFound();
    const found = await stat(file).catch(() => null);
    if (found?.isDirectory()) {
      if (!path.endsWith('/')) {
        res.writeHead(301, { Location: `${pathname}/${search}` });
        return res.end();
      }
      return send(join(file, 'index.html')).catch(notFound);
    }
    if (found?.isFile()) return send(file);
    return notFound();
  });
  await new Promise((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${server.address().port}`;
  return {
    origin,
    url: origin + mount,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
