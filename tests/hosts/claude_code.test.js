'use strict';
// End to end in the real Claude Code (`@anthropic-ai/claude-code` from npm, installed by build.sh
// under .cache/hosts/claude): `claude -p` in a project set up by `groundgate init claude-code`,
// talking to a local fake Messages API that records every request body. What the recorded request
// holds is what the model would have seen. Only the model is fake.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const api = require('./fake_messages_api');
const { BIN, INDEXES, CLAUDE, need, tmpdir, run } = require('./util');

const DOMAIN = '연구수당은 얼마까지 계상할 수 있나요?';
const PASTED = '연구개발기관은 연구수당을 인건비의 20% 범위에서 계상할 수 있다.';
const UNRELATED = 'How do I bake sourdough bread?';

let server;
let home;
let project;
let state;
let log;

test.before(async () => {
  need(CLAUDE, 'run ./build.sh test (it installs @anthropic-ai/claude-code under .cache/hosts/claude)');
  need(BIN, 'run ./build.sh (it assembles the npm package in pkg/)');
  server = await api.start();
  home = tmpdir('claude-home');
  project = tmpdir('claude-project');
  state = path.join(project, 'state');
  log = path.join(project, 'decisions.jsonl');
  const init = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', ...INDEXES, '--project', project, '--state', state, '--log', log]);
  assert.equal(init.code, 0, init.stderr);
});

