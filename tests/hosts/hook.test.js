'use strict';
// `groundgate hook claude-code` as Claude Code runs it — one process per prompt, JSON on stdin —
// without Claude Code: the output for push, pull and skip against `ask`'s own answer, bad and huge
// input, session dedup across processes (also two prompts at once), expired state, the 10,000
// character limit, the decision log, `init claude-code`, and the time per call (p50/max).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { ROOT, BIN, INDEXES, need, tmpdir, run, p50max } = require('./util');

const DOMAIN = '연구수당은 얼마까지 계상할 수 있나요?';
const PASTED = '연구개발기관은 연구수당을 인건비의 20% 범위에서 계상할 수 있다.';
const UNRELATED = 'How do I bake sourdough bread?';

let dir;
test.before(() => {
  need(BIN, 'run ./build.sh (it assembles the npm package in pkg/)');
  dir = tmpdir('hook');
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const idx = INDEXES.flatMap((f) => ['--index', f]);

/** Run the hook with Claude Code's stdin for `prompt`. */
function hook(prompt, { session, state = path.join(dir, 'state'), log, raw } = {}) {
  const input = raw ?? JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd: dir, prompt_id: 'p', permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt });
  const args = [BIN, 'hook', 'claude-code', ...idx, '--state', state];
  if (log) args.push('--log', log);
  return run(process.execPath, args, { input });
}

/** The additionalContext of a hook run ('' for no output). */
function contextOf(r) {
  assert.equal(r.code, 0, r.stderr);
  if (r.stdout === '') return '';
  const v = JSON.parse(r.stdout);
  assert.equal(v.hookSpecificOutput.hookEventName, 'UserPromptSubmit');
  return v.hookSpecificOutput.additionalContext;
}

/** `ask` straight from the library. */
function ask(prompt) {
  const gg = require(path.join(ROOT, 'pkg', 'node', 'groundgate.js'));
  const engine = new gg.Engine();
  for (const f of INDEXES) {
    const bytes = fs.readFileSync(f);
    const i = new gg.Index(bytes);
    engine.addInstance(i.info().name, bytes);
    i.free();
  }
  try {
    return engine.ask(prompt);
  } finally {
    engine.free();
  }
}

test('push: exactly the evidence block ask gives, then one line of the delivery rule', async () => {
  for (const [prompt, rule] of [
    [DOMAIN, /^groundgate: 위 근거로 답하고 .*mcp__groundgate__search\)로 찾으세요\.$/],
    ['How do I make a Python script executable on Unix?', /^groundgate: answer from this evidence and cite every claim as \[n\]; .*\(mcp__groundgate__search\)\.$/],
  ]) {
    const want = ask(prompt);
    assert.equal(want.route, 'push');
    const ctx = contextOf(await hook(prompt));
    assert.ok(ctx.length <= 10000);
    assert.ok(ctx.startsWith(want.context), ctx.slice(0, 300));
    const rest = ctx.slice(want.context.length).split('\n');
    assert.equal(rest.length, 1, 'one line after the block');
    assert.match(rest[0], rule);
  }
});

test('a state directory it cannot make or write: the evidence still comes, without dedup, and a warning', async () => {
  const file = path.join(dir, 'a-file');
  fs.writeFileSync(file, '');
  // Under /proc nothing can be made (Node's recursive mkdir looped there for ever).
  const unmakeable = process.platform === 'linux' ? [path.join('/proc', `gg-${process.pid}`, 'state')] : [];
  for (const state of [path.join(file, 'state'), file, ...unmakeable]) {
    const r = await hook(DOMAIN, { session: 'no-state', state });
    assert.ok(contextOf(r).startsWith(ask(DOMAIN).context), r.stdout.slice(0, 200));
    assert.match(r.stderr, /groundgate hook: cannot use the state directory .*going on without dedup/);
  }
});

