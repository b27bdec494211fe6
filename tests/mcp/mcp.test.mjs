// `groundgate mcp` driven by the MCP SDK's own Client over stdio (no model): the five tools with
// their schemas (exactly `Engine.toolDefinitions()`: one home, the Rust module), every tool called,
// results that match their output schemas and the native CLI's bytes, bad arguments as `isError`
// results while the server keeps serving, a huge query, concurrent calls, the rules and REBEL prompts, the
// instructions, a corrupt index at start; then the MCP inspector's CLI as a smoke test.
// Needs ./build.sh (pkg/ and target/release/groundgate).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'pkg/bin/groundgate.js');
const cli = path.join(root, 'target/release/groundgate');
const fixture = path.join(root, 'tests/fixtures/v2/excerpts.ggi');
const INSPECTOR = '2.12.0';
const gg = createRequire(import.meta.url)(path.join(root, 'pkg/node/groundgate.js'));
let client;
let stderr = '';
let tmp;

async function connect(indexes) {
  const c = new Client({ name: 'groundgate-test', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...indexes.flatMap((i) => ['--index', i])],
    stderr: 'pipe',
  });
  transport.stderr.on('data', (d) => {
    stderr += d;
  });
  await c.connect(transport);
  return c;
}

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'groundgate-mcp-'));
  client = await connect([fixture]);
});

