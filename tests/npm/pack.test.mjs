// The npm package as a user gets it: `npm pack pkg/` → `npm install` of the tarball into a scratch
// project outside the repo → `require` and `import` work, the TypeScript types compile without
// @types/node, the `groundgate` bin answers `ask`/`search --jsonl` byte-identically to the native CLI,
// builds an index from HTML and Markdown files with Node alone (the same bytes as the native CLI), serves
// MCP, fails cleanly on bad input, and an esbuild browser bundle loads the web build's wasm in headless
// Chromium. Needs ./build.sh (pkg/, target/release/groundgate) and the npm registry for the package's
// dependencies (@modelcontextprotocol/sdk, zod).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { openSync, mkdtempSync, mkdirSync, writeFileSync, readFileSync, copyFileSync, rmSync, statSync, readdirSync, existsSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'target/release/groundgate');
const fixture = path.join(root, 'tests/fixtures/v2/excerpts.ggi');
// The sample index the package ships (./build.sh copies it when the default indexes were built).
const sample = path.join(root, 'indexes/constitution.ggi');
let scratch;
let tarball;
let bin;

const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { encoding: 'utf8', cwd: scratch, ...opts });

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'groundgate-npm-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', path.join(root, 'pkg'), '--json', '--pack-destination', scratch], { encoding: 'utf8' }));
  tarball = path.join(scratch, packed[0].filename);
  writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: scratch, stdio: 'inherit' });
  bin = path.join(scratch, 'node_modules/.bin/groundgate');
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the tarball holds the package and nothing else', () => {
  const listed = JSON.parse(execFileSync('npm', ['pack', path.join(root, 'pkg'), '--dry-run', '--json'], { encoding: 'utf8' }))[0];
  const files = listed.files.map((f) => f.path).sort();
  for (const f of ['package.json', 'README.md', 'LICENSE', 'bin/groundgate.js', 'lib/cli.js', 'lib/commands.js', 'lib/mcp.js',
    'node/groundgate.js', 'node/groundgate_bg.wasm', 'node/groundgate.d.ts', 'web/groundgate.js', 'web/groundgate_bg.wasm',
    'abi/groundgate.wasm', 'indexer/groundgate_indexer.js', 'indexer/groundgate_indexer_bg.wasm', 'thesaurus/ko.toml', 'thesaurus/en.toml']) {
    assert.ok(files.includes(f), `${f} in the tarball`);
  }
  if (existsSync(sample)) assert.ok(files.includes('indexes/constitution.ggi'), 'the sample index in the tarball');
  assert.ok(!files.some((f) => f.endsWith('.gitignore') || f === '.built'), files.join(' '));
  const cargo = readFileSync(path.join(root, 'Cargo.toml'), 'utf8').match(/^version = "(.*)"/m)[1];
  assert.equal(listed.version, cargo);
  console.log(`tarball ${listed.filename}: ${listed.size} bytes packed, ${listed.unpackedSize} unpacked, ${listed.entryCount} files`);
});

test('require() gives the Node build', () => {
  const script = `
    const { Engine, Index } = require('groundgate');
    const fs = require('fs');
    const bytes = fs.readFileSync(${JSON.stringify(fixture)});
    const e = new Engine();
    e.addInstance('excerpts', bytes);
    const hits = new Index(bytes).search('대한민국의 주권은 누구에게 있나요', 1);
    try { e.ask(''); } catch (err) { console.log(err.code); }
    console.log(hits[0].article, typeof e.askJson('헌법 개정'), require('groundgate/package.json').name);`;
  const r = run(process.execPath, ['-e', script]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'invalid_argument\n제1조 string groundgate\n');
});

test('the README\'s first examples run as written on the sample index', { skip: !existsSync(sample) && 'no indexes/constitution.ggi' }, () => {
  const readme = readFileSync(path.join(root, 'pkg/README.md'), 'utf8');
  const block = (lang) => readme.match(new RegExp('```' + lang + '\\n([\\s\\S]*?)```'))[1];
  // The shell block: install, then the bin on the sample index (npx → the installed bin).
  const ask = block('sh').split('\n').find((l) => l.startsWith('npx groundgate ask'));
  assert.ok(ask, block('sh'));
  const r = run('sh', ['-c', ask.replace(/^npx groundgate/, JSON.stringify(bin))]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /<groundgate-evidence>[\s\S]*제1조[\s\S]*주권은 국민에게/);
  // The JavaScript block, verbatim, then what it computed.
  const js = block('js') + '\nconsole.log(answer.route, answer.evidence[0].article, answer.context.includes("주권은 국민에게"));';
  const j = run(process.execPath, ['-e', js]);
  assert.equal(j.status, 0, j.stderr);
  assert.equal(j.stdout, 'push 제1조 true\n');
});

test('the other entry points resolve: groundgate/mcp, groundgate/indexer, the .wasm files', () => {
  const script = `
    const { createServer } = require('groundgate/mcp');
    const { buildIndex } = require('groundgate/indexer');
    const fs = require('fs');
    for (const f of ['groundgate/web/groundgate_bg.wasm', 'groundgate/node/groundgate_bg.wasm', 'groundgate/abi/groundgate.wasm']) {
      if (!WebAssembly.validate(fs.readFileSync(require.resolve(f)))) throw new Error(f);
    }
    console.log(typeof createServer, typeof buildIndex);`;
  const r = run(process.execPath, ['-e', script]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'function function\n');
});

