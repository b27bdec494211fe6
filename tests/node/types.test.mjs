// The published TypeScript types (pkg/node/groundgate.d.ts) against what the runtime returns: every
// field an object has is declared on its interface, and every field the interface requires is
// there — for the ask contract (short and detailed), the index info and each pull tool's result.
// tsc (tests/types/usage.ts) checks that the types compile; this checks that they tell the truth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const gg = require(path.join(root, 'pkg/node/groundgate.js'));
const dts = readFileSync(path.join(root, 'pkg/node/groundgate.d.ts'), 'utf8');
const fixture = readFileSync(path.join(root, 'tests/fixtures/v5/excerpts.ggi'));

/** An interface's top-level fields, [required, optional], with those of the interfaces it extends. */
function fields(name) {
  const m = dts.match(new RegExp(`export interface ${name}(?: extends ([A-Za-z, ]+))? \\{`));
  assert.ok(m, `interface ${name} in the .d.ts`);
  let i = m.index + m[0].length;
  let body = '';
  for (let depth = 1; ; i++) {
    const c = dts[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) break;
    body += c;
  }
  body = body.replace(/\/\*[\s\S]*?\*\//g, '');
  // Only what is written at the interface's own level (not inside nested object types).
  let top = '';
  let depth = 0;
  for (const c of body) {
    if ('{[('.includes(c)) depth++;
    if (depth === 0) top += c;
    if ('}])'.includes(c)) depth--;
  }
  const required = new Set();
  const optional = new Set();
  for (const f of top.matchAll(/(\w+)(\??):/g)) (f[2] ? optional : required).add(f[1]);
  for (const parent of (m[1] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [r, o] = fields(parent);
    r.forEach((x) => required.add(x));
    o.forEach((x) => optional.add(x));
  }
  return [required, optional];
}

function declares(name, value) {
  const [required, optional] = fields(name);
  const keys = Object.keys(value);
  assert.deepEqual(keys.filter((k) => !required.has(k) && !optional.has(k)), [], `${name}: fields the .d.ts does not declare`);
  assert.deepEqual([...required].filter((k) => !keys.includes(k)), [], `${name}: declared fields the runtime leaves out`);
}

test('the .d.ts declares every field the runtime returns, and nothing it leaves out', () => {
  const e = new gg.Engine();
  e.addInstance('excerpts', fixture);
  const detailed = e.ask('대한민국의 주권은 누구에게 있나요?', { format: 'detailed' });
  assert.equal(detailed.route, 'push');
  declares('Answer', detailed);
  declares('DecisionLog', detailed.log);
  const inst = detailed.log.instances[0];
  declares('InstanceLog', inst);
  declares('Judgement', inst.gate);
  declares('Features', inst.gate.features);
  declares('Evidence', detailed.evidence[0]);
  declares('Evidence', e.ask('대한민국의 주권은 누구에게 있나요?', { session: 'other' }).evidence[0]);
  declares('Hit', e.search('excerpts', '주권', 3)[0]);
  declares('IndexMeta', new gg.Index(fixture).info());
  for (const detailedHits of [false, true]) {
    const s = e.callTool('search', { query: '국민 주권', detailed: detailedHits });
    declares('SearchResult', s);
    declares('SearchItem', s.results[0]);
    const g = e.callTool('grep', { text: '주권', detailed: detailedHits });
    declares('GrepResult', g);
    declares('GrepMatch', g.matches[0]);
  }
  const sources = e.callTool('sources', {});
  declares('SourcesResult', sources);
  for (const s of sources.sources) declares('SourceEntry', s);
  const read = e.callTool('read', { source: 'constitution', article: 2, around: 1 });
  declares('ReadResult', read);
  declares('ReadPart', read.before[0]);
  declares('LinksResult', e.callTool('links', { source: 'notice-2026-01' }));
  e.free();
});