after(async () => {
  await client?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A tool's result text as the native CLI writes it (`groundgate tool --jsonl`'s `result`). */
function native(tool, args) {
  const r = spawnSync(cli, ['tool', '--index', fixture, '--jsonl'], { input: JSON.stringify({ id: 0, tool, arguments: args }) + '\n', encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const line = r.stdout.trim();
  const prefix = '{"id":0,"result":';
  assert.ok(line.startsWith(prefix), line);
  return line.slice(prefix.length, -1);
}

test('the server names itself, its instructions carry rules 3–4 (en, ko), logs go to stderr', () => {
  const info = client.getServerVersion();
  assert.equal(info.name, 'groundgate');
  assert.equal(info.version, JSON.parse(readFileSync(path.join(root, 'pkg/package.json'), 'utf8')).version);
  const text = client.getInstructions();
  for (const lang of ['en', 'ko']) {
    const rules = gg.Engine.rules(lang).split('\n');
    for (const n of [3, 4]) assert.ok(text.includes(rules.find((l) => l.startsWith(`${n}. `))), `${lang} rule ${n}`);
    assert.ok(!text.includes(rules.find((l) => l.startsWith('1. '))), `${lang} rule 1 is not an MCP rule`);
  }
  assert.match(text, /excerpts/);
  assert.match(stderr, /groundgate mcp: serving excerpts on stdio/);
});

test('lists the five tools exactly as Engine.toolDefinitions() defines them', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['search', 'grep', 'sources', 'read', 'links']);
  assert.deepEqual(tools, gg.Engine.toolDefinitions());
  for (const t of tools) {
    assert.ok(t.title && t.description, t.name);
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.equal(t.outputSchema.type, 'object', t.name);
    assert.equal(t.annotations.readOnlyHint, true, t.name);
    assert.equal(t.annotations.idempotentHint, true, t.name);
  }
});

test('calls every tool: structuredContent (checked against outputSchema by the client) = the text = the native CLI', async () => {
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r.content)}`);
    assert.equal(r.content[0].type, 'text');
    assert.deepEqual(r.structuredContent, JSON.parse(r.content[0].text));
    assert.equal(r.content[0].text, native(name, args), name);
    return r.structuredContent;
  };
  const found = await call('search', { query: '대한민국의 주권은 누구에게 있나요', k: 3 });
  assert.equal(found.results[0].article, '제1조');
  const grep = await call('grep', { text: '주권은 국민에게' });
  assert.ok(grep.matches.length >= 1 && grep.matches[0].text.includes('«'), JSON.stringify(grep));
  const { sources } = await call('sources', {});
  assert.ok(sources.some((s) => s.source === 'constitution'));
  const read = await call('read', { instance: 'excerpts', source: 'constitution', article: '제1조' });
  assert.match(read.text, /주권은 국민에게/);
  // Without an instance: the one loaded instance that holds the source.
  assert.deepEqual(await call('read', { source: 'constitution', article: '제1조' }), read);
  const withLinks = sources.find((s) => s.links > 0) ?? sources[0];
  const links = await call('links', { instance: 'excerpts', source: withLinks.source });
  assert.equal(links.source, withLinks.source);
});

test('bad arguments are isError results and the server keeps serving', async () => {
  const bad = [
    ['search', { query: '주권', k: 0 }],
    ['search', { query: '주권', kk: 3 }],
    ['search', { query: 42 }],
    ['search', {}],
    ['read', { instance: 'nope', source: 'constitution' }],
    ['read', { source: 'constitutio' }],
    ['read', { instance: 'excerpts', source: 'constitution', article: '제999조' }],
    ['grep', { text: '' }],
    ['frobnicate', {}],
  ];
  for (const [name, args] of bad) {
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
    assert.match(r.content[0].text, /^invalid_argument: /, r.content[0].text);
  }
  const ok = await client.callTool({ name: 'search', arguments: { query: '헌법 개정' } });
  assert.equal(ok.isError, undefined);
});

test('malformed JSON-RPC: Invalid params, a number JSON cannot hold named, lines not JSON-RPC named on stderr, and the server keeps serving', () => {
  // Raw lines, as a buggy client could write them (the SDK's Client never would).
  const lines = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"주권","k":1e400}}}',
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: null } },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: null } },
    'not json',
    '[1,2]',
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search', arguments: { query: '주권', k: 1 } } },
    { jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'rules', arguments: { lang: 5 } } },
    { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { cursor: 5 } },
    { jsonrpc: '2.0', id: 7, method: 'prompts/list', params: { cursor: [] } },
    { jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} },
    { jsonrpc: '2.0', id: 9, method: 'tools/call' },
    { jsonrpc: '1.0', id: 10, method: 'tools/list' },
    { jsonrpc: '2.0', id: 'p', method: 'tools/list', params: 5 },
    { id: 11, method: 5 },
    '{"jsonrpc":"2.0","id":12,"method":"tools/list","params":[]}   ',
    { jsonrpc: '1.0', method: 'tools/list' },
    { jsonrpc: '1.0', id: 13, result: {} },
    { jsonrpc: '2.0', id: 14, method: 'tools/list' },
    '\ufeff{"jsonrpc":"2.0","id":15,"method":"tools/list"}',
  ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
  const r = spawnSync(process.execPath, [bin, 'mcp', '--index', fixture], { input: lines.join('\n') + '\n', encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  const replies = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  const byId = (id) => replies.find((m) => m.id === id);
  assert.equal(byId(1).result.isError, true);
  assert.equal(byId(1).result.content[0].text, 'invalid_argument: invalid arguments: "k" is Infinity, not a finite number');
  // A malformed call: Invalid params in one line naming the field (the SDK's Server alone
  // answered with zod's whole report over several lines).
  for (const [id, field] of [[2, 'params.arguments'], [3, 'params.name'], [9, 'params']]) {
    assert.equal(byId(id).error.code, -32602, JSON.stringify(byId(id)));
    assert.match(byId(id).error.message, new RegExp(`^MCP error -32602: ${field.replace(/\./g, '\\.')}: `), byId(id).error.message);
    assert.ok(!byId(id).error.message.includes('\n'), byId(id).error.message);
  }
  assert.equal(replies.filter((m) => m.id === null || m.id === undefined).length, 0, 'no reply without an id');
  assert.equal(byId(4).result.structuredContent.results.length, 1);
  // Params the SDK's schema refuses, on the other methods too: Invalid params naming the field in
  // one line (they were an Internal error, -32603, with zod's whole report).
  for (const [id, field] of [[5, 'params.arguments.lang'], [6, 'params.cursor'], [7, 'params.cursor']]) {
    assert.equal(byId(id).error.code, -32602, JSON.stringify(byId(id)));
    assert.match(byId(id).error.message, new RegExp(`${field.replace(/\./g, '\\.')}: `), byId(id).error.message);
    assert.ok(!byId(id).error.message.includes('\n'), byId(id).error.message);
  }
  assert.ok(byId(8).result.tools.length > 3);
  // A request with a readable id that JSON-RPC 2.0 does not take: Invalid Request with that id
  // (the SDK alone only logged it, and the client waited); none for a reply or a line without id.
  for (const [id, why] of [[10, '"jsonrpc" must be "2.0"'], ['p', '"params" must be an object'], [11, '"jsonrpc" must be "2.0"'], [12, '"params" must be an object']]) {
    assert.deepEqual(byId(id), { jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: ${why}` } });
    assert.match(r.stderr, new RegExp(`groundgate mcp: request ${JSON.stringify(JSON.stringify(id)).slice(1, -1)} refused: `));
  }
  assert.equal(byId(13), undefined, 'a malformed reply gets no reply');
  assert.ok(byId(14).result.tools.length > 3, 'served after the refused lines, in order');
  assert.ok(byId(15).result.tools.length > 3, 'a line after a byte order mark is read');
  assert.equal(replies.length, 16, JSON.stringify(replies.map((m) => m.id)));
  assert.match(r.stderr, /groundgate mcp: a line that is not JSON: /);
  assert.match(r.stderr, /groundgate mcp: a JSON line that is not a JSON-RPC 2\.0 message\n/);
});