test('an esbuild bundle for Node runs with the wasm copied beside it (the README\'s recipe)', async () => {
  writeFileSync(path.join(scratch, 'tool.js'), `
    const { Index } = require('groundgate');
    const hits = new Index(require('fs').readFileSync(${JSON.stringify(fixture)})).search('대한민국의 주권', 1);
    console.log(hits[0].article);`);
  const esbuild = (await import('esbuild')).default;
  await esbuild.build({ absWorkingDir: scratch, entryPoints: ['tool.js'], bundle: true, platform: 'node', format: 'cjs', outfile: 'dist-node/tool.js', logLevel: 'error' });
  copyFileSync(path.join(scratch, 'node_modules/groundgate/node/groundgate_bg.wasm'), path.join(scratch, 'dist-node/groundgate_bg.wasm'));
  const r = run(process.execPath, ['dist-node/tool.js']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '제1조\n');
});

test('import gives the same API (ESM)', () => {
  writeFileSync(path.join(scratch, 'esm.mjs'), `
    import { Engine, Index } from 'groundgate';
    import { readFileSync } from 'node:fs';
    const hits = new Index(readFileSync(${JSON.stringify(fixture)})).search('대한민국의 주권은 누구에게 있나요', 1);
    console.log(typeof Engine, hits[0].article);`);
  const r = run(process.execPath, ['esm.mjs']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'function 제1조\n');
});

test('groundgate/web imports in Node as ES modules and answers as the Node build', () => {
  writeFileSync(path.join(scratch, 'web.mjs'), `
    import { initSync, Index } from 'groundgate/web';
    import { readFileSync } from 'node:fs';
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    initSync({ module: readFileSync(require.resolve('groundgate/web/groundgate_bg.wasm')) });
    const bytes = readFileSync(${JSON.stringify(fixture)});
    const web = new Index(bytes).search('대한민국의 주권은 누구에게 있나요', 3);
    const node = new (require('groundgate').Index)(bytes).search('대한민국의 주권은 누구에게 있나요', 3);
    console.log(web[0].article, JSON.stringify(web) === JSON.stringify(node));`);
  const r = run(process.execPath, ['web.mjs']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '제1조 true\n');
});

test('groundgate/web before init(): a typed error that names the fix, then init works', () => {
  writeFileSync(path.join(scratch, 'web-early.mjs'), `
    import { initSync, Engine, Index } from 'groundgate/web';
    import { readFileSync } from 'node:fs';
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    for (const f of [() => new Engine(), () => new Index(new Uint8Array(8)), () => Engine.rules('ko')]) {
      try { f(); console.log('no error'); } catch (e) { console.log(e.code, e.message); }
    }
    const module = readFileSync(require.resolve('groundgate/web/groundgate_bg.wasm'));
    initSync({ module });
    initSync({ module }); // once is enough; again is no harm
    console.log(new Index(readFileSync(${JSON.stringify(fixture)})).search('주권', 1)[0].article);`);
  const r = run(process.execPath, ['web-early.mjs']);
  assert.equal(r.status, 0, r.stderr);
  const early = 'invalid_argument groundgate is not initialised: call init() (or initSync({ module })) once before using it';
  assert.equal(r.stdout, `${early}\n${early}\n${early}\n제1조\n`);
});

// The two builds are optimised differently (pkg/web for size, pkg/node for speed, build.sh): the
// whole pipeline must answer alike. Every line of a statute excerpt (pasted sentences), the route
// labels' prompts and those lines turned into questions, in the detailed format (the gate's
// features and probabilities, the scores), over the sample index.
test('groundgate/web answers every ask as the Node build', { skip: !existsSync(sample) && 'no indexes/constitution.ggi' }, () => {
  const lines = readFileSync(path.join(root, 'tests/data/constitution_excerpt.txt'), 'utf8').split('\n').filter((l) => l.trim());
  const labels = readFileSync(path.join(root, 'tests/data/route_labels.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l).prompt);
  const prompts = [...lines, ...labels, ...lines.map((l) => `${l.slice(0, 40)} 이게 무슨 뜻이에요?`)];
  writeFileSync(path.join(scratch, 'prompts.json'), JSON.stringify(prompts));
  writeFileSync(path.join(scratch, 'web-ask.mjs'), `
    import { initSync, Engine } from 'groundgate/web';
    import { readFileSync } from 'node:fs';
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    initSync({ module: readFileSync(require.resolve('groundgate/web/groundgate_bg.wasm')) });
    const bytes = readFileSync(${JSON.stringify(sample)});
    const prompts = JSON.parse(readFileSync('prompts.json', 'utf8'));
    const answers = (E) => {
      const e = new E();
      e.addInstance('constitution', bytes);
      e.setClock(0);
      return prompts.map((p) => e.askJson(p, { format: 'detailed' }));
    };
    const web = answers(Engine), node = answers(require('groundgate').Engine);
    const differ = web.filter((a, i) => a !== node[i]).length;
    const pushed = web.filter((a) => JSON.parse(a).route === 'push').length;
    console.log(prompts.length, differ, pushed > 0);`);
  const r = run(process.execPath, ['web-ask.mjs']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${prompts.length} 0 true\n`);
});

test('bin: an altered index is refused by every command that reads it, before any answer', () => {
  // One bit flipped in the last section (the chunk text would otherwise be served under a correct
  // citation), and bytes appended after the last section.
  const good = readFileSync(fixture);
  const flipped = Buffer.from(good);
  flipped[flipped.length - 3] ^= 0x04;
  writeFileSync(path.join(scratch, 'flipped.ggi'), flipped);
  writeFileSync(path.join(scratch, 'appended.ggi'), Buffer.concat([good, Buffer.from('extra')]));
  const sources = JSON.parse(execFileSync(cli, ['sources', '--index', fixture, '--jsonl'], { input: '{}\n', encoding: 'utf8' }));
  const source = sources.result.sources[0].source;
  for (const [file, pattern] of [['flipped.ggi', /checksum mismatch in section \w+/], ['appended.ggi', /5 bytes follow the last section/]]) {
    for (const args of [['ask', '헌법 개정', '--index', file], ['search', '--index', file, '주권'], ['read', '--index', file, '--source', source, '--chunk', '0'],
      ['grep', '--index', file, '주권'], ['sources', '--index', file], ['mcp', '--index', file]]) {
      for (const exe of [bin, cli]) {
        if (exe === cli && args[0] === 'mcp') continue;
        const r = run(exe, args, { input: '' });
        assert.equal(r.status, 1, `${exe} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
        assert.equal(r.stdout, '', `${args.join(' ')}: no answer`);
        assert.match(r.stderr, pattern, args.join(' '));
      }
    }
  }
});