test('pull: the MCP tool calls from the hints, no evidence', async () => {
  const want = ask(PASTED);
  assert.equal(want.route, 'pull');
  const ctx = contextOf(await hook(PASTED));
  assert.ok(!ctx.includes('<groundgate-evidence>'));
  const calls = ctx.split('\n').filter((l) => l.startsWith('- mcp__groundgate__'));
  assert.ok(calls.length >= 2 && calls.length <= 4, ctx);
  // Exactly ask's hints (tool calls), as MCP tool names and JSON arguments.
  const shown = calls.map((l) => {
    const [tool, args] = l.slice(2).split(/ (.*)/s);
    return { tool: tool.replace('mcp__groundgate__', ''), arguments: JSON.parse(args) };
  });
  assert.ok(want.hints.length > 0);
  for (const c of shown) assert.ok(want.hints.some((h) => JSON.stringify(h) === JSON.stringify(c)), JSON.stringify(c));
  assert.ok(shown.some((c) => c.tool === 'search'));
  assert.ok(shown.some((c) => c.tool === 'read'));
});

test('skip: no output at all', async () => {
  assert.equal(ask(UNRELATED).route, 'skip');
  const r = await hook(UNRELATED);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
});

test('bad stdin, bad flags and bad index files: exit 0, a message on stderr, no evidence', async () => {
  const cases = [
    { raw: 'not json' },
    { raw: '' },
    { raw: '[1,2]' },
    { raw: '{"session_id":"s"}' },
    { raw: '{"prompt": 42}' },
    { raw: JSON.stringify({ prompt: DOMAIN, session_id: 'x'.repeat(300) }), ok: true },
  ];
  for (const c of cases) {
    const r = await hook(undefined, { raw: c.raw });
    assert.equal(r.code, 0, c.raw);
    if (c.ok) assert.ok(r.stdout.includes('groundgate-evidence'), 'an over-long session id only turns dedup off');
    else {
      assert.equal(r.stdout, '', c.raw);
      assert.match(r.stderr, /^groundgate hook: .*the prompt goes on without groundgate\n$/, c.raw);
    }
  }
  const bad = path.join(dir, 'bad.ggi');
  fs.writeFileSync(bad, 'not an index');
  const input = JSON.stringify({ prompt: DOMAIN, session_id: 's' });
  const longName = ['--index', INDEXES[0], '--server', 'g'.repeat(5000)];
  for (const args of [['--index', bad], ['--index', path.join(dir, 'missing.ggi')], [], ['--index', INDEXES[0], '--bogus'], longName, ['--index', INDEXES[0], '--server', 'my server']]) {
    const r = await run(process.execPath, [BIN, 'hook', 'claude-code', ...args], { input });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /the prompt goes on without groundgate/);
    if (args[1] === bad || args[1]?.endsWith('missing.ggi')) {
      // An index it cannot load: no evidence, and the person is told (not the model).
      assert.deepEqual(Object.keys(JSON.parse(r.stdout)), ['systemMessage']);
      assert.match(JSON.parse(r.stdout).systemMessage, /^groundgate: .*the prompt goes on without groundgate$/);
    } else {
      assert.equal(r.stdout, '');
    }
  }
  const r = await run(process.execPath, [BIN, 'hook', 'cursor'], { input });
  assert.equal(r.code, 0);
  assert.match(r.stderr, /unknown host 'cursor'/);
  // No host at all: the usage on stderr (a hook's stdout would reach the model), exit 0.
  const none = await run(process.execPath, [BIN, 'hook'], { input });
  assert.equal(none.code, 0, none.stderr);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /^groundgate hook: no host named .*the prompt goes on without groundgate\n/);
  // A corrupt index (one bit flipped): refused at load, never served.
  const flipped = fs.readFileSync(INDEXES[0]);
  flipped[flipped.length - 3] ^= 0x04;
  fs.writeFileSync(path.join(dir, 'flipped.ggi'), flipped);
  const corrupt = await run(process.execPath, [BIN, 'hook', 'claude-code', '--index', path.join(dir, 'flipped.ggi')], { input });
  assert.equal(corrupt.code, 0);
  assert.match(JSON.parse(corrupt.stdout).systemMessage, /checksum mismatch in section .*the prompt goes on without groundgate$/, 'told, never served');
  assert.ok(!corrupt.stdout.includes('additionalContext'));
  assert.match(corrupt.stderr, /checksum mismatch in section .*the prompt goes on without groundgate/);
});

test('a prompt over 1 MiB is skipped at once', async () => {
  const big = JSON.stringify({ session_id: 's', prompt: '연구수당 '.repeat(200000) });
  assert.ok(Buffer.byteLength(big) > 1024 * 1024);
  const r = await hook(undefined, { raw: big });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /over 1048576 bytes: skipped/);
});