test('a huge query is refused clearly; one at the limit is served', async () => {
  const huge = await client.callTool({ name: 'search', arguments: { query: '헌법 '.repeat(50_000) } });
  assert.equal(huge.isError, true);
  assert.match(huge.content[0].text, /query/);
  const big = await client.callTool({ name: 'search', arguments: { query: '헌법 개정 '.repeat(3000).slice(0, 20_000) } });
  assert.equal(big.isError, undefined, JSON.stringify(big.content).slice(0, 300));
});

test('a request line over 8 MiB: refused with its id (read at either end), and the server keeps serving', () => {
  // The SDK's transport closes itself on a line over 10 MiB and answers nothing more; the server
  // reads at most 8 MiB of a line (its line end aside) and refuses a longer one by the id it finds
  // at the line's ends.
  const MAX = 8 * 1024 * 1024;
  const pad = 'x'.repeat(9 * 1024 * 1024);
  // A search request of exactly `size` bytes (its query padded; the tool refuses it as too long).
  const sized = (id, size) => {
    const bare = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search', arguments: { query: '' } } });
    return bare.replace('"query":""', `"query":"${'q'.repeat(size - bare.length)}"`);
  };
  const lines = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { method: 'tools/call', params: { name: 'search', arguments: { query: pad } }, jsonrpc: '2.0', id: 1 }, // the SDK's order
    { jsonrpc: '2.0', id: 'head', method: 'tools/call', params: { name: 'search', arguments: { query: pad } } },
    { jsonrpc: '2.0', method: 'tools/call', params: { name: 'search', arguments: { query: pad, id: 7 } } }, // no id of its own
    { jsonrpc: '2.0', id: 8, result: { content: pad } }, // a reply: none back
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: '주권', k: 1 } } },
  ].map((l) => JSON.stringify(l));
  lines.push(sized('exact', MAX) + '\r', sized('one more', MAX + 1));
  // The last lines: one without its end, answered; then one over the limit without its end.
  const input = lines.join('\n') + '\n' + '{"jsonrpc":"2.0","id":3,"method":"tools/list"' + pad;
  const lastWithoutEnd = '{"jsonrpc":"2.0","id":4,"method":"tools/list"}';
  for (const [text, ids] of [[input, [1, 'head', 'one more', 3]], [`${lines[0]}\n${lines[1]}\n${lastWithoutEnd}`, []]]) {
    const r = spawnSync(process.execPath, [bin, 'mcp', '--index', fixture], { input: text, encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 20 });
    assert.equal(r.status, 0, r.stderr);
    const replies = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const byId = (id) => replies.find((m) => m.id === id);
    for (const id of ids) {
      assert.equal(byId(id).error.code, -32600, JSON.stringify(byId(id)).slice(0, 300));
      assert.match(byId(id).error.message, /^Invalid Request: the request is \d+ bytes, over the 8388608 a line may take$/);
    }
    if (ids.length === 0) {
      assert.ok(byId(4).result.tools.length > 3, 'a last line without its newline is answered');
      continue;
    }
    assert.equal(byId('one more').error.message, `Invalid Request: the request is ${MAX + 1} bytes, over the 8388608 a line may take`);
    assert.equal(byId('exact').result.isError, true, 'a line of exactly 8 MiB (and CRLF) is read; the tool refuses its query');
    assert.equal(byId(2).result.structuredContent.results.length, 1, 'served after the long lines');
    assert.equal(replies.length, 7, JSON.stringify(replies.map((m) => m.id)));
    assert.equal(byId(7), undefined, 'an id inside the arguments is not the request\'s');
    assert.equal(byId(8), undefined, 'a reply gets no reply');
    assert.equal((r.stderr.match(/groundgate mcp: a line of \d+ bytes skipped \(over 8388608\); no id at either end to answer\n/g) || []).length, 2);
    assert.doesNotMatch(r.stderr, /ReadBuffer/);
  }
});