test('the types compile under tsc --strict without @types/node', () => {
  writeFileSync(path.join(scratch, 'usage.ts'), `
    import { Engine, Index, type Answer, type Hit } from 'groundgate';
    import { createServer } from 'groundgate/mcp';
    declare const bytes: Uint8Array;
    const engine = new Engine({ top_k: 4 });
    engine.addInstance('x', bytes);
    const a: Answer = engine.ask('헌법 개정', { format: 'detailed' });
    const hits: Hit[] = new Index(bytes).search('q', 3);
    { using idx = new Index(bytes); idx.verify(); }
    const server = createServer(engine, { name: 'mine' });
    export const out = [a.route, hits.length, typeof server.connect];`);
  writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [] },
    files: ['usage.ts'],
  }));
  const r = run(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // Node code type-checked the other common ways: `module: commonjs` (TypeScript's node10
  // resolution, no `exports`: the subpaths resolve through `typesVersions`) and `bundler` (a VS Code
  // extension bundled by esbuild; README: import `groundgate/node` for the Node build's types).
  writeFileSync(path.join(scratch, 'node-usage.ts'), `
    import { Engine, type SourcesResult } from 'groundgate/node';
    import { createServer } from 'groundgate/mcp';
    const engine = new Engine();
    const page: SourcesResult = engine.sources({ offset: 0 });
    export const out = [page.next_offset, page.sources_more, typeof createServer(engine).connect];`);
  for (const [module, moduleResolution] of [['commonjs', 'node10'], ['esnext', 'bundler']]) {
    writeFileSync(path.join(scratch, 'tsconfig.node.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module, moduleResolution, target: 'es2022', types: [], skipLibCheck: true },
      files: ['node-usage.ts'],
    }));
    const r2 = run(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.node.json']);
    assert.equal(r2.status, 0, `${moduleResolution}: ${r2.stdout}${r2.stderr}`);
  }
});

test('bin: ask --jsonl and search --jsonl are byte-identical to the native CLI', () => {
  const prompts = readFileSync(path.join(root, 'tests/fixtures/parity_prompts.jsonl'), 'utf8').trim().split('\n').slice(0, 40);
  const input = [...prompts, '', '{"id":"no prompt"}', '{"id":{"b":1,"a":[2,"x"]},"prompt":"대통령 임기","session":"s1"}',
    '{"id":7,"prompt":""}', `{"id":8,"prompt":${JSON.stringify('헌법 '.repeat(5000))}}`,
    // Each line is the library's to read (Engine.askLine): a line's rerank, a session that is no
    // string, ids and escapes JSON.parse would read otherwise, all as natively.
    '{"id":"r9","prompt":"대통령의 임기는 몇 년인가요?","rerank":{"weights":{"diversity":3,"depth":2}}}',
    '{"id":"r10","prompt":"대통령의 임기","rerank":"x"}', '{"id":"r11","prompt":"대통령의 임기","rerank":{"k":-1}}',
    '{"id":"r12","prompt":"대통령의 임기","session":123}', '{"id":"r13","prompt":"대통령의 임기","session":null}',
    '{"id":1e400,"prompt":"대통령"}', '{"id":12345678901234567890,"prompt":"대통령"}', '{"id":"r14","prompt":"\\ud800 대통령"}',
    '{"id":"r15"\r\r',
  ].join('\n') + '\n';
  const args = ['ask', '--index', fixture, '--now', '0', '--session', 's0', '--jsonl'];
  const js = run(bin, args, { input });
  const native = run(cli, args, { input });
  assert.equal(js.status, 0, js.stderr);
  assert.equal(js.stdout, native.stdout);
  const out = js.stdout.split('\n');
  assert.equal(out.length, prompts.length + 14);
  const line = (id) => out.find((l) => l.startsWith(`{"id":${id},`));
  assert.match(line('"r10"'), /"invalid rerank: invalid type: string/);
  assert.match(line('"r12"'), /"invalid session: must be a string"/);
  assert.match(line('"r13"'), /"route":/);
  assert.match(line('12345678901234567890'), /"route":/);
  // Half a surrogate pair, as JSON.stringify writes a broken string: U+FFFD, as the JS API reads it.
  assert.match(line('"r14"'), /"route":/);
  assert.equal(out.filter((l) => /"id":null,"error".*is not JSON/.test(l)).length, 2);
  // A session no prompt could be asked with: a usage error before the first line, as natively.
  for (const session of ['', 's'.repeat(257)]) {
    const bad = ['ask', '--index', fixture, '--session', session, '--jsonl'];
    for (const r of [run(bin, bad, { input }), run(cli, bad, { input })]) {
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /session.*invalid session: must be 1–256 bytes/);
    }
  }
  // --timings counts the requests alone (blank and unreadable lines are not timed), as natively.
  const calls = (r) => JSON.parse(r.stderr.trim()).timings.calls;
  const timed = [...args, '--timings'];
  assert.equal(calls(run(bin, timed, { input })), calls(run(cli, timed, { input })));
  // The hook's decision log through `stats`: the same funnel as natively, a cut line counted.
  writeFileSync(path.join(scratch, 'decisions.jsonl'), js.stdout + '{"id":99,"route":"pu');
  const stats = run(bin, ['stats', 'decisions.jsonl']);
  assert.equal(stats.status, 0, stats.stderr);
  assert.equal(stats.stdout, run(cli, ['stats', 'decisions.jsonl']).stdout);
  assert.match(stats.stdout, /^prompts +\d+\n[^]*1 line not JSON skipped, the first at line \d+/);
  const queries = '{"id":1,"query":"주권"}\n{"id":2,"query":""}\n{"id":3}\n{"id":[1,2],"query":"Ctrl F"}\n';
  const sargs = ['search', '--index', fixture, '--k', '3', '--jsonl'];
  const sj = run(bin, sargs, { input: queries });
  assert.equal(sj.status, 0, sj.stderr);
  assert.equal(sj.stdout, run(cli, sargs, { input: queries }).stdout);
});