test('the same question in one session, across processes: the evidence is not repeated', async () => {
  const state = path.join(dir, 'dedup');
  const first = contextOf(await hook(DOMAIN, { session: 'sess-1', state }));
  const second = contextOf(await hook(DOMAIN, { session: 'sess-1', state }));
  const other = contextOf(await hook(DOMAIN, { session: 'sess-2', state }));
  const body = (ctx) => ctx.split('\n').filter((l) => l.length > 40 && !/^\[S?\d+\] /.test(l) && !l.startsWith('Excerpts') && !l.startsWith('groundgate:'));
  assert.ok(body(first).length > 0);
  for (const l of body(first)) assert.ok(!second.includes(l), `repeated: ${l}`);
  assert.equal(other, first, 'another session sees the same evidence again');
  const files = fs.readdirSync(state).filter((f) => f.endsWith('.session'));
  assert.equal(files.length, 2);
  for (const f of files) assert.match(fs.readFileSync(path.join(state, f), 'utf8'), /^groundgate-session 1\n(\w+ \d+ \d+\n)+$/);
});

test('an index rebuilt with new text mid-session: its chunks are shown again, not hidden as seen', async () => {
  // Stored state names chunks by number; a rebuilt index gives those numbers to other text.
  const scratch = path.join(dir, 'rebuilt');
  fs.mkdirSync(path.join(scratch, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(scratch, 'hr.toml'), 'name = "hr"\ntitle = "HR"\n[[input]]\nformat = "markdown"\npath = "docs"\n');
  const build = async (days) => {
    fs.writeFileSync(path.join(scratch, 'docs', 'leave.md'), `# Vacation\n\nEmployees get ${days} vacation days a year.\n\n## Sick leave\n\nTen paid sick days.\n`);
    const r = await run(process.execPath, [BIN, 'build', '--manifest', 'hr.toml', '--out', 'hr.ggi'], { cwd: scratch });
    assert.equal(r.code, 0, r.stderr);
  };
  const input = JSON.stringify({ session_id: 'hr-session', prompt: 'How many vacation days do employees get? #hr' });
  const ask = async () => contextOf(await run(process.execPath, [BIN, 'hook', 'claude-code', '--index', path.join(scratch, 'hr.ggi'), '--state', path.join(scratch, 'state')], { input }));
  await build(20);
  assert.match(await ask(), /20 vacation days/);
  assert.doesNotMatch(await ask(), /vacation days a year/, 'shown once per session');
  await build(25);
  assert.match(await ask(), /25 vacation days/, 'the rebuilt text is new to the session');
  assert.doesNotMatch(await ask(), /vacation days a year/, 'and then shown once too');
});

test('two prompts of one session at once: both answered, nothing shown twice, state intact', async () => {
  const state = path.join(dir, 'concurrent');
  const runs = await Promise.all([hook(DOMAIN, { session: 'c', state }), hook(DOMAIN, { session: 'c', state })]);
  const [a, b] = runs.map(contextOf);
  assert.ok(a.includes('<groundgate-evidence>') && b.includes('<groundgate-evidence>'));
  const lines = (ctx) => ctx.split('\n').filter((l) => l.length > 40 && !l.startsWith('Excerpts') && !l.startsWith('groundgate:') && !/^\[S?\d+\] /.test(l));
  for (const l of lines(a)) assert.ok(!lines(b).includes(l), `shown twice: ${l}`);
  const [file] = fs.readdirSync(state).filter((f) => f.endsWith('.session'));
  const entries = fs.readFileSync(path.join(state, file), 'utf8').trim().split('\n').slice(1);
  assert.ok(entries.length >= 4, 'both prompts\' chunks are stored');
  assert.deepEqual(fs.readdirSync(state).filter((f) => !f.endsWith('.session')), [], 'no lock or temp file left');
});

test('a stale lock that cannot be removed (a folder): answered at once without dedup, named on stderr', async () => {
  const state = path.join(dir, 'stuck');
  contextOf(await hook(DOMAIN, { session: 's', state }));
  const [file] = fs.readdirSync(state);
  const lockDir = path.join(state, `${file}.lock`);
  fs.mkdirSync(lockDir);
  const old = new Date(Date.now() - 3_600_000);
  fs.utimesSync(lockDir, old, old);
  const started = Date.now();
  const r = await hook(DOMAIN, { session: 's', state });
  assert.ok(Date.now() - started < 8_000, `took ${Date.now() - started} ms`);
  assert.ok(contextOf(r).includes('<groundgate-evidence>'), 'the prompt still gets its evidence');
  assert.match(r.stderr, /cannot lock the session state .*; going on without dedup/);
});

test('expired state: old entries do not dedup, idle session files are removed', async () => {
  const state = path.join(dir, 'expired');
  const first = contextOf(await hook(DOMAIN, { session: 'old', state }));
  const [file] = fs.readdirSync(state);
  const full = path.join(state, file);
  // Age every entry and the file past the 30-minute window.
  const aged = fs.readFileSync(full, 'utf8').replace(/ (\d+)$/gm, (_, t) => ` ${Number(t) - 31 * 60 * 1000}`);
  fs.writeFileSync(full, aged);
  const again = contextOf(await hook(DOMAIN, { session: 'old', state }));
  assert.equal(again, first, 'expired entries no longer dedup');
  for (const l of fs.readFileSync(full, 'utf8').trim().split('\n').slice(1)) {
    assert.ok(Date.now() - Number(l.split(' ')[2]) < 60000, `an expired entry was kept: ${l}`);
  }
  const idle = path.join(state, 'f'.repeat(32) + '.session');
  const leftover = `${idle}.4242.tmp`;
  // The user's own files in the same folder, as old: never the sweep's to remove.
  const theirs = ['draft.tmp', 'work.session', `${'F'.repeat(32)}.session`, `${'f'.repeat(32)}.session.bak.tmp`].map((n) => path.join(state, n));
  const old = (Date.now() - 31 * 60 * 1000) / 1000;
  for (const f of [idle, leftover, ...theirs]) {
    fs.writeFileSync(f, 'groundgate-session 1\n');
    fs.utimesSync(f, old, old);
  }
  await hook(UNRELATED, { session: 'another', state });
  assert.ok(!fs.existsSync(idle), 'an idle session file was not removed');
  assert.ok(!fs.existsSync(leftover), 'a write\'s leftover was not removed');
  for (const f of theirs) assert.ok(fs.existsSync(f), `${f}: not the hook's file, removed`);
  for (const f of theirs) fs.rmSync(f);
  // A corrupt state file is reported and replaced; the prompt still gets its evidence.
  fs.writeFileSync(full, 'garbage');
  const r = await hook(DOMAIN, { session: 'old', state });
  assert.ok(contextOf(r).includes('<groundgate-evidence>'));
  assert.match(r.stderr, /ignoring the session state/);
  assert.match(fs.readFileSync(full, 'utf8'), /^groundgate-session 1\n/);
});

test('never more than 10,000 characters: an oversized push becomes the pull instruction', () => {
  const h = require(path.join(ROOT, 'pkg', 'lib', 'hook-claude-code.js'));
  const answer = { route: 'push', kind: 'question', hints: [], context: `<groundgate-evidence>\n${'가'.repeat(10000)}\n</groundgate-evidence>\n` };
  const ctx = h.contextFor(answer, DOMAIN, 'groundgate');
  assert.ok(ctx.length <= h.MAX_CONTEXT_CHARS);
  assert.ok(!ctx.includes('<groundgate-evidence>'));
  assert.match(ctx, /mcp__groundgate__search/);
  // A pull instruction over the cap is cut at a line: every call it keeps can be made.
  const longCalls = { route: 'pull', kind: 'question', hints: Array.from({ length: 4 }, () => ({ tool: 'grep', arguments: { text: '가'.repeat(3000) } })) };
  const cut = h.contextFor(longCalls, DOMAIN, 'groundgate');
  assert.ok(cut.length <= h.MAX_CONTEXT_CHARS && cut.length > 0, String(cut.length));
  for (const line of cut.split('\n').filter((l) => l.startsWith('- '))) JSON.parse(line.slice(line.indexOf('{')));
  const fits = { ...answer, context: `<groundgate-evidence>\n${'가'.repeat(9000)}\n</groundgate-evidence>\n` };
  assert.ok(h.contextFor(fits, DOMAIN, 'groundgate').startsWith(fits.context));
  // Hints are tool calls, used as they are; at most four, keeping a read; none → search the prompt.
  const calls = h.toolCalls({ hints: [{ tool: 'grep', arguments: { text: '연구수당', instance: 'rnd' } }] }, PASTED);
  assert.deepEqual(calls, [{ tool: 'grep', arguments: { text: '연구수당', instance: 'rnd' } }]);
  const many = [1, 2, 3, 4, 5].map((i) => ({ tool: 'search', arguments: { query: 'q', instance: `i${i}` } }));
  const capped = h.toolCalls({ hints: [...many, { tool: 'read', arguments: { instance: 'i1', source: 's', page: 1 } }] }, PASTED);
  assert.deepEqual(capped.map((c) => c.tool), ['search', 'search', 'search', 'read']);
  assert.ok(h.toolCalls({ hints: [] }, ` ${'word '.repeat(100)}`)[0].arguments.query.length <= 200);
});

test('the decision log feeds groundgate stats; time per call (p50/max)', async (t) => {
  const log = path.join(dir, 'decisions.jsonl');
  const prompts = [DOMAIN, PASTED, UNRELATED, 'How do I make a Python script executable on Unix?', '대통령의 임기는 몇 년인가요?', '표에 행을 삽입하려면 어떻게 하나요?'];
  const times = [];
  for (let round = 0; round < 3; round++) {
    for (const p of prompts) times.push((await hook(p, { session: `log-${round}`, log })).ms);
  }
  const lines = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, prompts.length * 3);
  for (const l of lines) {
    assert.ok(['push', 'pull', 'skip'].includes(l.route));
    assert.ok(Array.isArray(l.log.instances) && typeof l.log.prompt_chars === 'number');
  }
  // The package's own `stats` (what the README's Claude Code section runs), on the log with a
  // half-written last line: counted, not fatal; natively the same bytes.
  fs.appendFileSync(log, '{"id":null,"route":"pu');
  const r = await run(process.execPath, [BIN, 'stats', log]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^prompts +${prompts.length * 3}$`, 'm'));
  assert.match(r.stdout, /^\(1 line not JSON skipped, the first at line 19: a line cut short\?\)$/m);
  const cli = path.join(ROOT, 'target', 'release', 'groundgate');
  if (fs.existsSync(cli)) assert.equal((await run(cli, ['stats', log])).stdout, r.stdout);
  const { p50, max } = p50max(times);
  t.diagnostic(`hook process per prompt (node + wasm + ${INDEXES.length} default indexes): p50 ${p50.toFixed(0)} ms, max ${max.toFixed(0)} ms over ${times.length} calls`);
  assert.ok(max < 5000, `a hook call took ${max} ms (Claude Code's default hook timeout is far above, but this is too slow)`);
});

test('an index moved away: the others still serve, and the person is told (systemMessage)', async () => {
  const missing = path.join(dir, 'moved-away.ggi');
  const input = JSON.stringify({ prompt: DOMAIN });
  const some = await run(process.execPath, [BIN, 'hook', 'claude-code', ...idx, '--index', missing], { input });
  assert.equal(some.code, 0);
  const v = JSON.parse(some.stdout);
  assert.match(v.hookSpecificOutput.additionalContext, /<groundgate-evidence>/, 'the indexes that are there still answer');
  assert.match(v.systemMessage, /moved-away\.ggi: no such file.*left out; fix the hook's --index/);
  assert.match(some.stderr, /moved-away\.ggi: no such file/);
  const none = await run(process.execPath, [BIN, 'hook', 'claude-code', '--index', missing], { input });
  assert.equal(none.code, 0);
  assert.match(JSON.parse(none.stdout).systemMessage, /^groundgate: .*moved-away\.ggi: no such file.*the prompt goes on without groundgate/);
});

test('init claude-code writes the hook and the MCP server, merging what is there', async () => {
  const project = path.join(dir, 'project');
  fs.mkdirSync(path.join(project, '.claude'), { recursive: true });
  const other = { hooks: [{ type: 'command', command: 'echo other' }] };
  // A team's hook in one group with an older groundgate hook: a new init replaces only that one.
  const shared = { hooks: [{ type: 'command', command: 'npx groundgate hook claude-code --index old.ggi' }, { type: 'command', command: './scripts/team-audit.sh' }] };
  fs.writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ model: 'x', hooks: { UserPromptSubmit: [other, shared] } }));
  fs.writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
  for (let i = 0; i < 2; i++) {
    const r = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', INDEXES[0], INDEXES[1], '--project', project]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /claude mcp add groundgate -- /);
  }
  const settings = JSON.parse(fs.readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8'));
  assert.equal(settings.model, 'x');
  assert.equal(settings.hooks.UserPromptSubmit.length, 3, 'a second init replaces its own hook');
  assert.deepEqual(settings.hooks.UserPromptSubmit[0], other);
  assert.deepEqual(settings.hooks.UserPromptSubmit[1], { hooks: [shared.hooks[1]] }, 'the team hook beside it stays');
  const ours = settings.hooks.UserPromptSubmit[2].hooks[0];
  assert.match(ours.command, /^node /, 'node from the PATH, not this machine\'s path to it');
  assert.equal(ours.type, 'command');
  assert.equal(ours.timeout, 10);
  assert.ok(ours.command.includes(` hook claude-code --index ${INDEXES[0]} --index ${INDEXES[1]}`), ours.command);
  const mcp = JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'));
  assert.deepEqual(Object.keys(mcp.mcpServers), ['other', 'groundgate']);
  assert.deepEqual(mcp.mcpServers.groundgate.args.slice(1), ['mcp', '--index', INDEXES[0], '--index', INDEXES[1]]);
  // Paths inside the project are written relative to it: the files are committed and cloned.
  fs.mkdirSync(path.join(project, 'indexes'), { recursive: true });
  fs.copyFileSync(INDEXES[1], path.join(project, 'indexes', 'c.ggi'));
  const local = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', path.join(project, 'indexes', 'c.ggi'), '--log', path.join(project, 'log dir', 'd.jsonl'), '--project', project, '--print']);
  assert.equal(local.code, 0, local.stderr);
  assert.ok(local.stdout.includes('--index \\"$CLAUDE_PROJECT_DIR\\"/indexes/c.ggi --log \\"$CLAUDE_PROJECT_DIR\\"/\'log dir/d.jsonl\''), local.stdout);
  assert.ok(local.stdout.includes('"indexes/c.ggi"'), 'relative in .mcp.json');
  // Two indexes of one name are refused by init, not by every prompt later; so is a project folder
  // that does not exist (a typo would create it).
  const twice = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', INDEXES[1], path.join(project, 'indexes', 'c.ggi'), '--project', project]);
  assert.equal(twice.code, 1);
  assert.match(twice.stderr, /already loaded from/);
  const typo = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', INDEXES[1], '--project', path.join(dir, 'tpyo')]);
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /--project .*tpyo: no such folder/);
  assert.ok(!fs.existsSync(path.join(dir, 'tpyo')));
  // --print writes nothing; a missing index or a broken settings file is an error, not a bad file.
  const printed = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', INDEXES[0], '--project', path.join(dir, 'nothing'), '--print']);
  assert.equal(printed.code, 0, printed.stderr);
  assert.match(printed.stdout, /"UserPromptSubmit"/);
  assert.ok(!fs.existsSync(path.join(dir, 'nothing')));
  const missing = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', path.join(dir, 'nope.ggi'), '--project', project]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nope\.ggi/);
  fs.writeFileSync(path.join(project, '.mcp.json'), '{broken');
  const broken = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', INDEXES[0], '--project', project]);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /\.mcp\.json: not a JSON object/);
  assert.equal(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'), '{broken');
  // Keys of the wrong type are refused and left as they are: merging dropped a UserPromptSubmit
  // object and spelled a string out as {"0": …}.
  fs.writeFileSync(path.join(project, '.mcp.json'), '{}');
  for (const [file, text, says] of [
    ['.claude/settings.json', '{"hooks":{"UserPromptSubmit":{"hooks":[]}}}', /"hooks\.UserPromptSubmit" is an object, not a list/],
    ['.claude/settings.json', '{"hooks":"abc"}', /"hooks" is a string, not an object/],
    ['.mcp.json', '{"mcpServers":"mine"}', /"mcpServers" is a string, not an object/],
  ]) {
    const at = path.join(project, file);
    const before = fs.existsSync(at) ? fs.readFileSync(at, 'utf8') : null;
    fs.writeFileSync(at, text);
    const r = await run(process.execPath, [BIN, 'init', 'claude-code', '--index', INDEXES[0], '--project', project]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, says);
    assert.equal(fs.readFileSync(at, 'utf8'), text, `${file} left as it was`);
    if (before !== null) fs.writeFileSync(at, before);
  }
});
