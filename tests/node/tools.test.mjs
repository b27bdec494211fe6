// The pull tools in the wasm Engine (pkg/node) against the native CLI: the shared call set
// (tests/fixtures/tool_calls.jsonl, also run by the wasmtime test) gives byte-identical JSON
// through `handleLine`, `callToolJson` and `callTool`; bad arguments throw typed errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const gg = require(path.join(root, 'pkg/node/groundgate.js'));
const cli = path.join(root, 'target/release/groundgate');

const indexes = ['rnd', 'constitution', 'lohelp', 'pyfaq']
  .map((n) => path.join(root, 'indexes', `${n}.ggi`))
  .filter((p) => existsSync(p));
indexes.push(path.join(root, 'tests/fixtures/v1/excerpts.ggi'));
const lines = readFileSync(path.join(root, 'tests/fixtures/tool_calls.jsonl'), 'utf8').trim().split('\n');

function engine() {
  const e = new gg.Engine();
  for (const p of indexes) {
    const bytes = readFileSync(p);
    e.addInstance(new gg.Index(bytes).info().name, bytes);
  }
  return e;
}

test('tool results are byte-identical natively and in wasm (handleLine, callToolJson, callTool)', () => {
  assert.ok(indexes.length === 5, 'needs the default indexes: run ./build.sh');
  const args = ['tool', '--jsonl'];
  for (const p of indexes) args.push('--index', p);
  const native = execFileSync(cli, args, { input: lines.join('\n') + '\n', maxBuffer: 1 << 30 })
    .toString().trim().split('\n');
  assert.equal(native.length, lines.length);
  const e = engine();
  let ok = 0;
  lines.forEach((line, i) => {
    assert.equal(e.handleLine(line), native[i], `line ${i}: ${line.slice(0, 120)}`);
    let req;
    try { req = JSON.parse(line); } catch { return; }
    if (typeof req !== 'object' || Array.isArray(req) || !req.tool || !req.arguments || Array.isArray(req.arguments)) return;
    const reply = JSON.parse(native[i]);
    if (reply.result !== undefined) {
      ok++;
      const text = e.callToolJson(req.tool, JSON.stringify(req.arguments));
      assert.equal(`{"id":${JSON.stringify(req.id)},"result":${text}}`, native[i]);
      assert.deepEqual(e.callTool(req.tool, req.arguments), reply.result);
    } else {
      assert.throws(() => e.callTool(req.tool, req.arguments),
        (err) => err.code === reply.error.code && err.message === reply.error.message);
    }
  });
  assert.ok(ok >= 70, `only ${ok} successful calls`);
});