test('bin: the tool subcommands (search, grep, sources, read, links, tool, tools) match the native CLI byte for byte', () => {
  const lines = ['{"id":1,"query":"주권"}', '', '  \r', '{"id":2,"query":"\\u0000"}', 'not json', '[1]', '{"id":"x"}\r',
    '{"id":{"z":1,"a":2},"query":"Ctrl F","k":2}', '{"id":5,"tool":"read","arguments":{"instance":"excerpts","source":"constitution","article":"1"}}',
    '{"id":6,"tool":"grep","arguments":{"text":"주권"},"k":1}', '{"id":7,"tool":"sources"}', '{"id":8,"tool":3}', '{"id":9}',
    '{"id":11\r\r', '{"id":12,"query":"주권"}\r\r'];
  const input = Buffer.concat([Buffer.from(lines.join('\n') + '\n'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), Buffer.from(`{"q":"${'a'.repeat(1 << 20)}"}\n{"id":10,"query":"헌법"}`)]);
  const runs = [
    ['search', '--index', fixture, '--jsonl'],
    ['search', '--index', fixture, '--jsonl', '--tool', '--k', '2'],
    ['tool', '--index', fixture],
    ['grep', '--index', fixture, '--jsonl', '--limit', '2'],
    ['read', '--index', fixture, '--jsonl', '--instance', 'excerpts'],
    ['search', '--index', fixture, '대한민국', '주권'],
    ['search', '--index', fixture, '--detailed', '--k', '3', '대한민국', '주권'],
    ['grep', '--index', fixture, '주권은', '국민'],
    ['sources', '--index', fixture],
    ['read', '--index', fixture, '--instance', 'excerpts', '--source', 'constitution', '--article', '1', '--around', '1'],
    ['read', '--index', fixture, '--instance', 'excerpts', '--source', 'constitution', '--article', '999'],
    ['links', '--index', fixture, '--instance', 'excerpts', '--source', 'notice-2026-01'],
    ['tools'],
    ['search', '--index', fixture, '--index', fixture, '주권'],
    ['search', '--index', fixture, '--index', 'copy.ggi', '주권'],
    ['ask', '--index', fixture, '--now', '0', '--', '대한민국의 주권은 누구에게 있나요?'],
    ['ask', '--index', fixture, '--now', '0', '--config', 'engine.toml', '--format', 'detailed', '--jsonl'],
    ['sources', '--index', fixture, '--offset', '1'],
    ['sources', '--index', fixture, '--offset', '99'],
  ];
  writeFileSync(path.join(scratch, 'engine.toml'), 'top_k = 2\ntotal_budget = 600\n');
  // Settings files refused alike: one line naming the file, the TOML line and column, and the fault.
  for (const [file, text] of [['typo.toml', 'total_budgt = 1000\n'], ['huge.toml', 'min_words = 4294967296\n'],
    ['type.toml', 'top_k = 4\nmin_words = "x"\n'], ['open.toml', 'top_k = [\n'], ['zero.toml', 'top_k = 0\n']]) {
    writeFileSync(path.join(scratch, file), text);
    runs.push(['ask', '--index', fixture, '--now', '0', '--config', file, '--', '대한민국의 주권은 누구에게 있나요?']);
  }
  writeFileSync(path.join(scratch, 'copy.ggi'), readFileSync(fixture));
  // RRF with a ranking of the caller's: references as `search --detailed` gives them.
  const found = JSON.parse(run(cli, ['search', '--index', fixture, '--jsonl', '--tool'], { input: '{"id":1,"query":"국민 주권","detailed":true}\n' }).stdout);
  const refs = found.result.results.map((r) => r.ref);
  assert.ok(refs.length >= 3, JSON.stringify(found));
  runs.push(['search', '--index', fixture, '--detailed', '--fuse', `${refs[2]},${refs[1]}`, '--fuse', refs[0], '--fuse-k', '10', '국민', '주권']);
  for (const args of runs) {
    const js = run(bin, args, { input, encoding: 'buffer' });
    const native = run(cli, args, { input, encoding: 'buffer' });
    assert.equal(js.status, native.status, `${args.join(' ')}: ${js.stderr}`);
    assert.equal(js.stdout.toString(), native.stdout.toString(), args.join(' '));
    assert.equal(js.stderr.toString(), native.stderr.toString(), args.join(' '));
  }
});

