// Usage: node benches/hook_heldout.js (after ./build.sh). One hook process per held-out prompt.
// Run the held-out prompts through `groundgate hook claude-code` (one process each, a fresh session
// each) and compare with ask (library, no session): push → same evidence block; skip/pull → no evidence.
const fs = require('fs'), path = require('path');
const u = require('../tests/hosts/util');
const gg = require('../pkg/node/groundgate.js');
(async () => {
  const recs = [];
  for (const f of ['questions_en', 'questions_ko', 'sentences_ko', 'unrelated']) for (const l of fs.readFileSync(`${__dirname}/data/heldout/${f}.jsonl`, 'utf8').trim().split('\n')) recs.push(JSON.parse(l));
  const e = new gg.Engine();
  for (const f of u.INDEXES) { const b = fs.readFileSync(f); const i = new gg.Index(b); e.addInstance(i.info().name, b); i.free(); }
  const state = u.tmpdir('heldout');
  const times = []; let same = 0, push = 0, bad = [], maxLen = 0, counts = {push:0,pull:0,skip:0}, sentEvidence = 0, unrelatedAdded = 0;
  for (const r of recs) {
    const a = e.ask(r.prompt);
    counts[a.route]++;
    const out = await u.run(process.execPath, [u.BIN, 'hook', 'claude-code', ...u.INDEXES.flatMap(f => ['--index', f]), '--state', state], { input: JSON.stringify({ session_id: r.id, prompt: r.prompt, hook_event_name: 'UserPromptSubmit' }) });
    times.push(out.ms);
    if (out.code !== 0) bad.push([r.id, 'exit', out.code]);
    const ctx = out.stdout ? JSON.parse(out.stdout).hookSpecificOutput.additionalContext : '';
    maxLen = Math.max(maxLen, ctx.length);
    if (a.route === 'push') { push++; if (ctx.startsWith(a.context)) same++; else bad.push([r.id, 'block differs']); }
    else if (ctx.includes('<groundgate-evidence>')) bad.push([r.id, 'evidence on ' + a.route]);
    if (r.kind === 'sentence' && ctx.includes('<groundgate-evidence>')) sentEvidence++;
    if (r.kind === 'unrelated' && ctx) unrelatedAdded++;
  }
  const s = [...times].sort((a, b) => a - b);
  console.log(JSON.stringify({ prompts: recs.length, routes: counts, push_same_block: `${same}/${push}`, problems: bad.slice(0, 5), max_chars: maxLen, sentences_with_evidence: sentEvidence, unrelated_with_output: `${unrelatedAdded}/${recs.filter(r => r.kind === 'unrelated').length}`, p50_ms: Math.round(s[Math.floor(s.length / 2)]), max_ms: Math.round(s[s.length - 1]) }));
  fs.rmSync(state, { recursive: true, force: true });
})();