test('concurrent calls each get their own answer', async () => {
  const queries = ['주권', '헌법 개정', '대통령 임기', '기술료', 'Ctrl F', '감리원 교육', 'python design', '연구비 카드'];
  const sequential = [];
  for (const q of queries) sequential.push((await client.callTool({ name: 'search', arguments: { query: q, k: 2 } })).content[0].text);
  const parallel = await Promise.all([...queries, ...queries].map((q) => client.callTool({ name: 'search', arguments: { query: q, k: 2 } })));
  assert.deepEqual(parallel.map((r) => r.content[0].text), [...sequential, ...sequential]);
});

test('replies to many concurrent calls are written one at a time: no drain-listener warning on stderr', async () => {
  // Large replies fill the stdout pipe; each reply waiting for `drain` added a listener to stdout,
  // and past ten Node warned of a memory leak (MaxListenersExceededWarning) in the client's log.
  const before = stderr.length;
  const c = await connect(['constitution', 'pyfaq'].map((n) => path.join(root, `indexes/${n}.ggi`)));
  try {
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? { name: 'grep', arguments: { text: 'the', limit: 100 } }
        : { name: 'search', arguments: { query: ['대통령 임기', 'python list sort'][i % 4 ? 1 : 0], k: 50, detailed: true } });
    const replies = await Promise.all(calls.map((call) => c.callTool(call)));
    assert.ok(replies.every((r) => !r.isError && r.content[0].text.length > 1000));
  } finally {
    await c.close();
  }
  assert.doesNotMatch(stderr.slice(before), /MaxListenersExceededWarning|drain listeners/);
});

test('the delivery rules are a prompt, in Korean and English', async () => {
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['rules', 'rebel']);
  for (const lang of ['ko', 'en']) {
    const p = await client.getPrompt({ name: 'rules', arguments: { lang } });
    assert.equal(p.messages[0].content.text, gg.Engine.rules(lang));
  }
  await assert.rejects(client.getPrompt({ name: 'rules', arguments: { lang: 'fr' } }), /lang/);
});