test('bin: build indexes HTML and Markdown with Node alone, the same bytes as the native CLI', () => {
  const docs = path.join(scratch, 'docs');
  mkdirSync(path.join(docs, 'guide'), { recursive: true });
  writeFileSync(path.join(docs, 'guide/install.html'), '<html><head><title>설치 안내</title></head><body><h1>설치</h1><p>프로그램을 설치하려면 관리자 권한이 필요합니다. 설치 파일을 내려받아 실행하세요.</p><h2>문제 해결</h2><p>설치가 멈추면 백신 프로그램을 잠시 끄고 다시 시도합니다.</p></body></html>');
  writeFileSync(path.join(docs, 'faq.md'), '# 자주 묻는 질문\n\n## 비밀번호 변경\n\n설정 메뉴에서 비밀번호를 바꿀 수 있습니다. 새 비밀번호는 8자 이상이어야 합니다.\n\n## Refunds\n\nRefunds are paid within 14 days of the request.\n');
  writeFileSync(path.join(scratch, 'mine.toml'), [
    'name = "mine"', 'title = "My docs"', '',
    '[[input]]', 'format = "html"', 'path = "docs/guide"', '',
    '[[input]]', 'format = "markdown"', 'path = "docs"', 'link = "https://example.org/{id}"', ''].join('\n'));
  const js = run(bin, ['build', '--manifest', 'mine.toml', '--out', 'out/mine.ggi']);
  assert.equal(js.status, 0, js.stderr);
  assert.match(js.stdout, /^mine: 2 documents, \d+ chunks, \d+ terms, \d+ bytes/);
  const native = run(cli, ['build', '--manifest', 'mine.toml', '--out', 'native.ggi', '--quiet']);
  assert.equal(native.status, 0, native.stderr);
  assert.deepEqual(readFileSync(path.join(scratch, 'out/mine.ggi')), readFileSync(path.join(scratch, 'native.ggi')));
  // A collection with no anchor word gets a note on stderr from both faces, word for word.
  mkdirSync(path.join(scratch, 'tiny'), { recursive: true });
  writeFileSync(path.join(scratch, 'tiny/hr.md'), '# Vacation\n\nEmployees get 20 vacation days a year.\n\n## Sick leave\n\nTen paid sick days.\n');
  writeFileSync(path.join(scratch, 'tiny.toml'), 'name = "tiny"\ntitle = "HR"\n[[input]]\nformat = "markdown"\npath = "tiny"\n');
  const tinyJs = run(bin, ['build', '--manifest', 'tiny.toml', '--out', 'tiny-js.ggi']);
  const tinyNative = run(cli, ['build', '--manifest', 'tiny.toml', '--out', 'tiny-native.ggi', '--quiet']);
  assert.equal(tinyJs.status, 0, tinyJs.stderr);
  assert.match(tinyJs.stderr, /^note: tiny has no anchor words \(none in the manifest, none recur in its headings\)/);
  assert.equal(tinyJs.stderr, tinyNative.stderr);
  assert.equal(run(bin, ['build', '--manifest', 'mine.toml', '--out', 'out/mine2.ggi']).stderr, '', 'an index with anchors: no note');
  // What a build must not write over, on both faces alike: anything but nothing, an empty file or
  // an index (the manifest itself, a document, a pipe, a directory, a link), and an index of nothing.
  execFileSync('mkfifo', [path.join(scratch, 'fifo.ggi')]);
  mkdirSync(path.join(scratch, 'outdir'), { recursive: true });
  symlinkSync('native.ggi', path.join(scratch, 'link.ggi'));
  mkdirSync(path.join(scratch, 'blank'), { recursive: true });
  writeFileSync(path.join(scratch, 'blank/empty.md'), '');
  writeFileSync(path.join(scratch, 'blank.toml'), '[[input]]\nformat = "markdown"\npath = "blank"\n'.replace(/^/, 'name = "blank"\n'));
  writeFileSync(path.join(scratch, 'k1.toml'), readFileSync(path.join(scratch, 'mine.toml'), 'utf8') + '[bm25]\nk1 = -5.0\nb = 0.75\n');
  const manifestBefore = readFileSync(path.join(scratch, 'mine.toml'));
  for (const exe of [bin, cli]) {
    for (const [out, why] of [['mine.toml', /mine\.toml exists and is not an index file/], ['docs/faq.md', /faq\.md exists and is not an index file/],
      ['fifo.ggi', /fifo\.ggi exists and is not a regular file/], ['outdir', /outdir exists and is not a regular file/], ['link.ggi', /link\.ggi exists and is not a regular file/]]) {
      const r = run(exe, ['build', '--manifest', 'mine.toml', '--out', out, '--quiet']);
      assert.equal(r.status, 1, `${exe} --out ${out}: ${r.stderr}`);
      assert.match(r.stderr, why);
    }
    const blank = run(exe, ['build', '--manifest', 'blank.toml', '--out', 'blank.ggi', '--quiet']);
    assert.equal(blank.status, 1, blank.stderr);
    assert.match(blank.stderr, /the inputs hold no text \(1 document, 0 chunks\)/);
    const k1 = run(exe, ['build', '--manifest', 'k1.toml', '--out', 'k1.ggi', '--quiet']);
    assert.equal(k1.status, 1, k1.stderr);
    assert.match(k1.stderr, /k1 = -5, b = 0\.75: use k1 from 0 to 3 and b from 0 to 1/);
  }
  assert.deepEqual(readFileSync(path.join(scratch, 'mine.toml')), manifestBefore);
  assert.ok(statSync(path.join(scratch, 'outdir')).isDirectory());
  assert.deepEqual(readdirSync(scratch).filter((f) => f.endsWith('.tmp') || f === 'blank.ggi' || f === 'k1.ggi'), []);
  assert.equal(run(bin, ['build', '--manifest', 'mine.toml', '--out', ''], {}).status, 2);
  // Over an index (a rebuild) and an empty file, it writes.
  writeFileSync(path.join(scratch, 'empty.ggi'), '');
  for (const out of ['out/mine.ggi', 'empty.ggi']) assert.equal(run(bin, ['build', '--manifest', 'mine.toml', '--out', out, '--quiet']).status, 0);
  assert.deepEqual(readFileSync(path.join(scratch, 'empty.ggi')), readFileSync(path.join(scratch, 'native.ggi')));
  const found = run(bin, ['search', '--index', 'out/mine.ggi', '--k', '1', '--jsonl'], { input: '{"id":1,"query":"비밀번호 변경"}\n' });
  const hit = JSON.parse(found.stdout).hits[0];
  assert.equal(hit.source, 'faq');
  assert.equal(hit.link, 'https://example.org/faq');
  // With the package's thesaurus (every entry applied: a share of 1), 변경's everyday word 바꾸
  // finds the FAQ, built alike by Node and natively; without it, nothing. The same manifest
  // weighs the install guide (a `weights` section, written alike too).
  const thesaurus = path.relative(scratch, path.join(root, 'pkg/thesaurus/ko.toml'));
  writeFileSync(path.join(scratch, 'mine-th.toml'), readFileSync(path.join(scratch, 'mine.toml'), 'utf8')
    .replace('title = "My docs"', `title = "My docs"\nthesaurus = [${JSON.stringify(thesaurus)}]\nthesaurus_share = 1.0\n\n[source_weights]\n"*install*" = 1.5`));
  assert.equal(run(bin, ['build', '--manifest', 'mine-th.toml', '--out', 'out/mine-th.ggi', '--quiet']).status, 0);
  assert.equal(run(cli, ['build', '--manifest', 'mine-th.toml', '--out', 'native-th.ggi', '--quiet']).status, 0);
  assert.deepEqual(readFileSync(path.join(scratch, 'out/mine-th.ggi')), readFileSync(path.join(scratch, 'native-th.ggi')));
  assert.match(run(cli, ['info', '--index', 'native-th.ggi']).stdout, /\n  weights +\d+ bytes/);
  const everyday = (index) => JSON.parse(run(bin, ['search', '--index', index, '--k', '1', '--jsonl'], { input: '{"id":1,"query":"바꾸기"}\n' }).stdout).hits;
  assert.equal(everyday('out/mine-th.ggi')[0]?.source, 'faq');
  assert.deepEqual(everyday('out/mine.ggi'), []);
  // `prompt_language = "ko"` through the bin's indexer: written alike by Node and natively, and
  // then an English prompt is not about these documents (their English FAQ entry included).
  writeFileSync(path.join(scratch, 'mine-ko.toml'), readFileSync(path.join(scratch, 'mine.toml'), 'utf8')
    .replace('title = "My docs"', 'title = "My docs"\nprompt_language = "ko"'));
  assert.equal(run(bin, ['build', '--manifest', 'mine-ko.toml', '--out', 'out/mine-ko.ggi', '--quiet']).status, 0);
  assert.equal(run(cli, ['build', '--manifest', 'mine-ko.toml', '--out', 'native-ko.ggi', '--quiet']).status, 0);
  assert.deepEqual(readFileSync(path.join(scratch, 'out/mine-ko.ggi')), readFileSync(path.join(scratch, 'native-ko.ggi')));
  assert.match(run(cli, ['info', '--index', 'native-ko.ggi']).stdout, /\nprompts +in Korean/);
  const english = (index) => JSON.parse(run(bin, ['ask', '--index', index, '--jsonl', '--now', '0'],
    { input: '{"id":1,"prompt":"When are refunds paid after the request?"}\n' }).stdout);
  const [plain, korean] = [english('out/mine.ggi'), english('out/mine-ko.ggi')];
  assert.equal(plain.log.instances[0].gate.other_language, undefined);
  assert.equal(korean.log.instances[0].gate.other_language, true);
  assert.equal(korean.log.instances[0].outcome, 'not_relevant');
  assert.deepEqual([korean.route, korean.evidence], ['skip', []]);
  // A language the gate cannot tell: refused with a message, exit code 1, no file.
  writeFileSync(path.join(scratch, 'mine-en.toml'), readFileSync(path.join(scratch, 'mine-ko.toml'), 'utf8')
    .replace('prompt_language = "ko"', 'prompt_language = "en"'));
  const bad = run(bin, ['build', '--manifest', 'mine-en.toml', '--out', 'out/mine-en.ggi']);
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stderr, /prompt_language.*"en"; the gate can tell only \["ko"\]/);
  assert.equal(existsSync(path.join(scratch, 'out/mine-en.ggi')), false);
  // The repo's test data (every input format) too.
  const data = path.join(root, 'tests/data/excerpts.toml');
  assert.equal(run(bin, ['build', '--manifest', data, '--out', 'excerpts.ggi', '--quiet']).status, 0);
  assert.equal(run(cli, ['build', '--manifest', data, '--out', 'excerpts-native.ggi', '--quiet']).status, 0);
  assert.deepEqual(readFileSync(path.join(scratch, 'excerpts.ggi')), readFileSync(path.join(scratch, 'excerpts-native.ggi')));
});

