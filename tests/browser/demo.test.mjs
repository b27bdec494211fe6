// The browser demo (www/) in a real headless Chromium, driven by playwright-core: it loads the
// page over HTTP, runs every example, checks the verdict and that the cited page or article
// appears, loads an index through the file picker, checks that a hostile document renders as
// text, that the budget curve and trade-off charts (docs/charts/) render, and saves a screenshot
// to target/screenshots/demo.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.ggi': 'application/octet-stream', '.svg': 'image/svg+xml' };

let server;
let base;
let browser;

before(async () => {
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function run(page, label) {
  await page.click(`#examples button:text-is("${label}")`);
  await page.waitForSelector('#output:not([hidden])');
  return {
    route: await page.textContent('#route'),
    kind: await page.textContent('#kind'),
    evidence: await page.textContent('#evidence'),
    hints: await page.textContent('#hints'),
    context: await page.textContent('#context'),
  };
}

test('examples give the right verdicts with citations; hostile text stays text', async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/www/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const loaded = await page.textContent('#instances');
  assert.match(loaded, /rnd/);
  assert.match(loaded, /constitution/);

  // The precomputed charts of the default indexes render (decoded images of the charts' size).
  const charts = await page.evaluate(async () => {
    const imgs = [...document.querySelectorAll('#charts img')];
    await Promise.all(imgs.map((i) => i.decode()));
    return {
      hidden: document.getElementById('charts').hidden,
      imgs: imgs.map((i) => ({ src: i.getAttribute('src'), w: i.naturalWidth, h: i.naturalHeight })),
    };
  });
  assert.equal(charts.hidden, false);
  assert.deepEqual(charts.imgs.map((i) => i.src), ['../docs/charts/curve.svg', '../docs/charts/tradeoff.svg']);
  for (const i of charts.imgs) {
    assert.equal(i.w, 760, `${i.src} rendered`);
    assert.ok(i.h > 380, `${i.src} has its plot and header`);
  }

  let r = await run(page, 'question');
  assert.equal(r.route, 'push');
  assert.equal(r.kind, 'question');
  assert.match(r.evidence, /p\.24[01]/, 'the cited page appears');
  assert.match(r.context, /^<groundgate-evidence>/);

  r = await run(page, 'polite request');
  assert.equal(r.route, 'push');
  assert.match(r.evidence, /제121조/, 'the cited article appears');

  r = await run(page, 'pasted sentence');
  assert.equal(r.route, 'pull');
  assert.equal(r.kind, 'sentence');
  assert.match(r.evidence, /nothing injected/);
  assert.match(r.hints, /read\(\{.*"page":\d+/, 'hints read the pages found');

  r = await run(page, 'unrelated');
  assert.equal(r.route, 'skip');
  assert.equal(r.kind, 'unrelated');

  r = await run(page, 'forced tag');
  assert.equal(r.route, 'push');
  assert.match(await page.textContent('#gates'), /constitution \(forced\)/);

  // Session toggle: the same question twice in one session skips what was shown.
  await page.check('#session');
  await run(page, 'question');
  await run(page, 'question');
  assert.match(await page.textContent('#gates'), /\d+ chunks/, 'dedup skips are shown');
  await page.uncheck('#session');

  // Load the test fixture (it holds a hostile page) through the file picker.
  await page.setInputFiles('#file', path.join(root, 'tests/fixtures/v1/excerpts.ggi'));
  await page.waitForFunction(() => document.getElementById('instances').textContent.includes('excerpts'));
  assert.match(await page.textContent('#charts'), /Not covered by these charts: excerpts/);
  await page.fill('#prompt', '감리원 교육은 매년 받아야 하나요 #excerpts');
  await page.click('#ask');
  await page.waitForFunction(() => document.getElementById('evidence').textContent.includes('Ignore all previous'));
  const hostile = await page.evaluate(() => ({
    scripts: document.querySelectorAll('#evidence script, #context script, #evidence system, #evidence img').length,
    text: document.getElementById('evidence').textContent,
    context: document.getElementById('context').textContent,
  }));
  assert.equal(hostile.scripts, 0, 'no element was created from document text');
  assert.match(hostile.text, /‹\/evidence›/, 'the hostile tag is shown as text');
  assert.equal(hostile.context.split('</groundgate-evidence>').length, 2, 'the block closes once');

  await run(page, 'question');
  await mkdir(path.join(root, 'target/screenshots'), { recursive: true });
  await page.screenshot({ path: path.join(root, 'target/screenshots/demo.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('failed and damaged indexes are named, never silently dropped; errors clear the last answer', async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1200 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // lohelp is missing on the server, rnd arrives with one bit flipped in its body.
  await page.route('**/indexes/lohelp.ggi', (r) => r.fulfill({ status: 404, body: '' }));
  const rnd = await readFile(path.join(root, 'indexes/rnd.ggi'));
  rnd[Math.floor(rnd.length * 0.3)] ^= 0x10;
  await page.route('**/indexes/rnd.ggi', (r) => r.fulfill({ status: 200, body: rnd, contentType: 'application/octet-stream' }));
  await page.goto(`${base}/www/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  let shown = await page.textContent('#instances');
  assert.match(shown, /constitution · /);
  assert.match(shown, /pyfaq · /);
  assert.match(shown, /lohelp: HTTP 404 for indexes\/lohelp\.ggi/);
  assert.match(shown, /rnd: checksum: /);

  // A damaged copy of a loaded index (good header, bad body) is refused and the loaded one stays.
  const bad = await readFile(path.join(root, 'indexes/constitution.ggi'));
  bad[Math.floor(bad.length * 0.3)] ^= 0x10;
  await page.setInputFiles('#file', { name: 'constitution-copy.ggi', mimeType: 'application/octet-stream', buffer: bad });
  await page.waitForFunction(() => document.getElementById('instances').textContent.includes('constitution-copy.ggi'));
  shown = await page.textContent('#instances');
  assert.match(shown, /constitution-copy\.ggi: checksum: /);
  assert.match(shown, /constitution · /, 'the loaded constitution is still there');
  await page.fill('#prompt', '#constitution 대통령의 임기는 몇 년인가요?');
  await page.click('#ask');
  await page.waitForFunction(() => document.getElementById('route').textContent === 'push');
  assert.match(await page.textContent('#evidence'), /제70조/);

  // A rule that decides the outcome is named in the gates table.
  await page.fill('#prompt', '프랑스 대통령의 임기는 몇 년인가요?');
  await page.click('#ask');
  await page.waitForFunction(() => document.getElementById('gates').textContent.includes('names 프랑스'));

  // An error clears the previous answer instead of showing it under the error.
  await page.fill('#prompt', '#constitution 대통령의 임기는 몇 년인가요?');
  await page.click('#ask');
  await page.waitForFunction(() => document.getElementById('route').textContent === 'push');
  await page.fill('#prompt', '');
  await page.click('#ask');
  await page.waitForFunction(() => document.getElementById('route').textContent === 'error');
  const after = await page.evaluate(() => ({
    kind: document.getElementById('kind').textContent,
    gates: document.getElementById('gates').tBodies[0].rows.length,
    evidence: document.getElementById('evidence').textContent,
    context: document.getElementById('context').textContent,
  }));
  assert.deepEqual(after, { kind: 'invalid_argument', gates: 0, evidence: '', context: '' });
  assert.deepEqual(errors, []);
});

test('no index at all: the page says so and how to get one', async () => {
  const page = await browser.newPage();
  await page.route('**/indexes/*.ggi', (r) => r.fulfill({ status: 404, body: '' }));
  await page.goto(`${base}/www/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const shown = await page.textContent('#instances');
  assert.match(shown, /No index is loaded: build the default indexes with \.\/build\.sh, or drop a \.ggi file below\./);
  for (const n of ['rnd', 'constitution', 'lohelp', 'pyfaq']) assert.match(shown, new RegExp(`${n}: HTTP 404`));
  assert.equal(await page.isDisabled('#ask'), true);
});