test('the REBEL rerank prompt: built by the library over the search results, bad arguments refused', async () => {
  const { prompts } = await client.listPrompts();
  const rebel = prompts.find((p) => p.name === 'rebel');
  assert.deepEqual(rebel.arguments.map((a) => [a.name, a.required]), [['query', true], ['instance', false], ['k', false], ['lang', false]]);
  // The same text the wasm Engine builds for the same index and arguments.
  const engine = new gg.Engine();
  engine.addInstance('excerpts', readFileSync(fixture));
  for (const args of [{ query: '기술료 납부 기한' }, { query: '기술료 납부 기한', k: '3', lang: 'en', instance: 'excerpts' }]) {
    const got = await client.getPrompt({ name: 'rebel', arguments: args });
    assert.equal(got.messages.length, 1);
    assert.equal(got.messages[0].role, 'user');
    const want = engine.rebelPrompt({ ...args, ...(args.k ? { k: Number(args.k) } : {}) }).prompt;
    assert.equal(got.messages[0].content.text, want);
  }
  const three = (await client.getPrompt({ name: 'rebel', arguments: { query: '기술료 납부 기한', k: '3' } })).messages[0].content.text;
  assert.equal(three.match(/<doc id=/g).length, 3);
  assert.match(three, /<ranking>\n\[id\] relevance=R depth=S diversity=S clarity=S authority=S recency=S\n<\/ranking>/);
  // Bad arguments: the library's typed error as an MCP error; the server keeps serving.
  for (const [args, says] of [
    [{}, /query/],
    [{ query: '기술료', k: 'many' }, /invalid_argument.*k|invalid_argument.*arguments/],
    [{ query: '기술료', k: '0' }, /invalid_argument/],
    [{ query: '기술료', lang: 'fr' }, /fr/],
    [{ query: '기술료', instance: 'nope' }, /nope/],
    [{ query: 'zzzqqq' }, /nothing to rerank/],
    [{ query: '기술료', criteria_reply: 'x' }, /prompt "rebel" has no argument "criteria_reply"; its arguments are query, instance, k, lang/],
  ]) {
    await assert.rejects(client.getPrompt({ name: 'rebel', arguments: args }), says, JSON.stringify(args));
  }
  await assert.rejects(client.getPrompt({ name: 'rerank', arguments: {} }), /"rules", "rebel"/);
  const again = await client.getPrompt({ name: 'rebel', arguments: { query: '기술료 납부 기한', k: '3' } });
  assert.equal(again.messages[0].content.text, three);
});

test('a corrupt or missing index at start: non-zero exit, a message on stderr, nothing on stdout', () => {
  const bytes = readFileSync(fixture);
  const flipped = Buffer.from(bytes);
  flipped[flipped.length - 100] ^= 0xff;
  const cases = [
    ['flipped.ggi', flipped, /checksum/],
    ['truncated.ggi', bytes.subarray(0, bytes.length >> 1), /truncat|checksum|corrupt/],
    ['text.ggi', Buffer.from('not an index'), /not a groundgate index/],
  ];
  for (const [name, data, pattern] of cases) {
    const file = path.join(tmp, name);
    writeFileSync(file, data);
    const r = spawnSync(process.execPath, [bin, 'mcp', '--index', fixture, '--index', file], { input: '', encoding: 'utf8', timeout: 10_000 });
    assert.equal(r.status, 1, name);
    assert.equal(r.stdout, '', name);
    assert.match(r.stderr, new RegExp(`^groundgate: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `), name);
    assert.match(r.stderr, pattern, name);
  }
  const missing = spawnSync(process.execPath, [bin, 'mcp', '--index', path.join(tmp, 'missing.ggi')], { input: '', encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /missing\.ggi: no such file or directory/);
});

/**
 * The MCP inspector's CLI, installed once under target/ (not a root devDependency: its web client
 * pulls vite, whose optional dependency the registry lacks, which `npm ci` then refuses).
 */
function inspectorBin() {
  const dir = path.join(root, 'target/mcp-inspector');
  const bin = path.join(dir, 'node_modules/.bin/mcp-inspector');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"private":true}');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `@modelcontextprotocol/inspector@${INSPECTOR}`], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  return bin;
}

test('the MCP inspector CLI lists the tools and calls one (smoke)', () => {
  const inspector = inspectorBin();
  const server = [process.execPath, bin, 'mcp', '--index', fixture];
  const list = spawnSync(inspector, ['--cli', ...server, '--method', 'tools/list'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(list.status, 0, list.stderr);
  assert.deepEqual(JSON.parse(list.stdout).tools.map((t) => t.name), ['search', 'grep', 'sources', 'read', 'links']);
  const call = spawnSync(inspector, ['--cli', ...server, '--method', 'tools/call', '--tool-name', 'search', '--tool-arg', 'query=대한민국의 주권', 'k=1'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(call.status, 0, call.stderr);
  assert.equal(JSON.parse(call.stdout).structuredContent.results[0].article, '제1조');
});