test('bin: bad input is a message and an exit code, never a stack trace', () => {
  // Manifests with a bad thesaurus: a missing file, a share outside 0–1, an entry that is no list.
  const manifest = (lines) => ['name = "th"', ...lines, '[[input]]', 'format = "markdown"', 'path = "docs"', ''].join('\n');
  writeFileSync(path.join(scratch, 'th-missing.toml'), manifest(['thesaurus = ["none.toml"]']));
  writeFileSync(path.join(scratch, 'th-share.toml'), manifest(['thesaurus_share = 2.0']));
  writeFileSync(path.join(scratch, 'th-bad.toml'), '"x" = 3\n');
  writeFileSync(path.join(scratch, 'th-entry.toml'), manifest(['thesaurus = ["th-bad.toml"]']));
  writeFileSync(path.join(scratch, 'weights.toml'), manifest(['[source_weights]', '"guide/*" = 0']));
  const cases = [
    [['build', '--manifest', 'th-missing.toml', '--out', 'x.ggi'], 1, /^groundgate: bad input none\.toml: no such file or directory/],
    [['build', '--manifest', 'th-share.toml', '--out', 'x.ggi'], 1, /thesaurus_share:? 2: use a share of the chunks from 0 to 1/],
    [['build', '--manifest', 'th-entry.toml', '--out', 'x.ggi'], 1, /^groundgate: bad input th-bad\.toml: TOML parse error[^]*expected a sequence/],
    [['build', '--manifest', 'weights.toml', '--out', 'x.ggi'], 1, /source_weights:? "guide\/\*" = 0: use a number above 0 and at most 10/],
    [['search', '--index', 'missing.ggi', 'x'], 1, /^groundgate: missing\.ggi: no such file or directory\n$/],
    // Control characters in a message are shown escaped, as natively (no terminal escape sequences).
    [['search', '--index', '\u001b[31mx.ggi', 'x'], 1, /^groundgate: \\u\{1b\}\[31mx\.ggi: no such file or directory\n$/],
    [['search', '--index', path.join(root, 'README.md'), 'x'], 1, /not a groundgate index/],
    [['ask', '--index', fixture, '--now', 'soon', 'x'], 2, /--now/],
    [['ask'], 2, /'--index' is required/],
    [['search', '--index', fixture, '--k'], 2, /--k needs a value/],
    [['build', '--manifest', 'nope.toml', '--out', 'x.ggi'], 1, /^groundgate: bad input nope\.toml: no such file or directory/],
    [['build', '--manifest', 'mine.toml', '--out', 'x.ggi', '--text', 'zip'], 2, /one of ranked, hangul, lz4, plain/],
    [['mcp', '--index', path.join(root, 'README.md')], 1, /not a groundgate index/],
    [['frobnicate'], 2, /unknown command 'frobnicate'/],
    [['stats'], 2, /expected one LOGFILE/],
    [['stats', 'missing.jsonl'], 1, /^groundgate: missing\.jsonl: no such file or directory\n$/],
    // Operating-system errors worded as the native CLI words them (libuv says "illegal operation on a directory").
    [['stats', '.'], 1, /^groundgate: \.: is a directory\n$/],
    // A device is refused before it is read (it would be read until memory runs out), as natively.
    ...(process.platform === 'win32' ? [] : [
      [['stats', '/dev/zero'], 1, /^groundgate: \/dev\/zero: a device, not a file\n$/],
      [['ask', '--index', fixture, '--config', '/dev/zero', 'x'], 1, /^groundgate: \/dev\/zero: a device, not a file\n$/],
    ]),
    // Misplaced words, refused as the native CLI refuses them (tests/integration/cli.rs).
    [['search', '--index', fixture, fixture, '주권'], 2, /is an index file, not a word of the query: give each index its own --index/],
    [['search', '--index', fixture, '--jsonl', '주권'], 2, /with --jsonl the input comes from stdin/],
    [['grep', '--index', fixture, '--jsonl', '주권'], 2, /with --jsonl the input comes from stdin/],
    [['ask', '--index', fixture, '--jsonl', '주권'], 2, /with --jsonl the input comes from stdin/],
    [['ask', '--index', fixture, '주권은 누구에게'], 2, /'주권은 누구에게' is not an index file: --index takes every word up to the next flag/],
    // Nothing to ask or search for (stdin empty, no words) is an error, never a silent success.
    [['ask', '--index', fixture], 1, /^groundgate: no prompt: give one after --, or one a line on stdin\n$/],
    [['search', '--index', fixture], 2, /no query: give its words after the options/],
    [['grep', '--index', fixture], 2, /no text: give its words after the options/],
    // Stray words, an unknown language, a location without its source: usage errors, as natively.
    [['rules', 'ko'], 2, /unexpected argument 'ko'/],
    [['rules', '--lang', 'fr'], 2, /one of ko, en/],
    [['tools', 'x'], 2, /unexpected argument 'x'/],
    [['read', '--index', fixture, '--article', '1'], 2, /the argument '--source' is required/],
    [['links', '--index', fixture], 2, /the argument '--source' is required/],
    // A number past the tool's range: refused before any line is read, not once per line.
    [['grep', '--index', fixture, '--limit', '4294967296', '주권'], 2, /--limit: an integer from 1 up to 100/],
    [['grep', '--index', fixture, '--jsonl', '--limit', '500'], 2, /--limit: an integer from 1 up to 100/],
    [['read', '--index', fixture, '--jsonl', '--around', '9'], 2, /--around: a non-negative integer up to 5/],
    [['search', '--index', fixture, '--jsonl', '--k', '5000'], 2, /--k: an integer from 1 up to 1000/],
    [['search', '--index', fixture, '--jsonl', '--tool', '--k', '51'], 2, /--k: an integer from 1 up to 50/],
    // Short flags as clap reads them: -h is --help (below), any other is refused, never a query word.
    [['search', '--index', fixture, '-k', '3', '주권'], 2, /unexpected argument '-k'.*words that start with '-' go after --/],
    [['grep', '--index', fixture, '-V'], 2, /unexpected argument '-V'/],
    [['search', '--index', fixture, '--k', '0', '주권'], 2, /invalid value '0' for --k: an integer from 1/],
    // The one-index {"id","hits"} lines have no instance or detail: refused, not ignored (as natively).
    [['search', '--index', fixture, '--jsonl', '--instance', 'nope'], 2, /--instance is not part of the one-index/],
    [['search', '--index', fixture, '--jsonl', '--detailed'], 2, /--detailed is not part of the one-index/],
    // Stray words where the input comes from stdin or a flag.
    [['mcp', 'stray', '--index', fixture], 2, /unexpected argument 'stray'/],
    [['build', 'stray', '--manifest', 'mine.toml', '--out', 'x.ggi'], 2, /unexpected argument 'stray'/],
  ];
  for (const [args, code, pattern] of cases) {
    const r = run(bin, args, { input: '' });
    assert.equal(r.status, code, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern, args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at /, `no stack trace: ${args.join(' ')}`);
  }
  // Natively the same words are usage errors too (exit 2).
  for (const args of [['search', '--index', fixture, '-k', '3', '주권'], ['search', '--index', fixture, '--k', '0', '주권'],
    ['grep', '--index', fixture, '--jsonl', '--limit', '500'], ['read', '--index', fixture, '--jsonl', '--around', '9'],
    ['search', '--index', fixture, '--jsonl', '--k', '5000'], ['search', '--index', fixture, '--jsonl', '--tool', '--k', '51'],
    ['search', '--index', fixture, '--jsonl', '--instance', 'nope'], ['search', '--index', fixture, '--jsonl', '--detailed']]) {
    assert.equal(run(cli, args, { input: '' }).status, 2, `native ${args.join(' ')}`);
  }
  // A folder as stdin is an error, never an empty success; -h and `help ask` give a command's help.
  const folder = run(bin, ['search', '--index', fixture, '--jsonl'], { stdio: [openSync(scratch, 'r'), 'pipe', 'pipe'] });
  assert.equal(folder.status, 1, folder.stderr);
  assert.match(folder.stderr, /^groundgate: stdin: is a directory\n$/);
  // A full disk is one line and exit 1, never a stack trace (a closed pipe stays a quiet success).
  if (existsSync('/dev/full')) {
    for (const args of [['sources', '--index', fixture], ['ask', '--index', fixture, '--', '대한민국의 주권은 누구에게 있나요?']]) {
      const full = run(bin, args, { stdio: ['pipe', openSync('/dev/full', 'w'), 'pipe'] });
      assert.equal(full.status, 1, `${args[0]}: ${full.stderr}`);
      assert.match(full.stderr, /^groundgate: cannot write the output: .*space/);
      assert.doesNotMatch(full.stderr, /\n\s+at /);
    }
  }
  assert.match(run(bin, ['search', '--index', fixture, '-h']).stdout, /usage: groundgate search/);
  assert.match(run(bin, ['help', 'ask']).stdout, /usage: groundgate ask/);
  const help = run(bin, ['--help']);
  assert.equal(help.status, 0);
  for (const c of ['ask', 'search', 'grep', 'sources', 'read', 'links', 'tool', 'tools', 'build', 'mcp', 'rules', 'stats']) {
    assert.match(help.stdout, new RegExp(`^  ${c} `, 'm'));
    const own = run(bin, [c, '--help']);
    assert.equal(own.status, 0, `${c} --help: ${own.stderr}`);
    assert.match(own.stdout, new RegExp(`usage: groundgate ${c}`));
  }
});

test('bin: mcp serves the installed package to an MCP client', async () => {
  const req = (await import('node:module')).createRequire(path.join(scratch, 'x.js'));
  const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'pack-test', version: '0' });
  await client.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--index', fixture], stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['grep', 'links', 'read', 'search', 'sources']);
    const r = await client.callTool({ name: 'search', arguments: { query: '대한민국의 주권', k: 1 } });
    assert.equal(r.isError, undefined);
    assert.equal(r.structuredContent.results[0].article, '제1조');
  } finally {
    await client.close();
  }
});