test.after(async () => {
  if (server) await server.close();
  for (const d of [home, project]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

/** Run `claude -p` in the project; resolves {result, body}: its JSON output and the last request. */
async function claude(prompt, extra = [], extraEnv = {}) {
  const before = server.messages().length;
  const r = await run(CLAUDE, ['-p', prompt, '--output-format', 'json', ...extra], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      ...extraEnv,
    },
    timeout: 90000,
  });
  assert.equal(r.code, 0, `claude -p failed: ${r.stderr}\n${r.stdout}`);
  const result = JSON.parse(r.stdout);
  const bodies = server.messages().slice(before);
  assert.ok(bodies.length > 0, 'claude sent no request to the fake API');
  // The request that carried the prompt (later ones, if any, are the same conversation).
  const body = bodies.find((b) => JSON.stringify(b.messages).includes(JSON.stringify(prompt).slice(1, -1)));
  assert.ok(body, 'no recorded request holds the prompt');
  return { result, body, ms: r.ms };
}

const MARKER = 'UserPromptSubmit hook additional context: ';

/** Every text block of a request's messages, in order (Claude Code 2.1 puts hook context in a
 * `system`-role message after the user's). */
function texts(body) {
  const out = [];
  for (const m of body.messages) {
    if (typeof m.content === 'string') out.push(m.content);
    else for (const c of m.content) if (c.type === 'text') out.push(c.text);
  }
  return out;
}

/** What `ask` gives for a prompt, straight from the library (no session). */
function ask(prompt) {
  const gg = require(path.join(path.dirname(BIN), '..', 'node', 'groundgate.js'));
  const engine = new gg.Engine();
  for (const f of INDEXES) {
    const bytes = fs.readFileSync(f);
    const idx = new gg.Index(bytes);
    engine.addInstance(idx.info().name, bytes);
    idx.free();
  }
  try {
    return engine.ask(prompt);
  } finally {
    engine.free();
  }
}

/** The hook contexts a request carries, oldest first. */
function hookContexts(body) {
  return texts(body)
    .filter((t) => t.includes(MARKER))
    .map((t) => t.slice(t.lastIndexOf(MARKER) + MARKER.length));
}

/** The latest prompt's hook context ('' when the hook added nothing to it). */
function hookContext(body, turns = 1) {
  const all = hookContexts(body);
  return all.length === turns ? all[turns - 1] : '';
}

test('a domain question: the request holds the evidence block with its citations', async () => {
  const want = ask(DOMAIN);
  assert.equal(want.route, 'push');
  const { body, result } = await claude(DOMAIN);
  const ctx = hookContext(body);
  assert.ok(ctx.includes(want.context.trimEnd()), `the evidence block is not in the request:\n${ctx.slice(0, 2000)}`);
  // The source named once, on its [Sn] line; the items cite it by that label with their location.
  assert.match(ctx, /\n\[S1\] 국가연구개발혁신법 매뉴얼\(본권\) · as of \d{4}-\d{2} · https:\/\/\S+ · \(rnd\)\n\[1\] S1 · p\.\d+ · §[\d-]+/);
  assert.match(ctx, /groundgate: 위 근거로 답하고 주장마다 \[n\] 인용을 붙이세요/);
  assert.equal(result.result, 'groundgate test reply.');
});

test('a pasted sentence: the pull instruction, no evidence', async () => {
  const want = ask(PASTED);
  assert.equal(want.route, 'pull');
  const { body } = await claude(PASTED);
  const ctx = hookContext(body);
  assert.match(ctx, /route = pull/);
  const calls = ctx.split('\n').filter((l) => l.startsWith('- mcp__groundgate__')).map((l) => {
    const [tool, args] = l.slice(2).split(/ (.*)/s);
    return { tool, args: JSON.parse(args) };
  });
  assert.deepEqual(calls.find((c) => c.tool === 'mcp__groundgate__search')?.args, { instance: 'rnd', query: PASTED });
  assert.equal(calls.find((c) => c.tool === 'mcp__groundgate__read')?.args.instance, 'rnd');
  assert.ok(!JSON.stringify(body).includes('<groundgate-evidence>'), 'evidence was injected for a pasted sentence');
});

test('an unrelated prompt: nothing is added', async () => {
  assert.equal(ask(UNRELATED).route, 'skip');
  const { body } = await claude(UNRELATED);
  assert.deepEqual(hookContexts(body), []);
  const all = JSON.stringify(body.messages);
  for (const s of ['<groundgate-evidence>', 'mcp__groundgate__search {']) assert.ok(!all.includes(s), `${s} reached the model`);
});

test('the same question twice in one session: the evidence is not repeated', async () => {
  const first = await claude(DOMAIN);
  const firstCtx = hookContext(first.body);
  const cites = [...firstCtx.matchAll(/^\[\d+\] (.*)$/gm)].map((m) => m[1]);
  const block = firstCtx.slice(0, firstCtx.indexOf('</groundgate-evidence>')).split('\n').slice(2);
  // The documents' lines (a source line names a source again in a new block; that is not evidence).
  const texts = block.filter((l) => l.length > 40 && !/^\[S?\d+\] /.test(l));
  assert.ok(cites.length > 0 && texts.length > 0);
  const second = await claude(DOMAIN, ['--resume', first.result.session_id]);
  assert.equal(hookContexts(second.body).length, 2, 'the resumed request should carry both turns\' contexts');
  const secondCtx = hookContext(second.body, 2);
  assert.match(secondCtx, /^<groundgate-evidence>\n/);
  // The second prompt's request still carries the first turn; its own context is new evidence.
  assert.ok(hookContexts(second.body)[0].includes(texts[0]), 'the first turn is not in the resumed conversation');
  for (const t of texts) assert.ok(!secondCtx.includes(t), `repeated evidence: ${t}`);
  const decisions = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const last = decisions.at(-1);
  assert.equal(last.session, first.result.session_id);
  assert.ok(last.log.instances.some((i) => i.dedup_skipped.length > 0), 'the decision log shows no dedup');
});

test('with the MCP server configured, the request lists groundgate\'s tools', async () => {
  const mcp = JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'));
  const config = path.join(project, 'mcp-config.json');
  fs.writeFileSync(config, JSON.stringify(mcp));
  // By default Claude Code 2.1 defers MCP tools (their names are listed in the system prompt and
  // their schemas fetched with ToolSearch); ENABLE_TOOL_SEARCH=false sends them in `tools`.
  const deferred = await claude(UNRELATED, ['--mcp-config', config, '--strict-mcp-config']);
  const listed = JSON.stringify(deferred.body);
  const { body } = await claude(UNRELATED, ['--mcp-config', config, '--strict-mcp-config'], { ENABLE_TOOL_SEARCH: 'false' });
  const names = (body.tools ?? []).map((x) => x.name);
  for (const tool of ['search', 'grep', 'sources', 'read', 'links']) {
    assert.ok(listed.includes(`mcp__groundgate__${tool}`), `mcp__groundgate__${tool} not listed (deferred)`);
    assert.ok(names.includes(`mcp__groundgate__${tool}`), `mcp__groundgate__${tool} not in ${names.join(', ')}`);
  }
  const search = body.tools.find((x) => x.name === 'mcp__groundgate__search');
  assert.ok(search.input_schema.properties.query, JSON.stringify(search.input_schema));
  assert.deepEqual(search.input_schema.required, ['query']);
  assert.ok(search.description.length > 20);
});
