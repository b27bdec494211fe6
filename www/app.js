// groundgate browser demo: loads pkg/web and the default indexes, asks, and shows the verdict,
// each instance's gates, the cited evidence, the hints and the context block. Every piece of
// document text goes into the page with textContent — never as HTML.
import init, { Engine, Index } from '../pkg/web/groundgate.js';

const DEFAULTS = ['rnd', 'constitution', 'lohelp', 'pyfaq'];
const EXAMPLES = [
  ['question', '연구수당은 얼마까지 계상할 수 있나요?'],
  ['polite request', '헌법에서 농지 소작 금지 조항 찾아 주세요'],
  ['pasted sentence', '주관연구개발기관은 단계 종료일로부터 3개월 안에 연구개발비 사용실적보고서를 제출하여야 한다.'],
  ['unrelated', 'React useEffect가 두 번 실행되는데 어떻게 고치나요?'],
  ['forced tag', '#constitution 대통령의 임기'],
  ['English', 'Why must dictionary keys be immutable?'],
];

const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
};

let engine;
let sessionId = `demo-${Date.now()}`;

/** Indexes that could not be loaded, each with why: shown under the loaded ones until replaced. */
const failures = new Map();

function listInstances() {
  const box = $('instances');
  box.replaceChildren();
  for (const name of engine.instances()) {
    const info = engine.info(name);
    box.append(el('span', `${name} · ${info.title} · ${info.chunks} chunks`, 'inst'));
  }
  for (const [what, why] of failures) box.append(el('span', `${what}: ${why}`, 'loadError'));
  if (engine.instances().length === 0) {
    box.append(el('span', 'No index is loaded: build the default indexes with ./build.sh, or drop a .ggi file below.', 'loadError'));
  }
  $('ask').disabled = engine.instances().length === 0;
  showCharts();
  document.body.dataset.ready = 'true';
}

/** An error as one line: its code (typed errors of the package have one) and message. */
const why = (e) => `${e && e.code ? `${e.code}: ` : ''}${e && e.message ? e.message : String(e)}`;

// The precomputed charts (docs/charts/, from `./build.sh charts`) describe the default indexes:
// shown when one of them is loaded, and any other loaded index is named as not covered.
function showCharts() {
  const names = engine.instances();
  $('charts').hidden = !names.some((n) => DEFAULTS.includes(n));
  const others = names.filter((n) => !DEFAULTS.includes(n));
  $('chartsOthers')?.remove();
  if (others.length > 0) {
    const p = el('p', `Not covered by these charts: ${others.join(', ')} (no labelled prompts for it here).`);
    p.id = 'chartsOthers';
    $('chartsNote').after(p);
  }
}

async function load() {
  await init();
  engine = new Engine();
  for (const name of DEFAULTS) {
    try {
      const res = await fetch(`../indexes/${name}.ggi`);
      if (!res.ok) throw new Error(`HTTP ${res.status} for indexes/${name}.ggi`);
      engine.addInstance(name, new Uint8Array(await res.arrayBuffer()));
    } catch (e) {
      failures.set(name, why(e));
    }
  }
  listInstances();
}

async function addFile(file) {
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Read the name and check every checksum before the loaded index of that name is replaced:
    // a damaged file must not unload a good one.
    const index = new Index(bytes);
    let name;
    try {
      name = index.info().name;
      index.verify();
    } finally {
      index.free();
    }
    if (engine.instances().includes(name)) engine.removeInstance(name);
    engine.addInstance(name, bytes, { verify: false }); // verified just above
    failures.delete(file.name);
    failures.delete(name); // a default index that failed to load, now loaded
  } catch (e) {
    failures.set(file.name, why(e));
  }
  listInstances();
}