test('an esbuild browser bundle loads the wasm in headless Chromium', async () => {
  const app = path.join(scratch, 'app');
  mkdirSync(path.join(app, 'dist'), { recursive: true });
  writeFileSync(path.join(app, 'main.js'), `
    import init, { Engine } from 'groundgate';
    await init();
    const bytes = new Uint8Array(await (await fetch('/excerpts.ggi')).arrayBuffer());
    const engine = new Engine();
    engine.addInstance('excerpts', bytes);
    const hits = engine.search('excerpts', '대한민국의 주권은 누구에게 있나요', 1);
    window.result = { article: hits[0].article, route: engine.ask('대한민국 헌법에서 주권은 누구에게 있나요?').route };`);
  const esbuild = (await import('esbuild')).default;
  await esbuild.build({ absWorkingDir: scratch, entryPoints: ['app/main.js'], bundle: true, format: 'esm', platform: 'browser', outfile: 'app/dist/main.js', logLevel: 'error' });
  // The wasm travels next to the bundle (the README's instruction).
  copyFileSync(path.join(scratch, 'node_modules/groundgate/web/groundgate_bg.wasm'), path.join(app, 'dist/groundgate_bg.wasm'));
  const files = {
    '/': ['text/html', '<!doctype html><meta charset="utf-8"><script type="module" src="/dist/main.js"></script>'],
    '/dist/main.js': ['text/javascript', readFileSync(path.join(app, 'dist/main.js'))],
    '/dist/groundgate_bg.wasm': ['application/wasm', readFileSync(path.join(app, 'dist/groundgate_bg.wasm'))],
    '/excerpts.ggi': ['application/octet-stream', readFileSync(fixture)],
  };
  const server = http.createServer((q, s) => {
    const f = files[new URL(q.url, 'http://x').pathname];
    if (f) s.writeHead(200, { 'content-type': f[0] }).end(f[1]);
    else s.writeHead(404).end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { chromium } = await import('playwright-core');
  // The server closes whatever happens (a failed launch left it open and the suite never ended).
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  }).catch((e) => {
    server.close();
    throw e;
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.result || null, null, { timeout: 15000 }).catch(() => {});
    assert.deepEqual(errors, []);
    const result = await page.evaluate(() => window.result);
    assert.equal(result.article, '제1조');
    assert.ok(['push', 'pull', 'skip'].includes(result.route));
  } finally {
    await browser.close();
    server.close();
  }
});
