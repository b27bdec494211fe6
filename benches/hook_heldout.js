// Usage: node benches/hook_heldout.js [LABEL_DIR] (after ./build.sh; default benches/data/heldout).
// One hook process per prompt: run the labelled prompts through `groundgate hook claude-code` (one
// process each, a fresh session each) and compare with ask (library, no session): push → same
// evidence block; skip/pull → no evidence. Every pushed prompt is then asked once more in its
// session, by a new process (issue 12's "a repeated question in one session does not repeat its
// evidence"): no chunk may be shown again (the session's state file then lists every chunk of both
// answers once), and, stricter, no passage of the first answer may come back whole inside the
// second (another chunk may hold the same sentences: the manuals repeat text on other pages).
// GG_SHOW=1 lists on stderr the prompts whose second answer repeats a passage.
const fs = require('fs'), path = require('path');
const u = require('../tests/hosts/util');
const gg = require('../pkg/node/groundgate.js');
(async () => {
  const recs = [];
  const dir = process.argv[2] || `${__dirname}/data/heldout`;
  for (const f of ['questions_en', 'questions_ko', 'sentences_ko', 'unrelated']) {
    if (fs.existsSync(`${dir}/${f}.jsonl`)) for (const l of fs.readFileSync(`${dir}/${f}.jsonl`, 'utf8').trim().split('\n')) recs.push(JSON.parse(l));
  }
  const e = new gg.Engine();
  for (const f of u.INDEXES) { const b = fs.readFileSync(f); const i = new gg.Index(b); e.addInstance(i.info().name, b); i.free(); }
  const state = u.tmpdir('heldout');
  const times = []; let same = 0, push = 0, noChunkAgain = 0, notRepeated = 0, bad = [], maxLen = 0, counts = {push:0,pull:0,skip:0}, sentEvidence = 0, unrelatedAdded = 0;
  for (const r of recs) {
    const a = e.ask(r.prompt);
    counts[a.route]++;
    // Each prompt's session in a state folder of its own, so that its file can be read below.
    const own = path.join(state, r.id);
    const hook = () => u.run(process.execPath, [u.BIN, 'hook', 'claude-code', ...u.INDEXES.flatMap(f => ['--index', f]), '--state', own], { input: JSON.stringify({ session_id: r.id, prompt: r.prompt, hook_event_name: 'UserPromptSubmit' }) });
    const out = await hook();
    times.push(out.ms);
    if (out.code !== 0) bad.push([r.id, 'exit', out.code]);
    const ctx = out.stdout ? JSON.parse(out.stdout).hookSpecificOutput.additionalContext : '';
    maxLen = Math.max(maxLen, ctx.length);
    if (a.route === 'push') {
      push++;
      if (ctx.startsWith(a.context)) same++; else bad.push([r.id, 'block differs']);
      const again = await hook();
      const ctx2 = again.stdout ? JSON.parse(again.stdout).hookSpecificOutput.additionalContext : '';
      const items = (c) => c.split('\n').filter(l => /^\[\d+\] /.test(l)).length;
      const files = fs.readdirSync(own).filter(f => f.endsWith('.session'));
      const stored = files.length === 1 ? fs.readFileSync(path.join(own, files[0]), 'utf8').trim().split('\n').length - 1 : -1;
      if (again.code === 0 && stored === items(ctx) + items(ctx2)) noChunkAgain++;
      else bad.push([r.id, `chunks stored ${stored}, shown ${items(ctx)} + ${items(ctx2)}`]);
      // The first answer's passages (each item's text, between its `[n]` line and the next item
      // or source line): none may come back whole. A line alone may (the manuals repeat sentences
      // on other pages; help pages share their "related topics" lines): that is another chunk.
      const passages = [];
      for (const l of ctx.split('\n')) {
        if (/^\[\d+\] /.test(l)) passages.push([]);
        else if (/^\[S\d+\] /.test(l) || l.startsWith('</groundgate-evidence>')) passages.push(null);
        else if (passages.length && passages[passages.length - 1]) passages[passages.length - 1].push(l);
      }
      const texts = passages.filter(p => p && p.join('\n').length > 40).map(p => p.join('\n'));
      if (again.code === 0 && texts.length > 0 && texts.every(t => !ctx2.includes(t))) notRepeated++; else if (process.env.GG_SHOW) console.error(r.id, r.prompt);
    }
    else if (ctx.includes('<groundgate-evidence>')) bad.push([r.id, 'evidence on ' + a.route]);
    if (r.kind === 'sentence' && ctx.includes('<groundgate-evidence>')) sentEvidence++;
    if (r.kind === 'unrelated' && ctx) unrelatedAdded++;
  }
  const s = [...times].sort((a, b) => a - b);
  console.log(JSON.stringify({ prompts: recs.length, routes: counts, push_same_block: `${same}/${push}`, asked_again_no_chunk_repeated: `${noChunkAgain}/${push}`, asked_again_no_passage_repeated: `${notRepeated}/${push}`, problems: bad.slice(0, 5), max_chars: maxLen, sentences_with_evidence: sentEvidence, unrelated_with_output: `${unrelatedAdded}/${recs.filter(r => r.kind === 'unrelated').length}`, p50_ms: Math.round(s[Math.floor(s.length / 2)]), max_ms: Math.round(s[s.length - 1]) }));
  fs.rmSync(state, { recursive: true, force: true });
})();