test('typed methods, definitions and bad input', () => {
  const e = engine();
  const defs = gg.Engine.toolDefinitions();
  assert.deepEqual(defs.map((d) => d.name), ['search', 'grep', 'sources', 'read', 'links']);
  for (const d of defs) {
    assert.equal(d.inputSchema.type, 'object');
    assert.equal(d.outputSchema.type, 'object');
    assert.equal(d.annotations.readOnlyHint, true);
  }
  const s = e.searchTool({ query: '거주 이전의 자유', instance: 'excerpts', k: 1 });
  assert.equal(s.results[0].article, '제14조');
  const r = e.read({ instance: 'excerpts', source: 'constitution', article: 14 });
  assert.match(r.text, /거주·이전의 자유/);
  assert.ok(e.grep({ text: '행복을 추구할 권리' }).total >= 1);
  assert.ok(e.sources().sources.length > 10);
  assert.equal(e.links({ instance: 'excerpts', source: 'notice-2026-01' }).links.length, 1);
  const bad = (f) => assert.throws(f, (err) => err.code === 'invalid_argument');
  bad(() => e.searchTool({ query: 'x', k: 0 }));
  bad(() => e.searchTool({ query: 'x', k: 'many' }));
  bad(() => e.searchTool({ query: '가'.repeat(20001) }));
  bad(() => e.searchTool(5));
  bad(() => e.searchTool());
  bad(() => e.read({ instance: 'nope', source: 'x' }));
  bad(() => e.read({ instance: 'excerpts', source: 'constitution', page: 1000 }));
  bad(() => e.grep({ text: 'a'.repeat(501) }));
  bad(() => e.callTool('rm', {}));
  bad(() => e.callToolJson('search', '{"query":'));
  bad(() => e.callToolJson('sources', 5));
  // Absent or null arguments are {} on every face (docs/tools.md).
  const all = e.callToolJson('sources', '{}');
  for (const none of [null, undefined]) {
    assert.equal(e.callToolJson('sources', none), all);
    assert.equal(JSON.stringify(e.callTool('sources', none)), all);
  }
  assert.equal(e.callToolJson('sources'), all);
  assert.match(e.handleLine('{"id":1,"tool":"sources","arguments":{"instance":"nope"}}'), /^\{"id":1,"error":\{"code":"invalid_argument"/);
  assert.equal(e.handleLine(''), '');
});

test('NaN and Infinity in tool arguments are typed errors naming the field, not defaults', () => {
  const e = engine();
  const named = (key, value) => (err) => err.code === 'invalid_argument' && err.message.includes(`"${key}" is ${value}, not a finite number`);
  assert.throws(() => e.callTool('search', { query: '주권', k: NaN }), named('k', 'NaN'));
  assert.throws(() => e.searchTool({ query: '주권', k: Infinity }), named('k', 'Infinity'));
  assert.throws(() => e.read({ instance: 'excerpts', source: 'constitution', chunk: NaN }), named('chunk', 'NaN'));
  assert.throws(() => e.searchTool({ query: '주권', fuse_k: -Infinity }), named('fuse_k', '-Infinity'));
  assert.throws(() => gg.Engine.rrf({ lists: [['excerpts:0:0']], k: NaN }), named('k', 'NaN'));
  // A function or a symbol has no JSON either: named, not left out as if not given.
  const carried = (key, what) => (err) => err.code === 'invalid_argument' && err.message.includes(`"${key}" is a ${what}, which JSON cannot carry`);
  assert.throws(() => e.read({ source: 'constitution', article: () => 1 }), carried('article', 'function'));
  assert.throws(() => e.grep({ text: '주권', instance: Symbol('x') }), carried('instance', 'symbol'));
  assert.throws(() => e.searchTool({ query: '주권', fuse: [() => 1] }), carried('0', 'function'));
  assert.throws(() => e.searchTool({ query: '주권', extra() {} }), carried('extra', 'function'));
  assert.equal(e.searchTool({ query: '주권', k: 2 }).results.length, 2);
  // A lone surrogate in a string argument is U+FFFD, as in a plain string argument (engine.ask).
  assert.equal(e.searchTool({ query: '주권\ud800', k: 1 }).query, '주권\ufffd');
  assert.equal(e.searchTool({ query: new String('주권\ud83d\ude00\udc00'), k: 1 }).query, '주권\ud83d\ude00\ufffd');
  assert.equal(e.callToolJson('grep', { text: '\udc00주권' }), e.callToolJson('grep', '{"text":"\ufffd주권"}'));
  // … and in an object key: the unknown field is named as written, with U+FFFD, not as an escape.
  const unknown = (field) => (err) => err.code === 'invalid_argument' && err.message.includes(`unknown field \`${field}\``) && !err.message.includes('escape');
  assert.throws(() => e.searchTool({ query: '주권', ['k\ud800']: 1 }), unknown('k\ufffd'));
  assert.throws(() => e.ask('대한민국의 주권은?', { ['\udc00session']: 's' }), unknown('\ufffdsession'));
  assert.throws(() => e.searchTool({ query: '주권', ['\ud83d\ude00']: 1 }), unknown('\ud83d\ude00'));
  // Keys that would become one are refused as before; a cycle through such an object is refused
  // as a cycle (one copy per object), not after overflowing the stack.
  assert.throws(() => e.searchTool({ query: '주권', ['k\ud800']: 1, ['k\udc00']: 2 }), (err) => err.code === 'invalid_argument');
  const cyclic = { query: '주권', ['k\ud800']: 1 };
  cyclic.self = cyclic;
  assert.throws(() => e.searchTool(cyclic), (err) => err.code === 'invalid_argument' && !/call stack/.test(err.message));
});

test('JSON Lines as the native CLI reads them: askLine, toolLine, Index.searchLine, Engine.funnel', () => {
  const e = engine();
  const input = ['{"id":1,"query":"주권"}', '', '{"id":{"b":1,"a":2},"query":"대통령","k":1}', '{"id":1e400,"query":"x"}',
    '{"id":2,"query":"\\ud800"}', '[3]', 'not json', '{"id":3,"tool":"grep","arguments":{"text":"주권"}}', '{"id":4}'];
  const stdin = input.join('\n') + '\n';
  const native = (args) => execFileSync(cli, [...args, ...indexes.flatMap((p) => ['--index', p])], { input: stdin, encoding: 'utf8' });
  const js = (f) => input.map((l, i) => f(l, i + 1)).filter((o) => o !== '').map((o) => o + '\n').join('');
  const tool = { tool: 'search', arguments: { k: 2 } };
  assert.equal(js((l, n) => e.toolLine(l, n, tool)), native(['search', '--jsonl', '--k', '2']));
  const one = ['--index', indexes[1]];
  const index = new gg.Index(readFileSync(indexes[1]));
  assert.equal(js((l, n) => index.searchLine(l, n, 3)), execFileSync(cli, ['search', '--jsonl', '--k', '3', ...one], { input: stdin, encoding: 'utf8' }));
  const asks = ['{"id":1,"prompt":"대통령의 임기는 몇 년인가요?","session":"s"}', '{"id":2,"prompt":"대통령의 임기는 몇 년인가요?","session":"s"}',
    '{"id":3,"prompt":"x","session":7}', '{"id":4,"prompt":"대통령의 임기","rerank":{"weights":{"depth":2}}}', '{"id":5,"prompt":"x","rerank":[1]}',
    '{"id":1.5e3,"prompt":"대통령의 임기"}', '{"id":123456789012345678901234567890,"prompt":"x","session":7}'];
  const fresh = engine();
  fresh.setClock(0);
  const replies = asks.map((l, i) => fresh.askLine(l, i + 1, { format: 'detailed' }) + '\n').join('');
  const askNative = execFileSync(cli, ['ask', '--jsonl', '--now', '0', '--format', 'detailed', ...indexes.flatMap((p) => ['--index', p])], { input: asks.join('\n'), encoding: 'utf8' });
  assert.equal(replies, askNative);
  assert.match(replies, /"id":3,"error":\{"code":"invalid_argument","message":"invalid session: must be a string"\}/);
  // The id as the line writes it (a JSON tree would give 1500.0 and 1.2345678901234568e29).
  assert.match(replies, /\n\{"id":1\.5e3,"route":"push"/);
  assert.match(replies, /\n\{"id":123456789012345678901234567890,"error":/);
  // Never throws: what is not a line or a line number is an error line.
  for (const [line, n] of [[5, 1], ['{}', 0], ['{}', 1.5], [null, NaN]]) assert.match(e.askLine(line, n), /^\{"id":null,"error":\{"code":"invalid_argument"/);
  assert.match(e.toolLine('{"id":1}', 1, { tool: 'search', nope: 1 }), /invalid defaults: unknown field `nope`/);
  assert.match(e.toolLine('{"id":1}', 1, { tool: 'search', arguments: { k: NaN } }), /invalid defaults: \\"k\\" is NaN, not a finite number/);
  const funnel = gg.Engine.funnel(askNative + '{"id":6,"ro');
  assert.match(funnel, /^prompts +4\n/);
  assert.match(funnel, /\(3 lines skipped: error lines, prompts refused\)\n\(1 line not JSON skipped, the first at line 8/);
  assert.throws(() => gg.Engine.funnel(null), (err) => err.code === 'invalid_argument');
});