/** An evidence link as a page link: web addresses only (an index's link is text its builder wrote). */
function safeHref(link) {
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** What decided an instance's outcome when a rule, not the judges' scores, did. */
function outcomeText(l) {
  const g = l.gate;
  const rules = [];
  if (g && g.outside_name) rules.push(`names ${g.outside_name}, which its documents never do`);
  if (g && g.other_language) rules.push('the prompt is not in its documents\' language');
  return rules.length ? `${l.outcome} (${rules.join('; ')})` : l.outcome;
}

function citeLine(c) {
  const parts = [c.title];
  if (c.page != null) parts.push(`p.${c.page}`);
  if (c.article) parts.push(c.article);
  if (c.section) parts.push(`§${c.section}`);
  if (c.heading && c.heading !== c.section) parts.push(c.heading);
  if (c.date) parts.push(`as of ${c.date}`);
  return parts.join(' · ');
}

function render(a) {
  $('output').hidden = false;
  const route = $('route');
  route.textContent = a.route;
  route.className = `route-${a.route}`;
  $('kind').textContent = a.kind;
  $('confidence').textContent = `confidence ${a.confidence}`;
  $('reasons').replaceChildren(...a.reasons.map((r) => el('li', r)));

  const rows = a.log.instances.map((l) => {
    const tr = document.createElement('tr');
    const g = l.gate;
    const used = document.createElement('td');
    const bar = el('span', '', 'bar');
    bar.style.width = `${l.budget ? Math.round((100 * l.chars) / l.budget) : 0}px`;
    used.append(bar, document.createTextNode(`${l.chars} / ${l.budget}`));
    tr.append(
      el('td', l.instance + (l.forced ? ' (forced)' : '')),
      el('td', outcomeText(l)),
      el('td', l.anchors.join(', ')),
      el('td', g ? `${g.relevance} / ${g.relevance_threshold}` : '–'),
      el('td', g ? `${g.sufficiency} / ${g.sufficiency_threshold}` : '–'),
      used,
      el('td', l.dedup_skipped.length ? `${l.dedup_skipped.length} chunks` : ''),
    );
    return tr;
  });
  $('gates').tBodies[0].replaceChildren(...rows);

  $('evidence').replaceChildren(...a.evidence.map((e) => {
    const li = document.createElement('li');
    const head = el('div', `${citeLine(e)} (${e.instance}, score ${e.score}, ${e.chars} chars) `, 'cite');
    const href = e.link ? safeHref(e.link) : null;
    if (href) {
      const link = el('a', 'link');
      link.href = href;
      link.rel = 'noopener noreferrer';
      link.target = '_blank';
      head.append(link);
    } else if (e.link) {
      head.append(el('span', `link: ${e.link}`, 'rawlink'));
    }
    li.append(head, el('div', e.text, 'evtext'));
    return li;
  }));
  if (a.evidence.length === 0) $('evidence').replaceChildren(el('li', '(nothing injected)'));

  $('hintsBox').hidden = a.hints.length === 0;
  $('hints').replaceChildren(...a.hints.map((h) => el('li', `${h.tool}(${JSON.stringify(h.arguments)})`)));
  $('context').textContent = a.context || '(empty: nothing to inject)';
}

function ask() {
  const prompt = $('prompt').value;
  const options = { format: $('detailed').checked ? 'detailed' : 'short' };
  if ($('session').checked) options.session = sessionId;
  try {
    render(engine.ask(prompt, options));
  } catch (e) {
    $('output').hidden = false;
    $('route').textContent = 'error';
    $('route').className = 'route-skip';
    $('kind').textContent = e.code ?? '';
    $('confidence').textContent = '';
    $('reasons').replaceChildren(el('li', e.message));
    // Nothing of the previous answer stays on screen under the error.
    $('gates').tBodies[0].replaceChildren();
    $('evidence').replaceChildren();
    $('hints').replaceChildren();
    $('hintsBox').hidden = true;
    $('context').textContent = '';
  }
}

for (const [label, text] of EXAMPLES) {
  const b = el('button', label);
  b.dataset.prompt = text;
  b.addEventListener('click', () => { $('prompt').value = text; ask(); });
  $('examples').append(b);
}
$('ask').addEventListener('click', ask);
$('newSession').addEventListener('click', () => { sessionId = `demo-${Date.now()}`; });
$('file').addEventListener('change', (ev) => { for (const f of ev.target.files) addFile(f); });
const drop = $('drop');
drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (ev) => {
  ev.preventDefault();
  drop.classList.remove('over');
  for (const f of ev.dataTransfer.files) addFile(f);
});
load().catch((e) => { $('status').textContent = `failed to load: ${e.message}`; });
