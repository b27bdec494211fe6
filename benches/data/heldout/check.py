#!/usr/bin/env python3
"""Validate the held-out evaluation set in this directory against the registry corpus.

Checks: JSON parses, record counts, unique ids (hq/hs/hu/he) across all files, required
fields and kind/route per file, domain and variant counts, every gold reference exists
(manual printed pages, constitution articles of the main text, LibreOffice help ids,
Python FAQ file + exact heading), at most 3 pages per gold entry, verbatim sentences occur on
their first gold page / article (whitespace-insensitive), restated sentences occur nowhere
in their manual, Korean questions share at most 13 consecutive characters with the manuals'
own FAQ questions, every constitution chapter is asked about, polite requests are marked and
counted, the colloquial questions listed below exist, unrelated prompts carry no gold and
include long logs and prompts sharing words with the corpus. No prompt may be copied or lightly
edited from ../unrelated_prompts.jsonl, ../polite_requests.jsonl or (with --devset) the devset.

Usage: python3 check.py [--registry DIR] [--devset DIR]
  --registry  the corpus (default: shared/data/registry next to the repository)
  --devset    optional: the development set's directory, to check that nothing was copied from it
Standard library only. Exit status 0 when every check passes.
"""
import argparse
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

EXPECTED = {
    'questions_ko.jsonl': dict(n=100, kind='question', route='push', prefix='hq',
                               domains={'rnd_manual': 50, 'constitution': 25, 'libreoffice_help': 25}),
    'sentences_ko.jsonl': dict(n=50, kind='sentence', route='pull', prefix='hs',
                               domains={'rnd_manual': 40, 'constitution': 10}),
    'unrelated.jsonl': dict(n=70, kind='unrelated', route='skip', prefix='hu'),
    'questions_en.jsonl': dict(n=30, kind='question', route='push', prefix='he',
                               domains={'python_faq': 30}),
}
WANT_VARIANTS = {('rnd_manual', 'verbatim'): 20, ('constitution', 'verbatim'): 10, ('rnd_manual', 'restated'): 20}
MANUAL_STEMS = ['manual_body', 'manual_b1', 'manual_b2', 'manual_b3', 'manual_b4', 'manual_case', 'manual_eval']
MIN_PER_MANUAL = 3          # manual questions per manual (by first gold source)
MIN_POLITE = 25
MIN_COLLOQUIAL = 20
MIN_SHARED_WORDS = 20
MIN_LONG_LOGS = 2
FAQ_MAX_RUN = 13            # longest run of characters a question may share with a manual FAQ question
# Questions written in everyday wording against the documents' formal wording (judged by the author).
COLLOQUIAL = {
    'hq006', 'hq007', 'hq010', 'hq013', 'hq020', 'hq021', 'hq022', 'hq036', 'hq038', 'hq040', 'hq042',
    'hq046', 'hq049', 'hq054', 'hq055', 'hq064', 'hq065', 'hq066', 'hq068', 'hq070', 'hq071', 'hq074',
    'hq075', 'hq076', 'hq078', 'hq081', 'hq084', 'hq087', 'hq093', 'hq094', 'hq095', 'hq097', 'hq100',
}
# Request endings that make a prompt a polite request (…알려 주세요, …해줘, …부탁드려요, …정리해 줄래?).
POLITE_END = re.compile(r'(주세요|줘|줄래|드려요|드립니다|주실래요)[.!?]?$')
# Words that tie an unrelated prompt to the corpus vocabulary without making it about the corpus.
CORPUS_WORDS_KO = ['연구', '계약', '평가', '예산', '과제', '기관', '헌법', '서식', '표', '셀', '파이썬', 'python',
                   'dictionary', '리스트']
CORPUS_WORDS_EN = ['article', 'budget', 'evaluation', 'contract', 'research', 'agency', 'constitution',
                   'python', 'list', 'dictionary', 'table']
TAGS = {'long_log', 'very_short', 'shares_corpus_words'}

errors = []


def err(msg):
    errors.append(msg)


def norm(s):
    return re.sub(r'\s+', '', s)


# ---------------------------------------------------------------- corpus loaders
def load_manuals(reg):
    d = os.path.join(reg, 'pypi-korean-rnd-regs-mcp-0.61.0')
    out = {}
    for stem in MANUAL_STEMS:
        with open(os.path.join(d, stem + '.json'), encoding='utf-8') as f:
            m = json.load(f)
        pages = {}
        for sec in m['sections']:
            for p in sec['pages']:
                # a printed page can be split across sections: keep all its text
                pages.setdefault(p['printed_page'], []).append(p['text'])
        out[stem] = {k: '\n'.join(v) for k, v in pages.items()}
    return out


def load_constitution(reg):
    """Main-text articles {n: text} and their chapter {n: chapter number}; stops at the 부칙."""
    path = os.path.join(reg, 'pypi-konlpy-0.6.0', 'kolaw', 'constitution.txt')
    with open(path, encoding='utf-8') as f:
        lines = f.read().replace('\r\n', '\n').split('\n')
    arts, chapter, cur, ch = {}, {}, None, None
    for line in lines:
        s = line.strip()
        if '부칙' in s:  # the supplementary provisions restart numbering at 제1조
            break
        m = re.match(r'^제(\d+)장', s)
        if m:
            ch, cur = int(m.group(1)), None
            continue
        if re.match(r'^제\d+절', s):
            cur = None
            continue
        m = re.match(r'^제(\d+)조', s)
        if m:
            cur = int(m.group(1))
            arts[cur] = s
            chapter[cur] = ch
        elif cur is not None and s:
            arts[cur] += '\n' + s
    return arts, chapter


def load_lo(reg):
    ids = set()
    with open(os.path.join(reg, 'deb-libreoffice-help-ko', 'docs.jsonl'), encoding='utf-8') as f:
        for line in f:
            ids.add(json.loads(line)['id'])
    return ids


def rst_headings(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out = set()
    underline = re.compile(r'([=\-~^"\'`#*+])\1+')
    for a, b in zip(lines, lines[1:]):
        a, b = a.strip(), b.strip()
        if a and b and underline.fullmatch(b) and not underline.fullmatch(a) and len(b) >= len(a):
            out.add(a)
    return out


def load_pyfaq(reg):
    out = {}
    for p in glob.glob(os.path.join(reg, 'deb-python3.11-doc', 'faq-rst', '*.rst.txt')):
        out[os.path.basename(p)[:-len('.rst.txt')]] = rst_headings(p)
    return out


def load_faq_questions(reg, manuals):
    """The manuals' own FAQ wording: rnd_manual_faq_ko.jsonl plus 'Qn.' lines in the page text."""
    qs = []
    with open(os.path.join(reg, 'pypi-korean-rnd-regs-mcp-0.61.0', 'rnd_manual_faq_ko.jsonl'),
              encoding='utf-8') as f:
        for line in f:
            qs.append(json.loads(line)['question'])
    for pages in manuals.values():
        for text in pages.values():
            for m in re.finditer(r'Q\s*\d*\.\s*([^\n]+(?:\n[^\nQ\-∙※]+)?)', text):
                qs.append(m.group(1))
    return [norm(q) for q in qs if q.strip()]


def longest_shared_run(q, haystack):
    """Length of the longest substring of q that occurs in haystack."""
    best = 0
    for i in range(len(q)):
        k = best + 1
        while i + k <= len(q) and q[i:i + k] in haystack:
            best = k
            k += 1
    return best


# ---------------------------------------------------------------- gold validation
def check_gold(rid, gold, manuals, arts, lo_ids, pyfaq):
    if not isinstance(gold, list) or not gold:
        err('%s: gold must be a non-empty list' % rid)
        return
    for g in gold:
        src = g.get('source')
        if src in manuals:
            pages = g.get('pages')
            if not pages or not isinstance(pages, list):
                err('%s: %s gold without pages' % (rid, src))
                continue
            if len(pages) > 3:
                err('%s: more than 3 pages for %s' % (rid, src))
            if len(set(pages)) != len(pages):
                err('%s: duplicate pages for %s' % (rid, src))
            for p in pages:
                if p not in manuals[src]:
                    err('%s: %s has no printed page %r' % (rid, src, p))
        elif src == 'constitution':
            a = g.get('articles')
            if not a:
                err('%s: constitution gold without articles' % rid)
                continue
            for n in a:
                if n not in arts:
                    err('%s: constitution has no main-text article %r' % (rid, n))
        elif src in pyfaq:
            if g.get('section') not in pyfaq[src]:
                err('%s: heading not found in %s.rst.txt: %r' % (rid, src, g.get('section')))
        elif src in lo_ids:
            pass
        else:
            err('%s: unknown gold source %r' % (rid, src))


def read_jsonl(path, name):
    rows = []
    with open(path, encoding='utf-8') as f:
        for ln, line in enumerate(f, 1):
            if not line.strip():
                err('%s:%d: empty line' % (name, ln))
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                err('%s:%d: bad JSON (%s)' % (name, ln, e))
    return rows


# ---------------------------------------------------------------- registry and corpus (shared by
# the label validators: heldout, train, train2, train3)
def find_registry(registry):
    """The registry directory: `registry` if given, else the repository's sibling
    ../shared/data/registry (also from a worktree under wt/NAME); exits when there is none."""
    if registry is None:
        root = os.path.join(HERE, '..', '..', '..')
        for cand in (os.path.join(root, '..', 'shared', 'data', 'registry'),
                     os.path.join(root, '..', '..', 'shared', 'data', 'registry')):
            if os.path.isdir(cand):
                registry = cand
                break
        else:
            sys.exit('registry not found next to the repository; pass --registry DIR')
    if not os.path.isdir(os.path.join(registry, 'pypi-korean-rnd-regs-mcp-0.61.0')):
        sys.exit('not a registry directory (no pypi-korean-rnd-regs-mcp-0.61.0/ inside): %s' % registry)
    return registry


def training_args(here):
    """The training-set validators' command line: --registry (resolved by find_registry),
    --devset, --compare (repeatable), --partial, --dir (default `here`, the validator's directory)."""
    ap = argparse.ArgumentParser()
    ap.add_argument('--registry', default=None)
    ap.add_argument('--devset', default=None)
    ap.add_argument('--compare', action='append', default=[])
    ap.add_argument('--partial', action='store_true')
    ap.add_argument('--dir', default=here)
    args = ap.parse_args()
    args.registry = find_registry(args.registry)
    return args


def load_corpus(reg):
    """manuals, constitution articles and chapters, help page ids, FAQ headings, and the manuals'
    own FAQ wording joined for substring search."""
    manuals = load_manuals(reg)
    arts, chapter = load_constitution(reg)
    if len(arts) != 130:
        err('constitution parser found %d main-text articles, expected 130' % len(arts))
    faq_hay = '\x00'.join(load_faq_questions(reg, manuals))
    return manuals, arts, chapter, load_lo(reg), load_pyfaq(reg), faq_hay


def check_records(name, rows, exp, all_ids):
    """Per record of file `name`: id (prefix + 3 digits, unique over `all_ids`), kind and route,
    a prompt, `polite` only on Korean questions; then the file's domain counts."""
    for r in rows:
        rid = r.get('id')
        if not isinstance(rid, str) or not re.fullmatch(exp['prefix'] + r'\d{3}', rid):
            err('%s: bad id %r' % (name, rid))
        if rid in all_ids:
            err('duplicate id %s' % rid)
        all_ids.add(rid)
        if r.get('kind') != exp['kind'] or r.get('route') != exp['route']:
            err('%s: kind/route %r/%r' % (rid, r.get('kind'), r.get('route')))
        if not isinstance(r.get('prompt'), str) or not r['prompt'].strip():
            err('%s: empty prompt' % rid)
            r['prompt'] = ''
        if 'polite' in r and (name != 'questions_ko.jsonl' or r['polite'] is not True):
            err('%s: "polite" belongs only on Korean questions, as true' % rid)
    if 'domains' in exp:
        got = {}
        for r in rows:
            got[r.get('domain')] = got.get(r.get('domain'), 0) + 1
        if got != exp['domains']:
            err('%s: domain counts %r, expected %r' % (name, got, exp['domains']))


def check_unique_prompts(data):
    """No two records of any file share a prompt (whitespace aside)."""
    prompts = {}
    for rows in data.values():
        for r in rows:
            p = norm(r.get('prompt', ''))
            if p in prompts:
                err('%s: same prompt as %s' % (r.get('id'), prompts[p]))
            prompts[p] = r.get('id')


def check_questions(data, manuals, arts, lo_ids, pyfaq):
    """Every question (Korean and English) has verified gold of its domain and an answer hint."""
    for name in ('questions_ko.jsonl', 'questions_en.jsonl'):
        for r in data.get(name, []):
            check_gold(r['id'], r.get('gold'), manuals, arts, lo_ids, pyfaq)
            if not r.get('answer_hint'):
                err('%s: missing answer_hint' % r['id'])
            dom = r.get('domain')
            srcs = {g.get('source') for g in r.get('gold') or [] if isinstance(g, dict)}
            if dom == 'rnd_manual' and not srcs <= set(MANUAL_STEMS):
                err('%s: manual question with non-manual gold' % r['id'])
            if dom == 'constitution' and srcs != {'constitution'}:
                err('%s: constitution question with other gold' % r['id'])
            if dom == 'libreoffice_help' and not all(s in lo_ids for s in srcs):
                err('%s: LibreOffice question with non-help gold' % r['id'])
            if dom == 'python_faq' and not all(s in pyfaq for s in srcs):
                err('%s: Python FAQ question with other gold' % r['id'])


def check_spread(qko, chapter, full=True):
    """Manual questions spread over every manual (by first gold source) and constitution questions
    over all ten chapters; `full` False skips these counts (a partial set). Returns (questions per
    manual, chapters asked about)."""
    per_manual = {}
    for r in qko:
        if r.get('domain') == 'rnd_manual' and r.get('gold'):
            s = r['gold'][0]['source']
            per_manual[s] = per_manual.get(s, 0) + 1
    for s in MANUAL_STEMS:
        if full and per_manual.get(s, 0) < MIN_PER_MANUAL:
            err('only %d manual questions whose first gold is %s (want >= %d)' % (per_manual.get(s, 0), s, MIN_PER_MANUAL))
    chapters = sorted({chapter[a] for r in qko if r.get('domain') == 'constitution'
                       for g in r.get('gold') or [] for a in g.get('articles', []) if a in chapter})
    if full and chapters != list(range(1, 11)):
        err('constitution questions cover chapters %r, expected 1..10' % chapters)
    return per_manual, chapters


def check_polite(qko, polite_end, least=0, full=True):
    """The `polite` flag agrees with a request ending (`polite_end`), and (unless `full` is False)
    at least `least` prompts are polite requests; returns the polite ids."""
    for r in qko:
        ends = bool(polite_end.search(r['prompt'].rstrip()))
        if ends != bool(r.get('polite')):
            err('%s: polite=%r but the prompt %s a request ending' % (r['id'], bool(r.get('polite')),
                                                                       'has' if ends else 'lacks'))
    polite = [r['id'] for r in qko if r.get('polite')]
    if full and len(polite) < least:
        err('%d polite requests, expected at least %d' % (len(polite), least))
    return polite


def check_unrelated(rows, words_ko, words_en, tags_allowed, full=True, least_long=0, least_shared=0):
    """Unrelated prompts: no gold, a language, known tags that match the prompt (long_log,
    very_short, shares_corpus_words from `words_ko` / `words_en`); both languages present, at
    least `least_long` prompts over 1,500 characters and `least_shared` sharing corpus words
    (the last three skipped when `full` is False). Returns (prompts per language, long logs,
    prompts sharing corpus words)."""
    lang, long_logs, shared = {}, 0, 0
    for r in rows:
        if 'gold' in r or 'domain' in r:
            err('%s: unrelated prompt has gold/domain' % r['id'])
        if r.get('lang') not in ('ko', 'en'):
            err('%s: lang %r' % (r['id'], r.get('lang')))
        lang[r.get('lang')] = lang.get(r.get('lang'), 0) + 1
        tags = r.get('tags')
        if not isinstance(tags, list) or not set(tags) <= tags_allowed:
            err('%s: bad tags %r' % (r['id'], tags))
            continue
        long_ = len(r['prompt']) > 1500
        long_logs += long_
        if long_ != ('long_log' in tags):
            err('%s: long_log tag does not match its length (%d)' % (r['id'], len(r['prompt'])))
        if 'very_short' in tags and len(r['prompt']) > 20:
            err('%s: very_short prompt of %d characters' % (r['id'], len(r['prompt'])))
        words = words_ko if r.get('lang') == 'ko' else words_en
        hit = [w for w in words if w in r['prompt'].lower()]
        if 'shares_corpus_words' in tags:
            shared += 1
            if not hit:
                err('%s: tagged shares_corpus_words but has none of %r' % (r['id'], words))
    if full and set(lang) != {'ko', 'en'}:
        err('unrelated languages %r, expected both ko and en' % lang)
    if full and long_logs < least_long:
        err('only %d unrelated prompts over 1,500 characters' % long_logs)
    if full and shared < least_shared:
        err('only %d unrelated prompts share words with the corpus' % shared)
    return lang, long_logs, shared


def read_expected(directory, expected, partial=False, aside=None):
    """Read every file of `expected` (name -> dict(n, kind, route, prefix[, domains])) from
    `directory`: a missing file is an error unless `partial`; records of the file `aside` in the
    same directory whose id has the file's prefix count with it (records set aside, see
    ../train/README.md); then record counts, check_records and check_unique_prompts.
    Returns {file name: records} (an empty list for a missing file)."""
    all_ids, data = set(), {}
    for name, exp in expected.items():
        path = os.path.join(directory, name)
        if not os.path.exists(path):
            if not partial:
                err('%s: missing' % name)
            data[name] = []
            continue
        rows = read_jsonl(path, name)
        if aside:
            aside_path = os.path.join(directory, aside)
            if os.path.exists(aside_path):
                rows += [r for r in read_jsonl(aside_path, aside)
                         if str(r.get('id', '')).startswith(exp['prefix'])]
        data[name] = rows
        if len(rows) != exp['n']:
            err('%s: %d records, expected %d' % (name, len(rows), exp['n']))
        check_records(name, rows, exp, all_ids)
    check_unique_prompts(data)
    return data


def full_checker(data, partial):
    """full(name): whether the aggregate checks of file `name` apply (always, unless `partial`
    and the file is absent)."""
    def full(name):
        return bool(data[name]) or not partial
    return full


def check_listed(by_id, lists, full=True):
    """Hand-listed question ids: for each (label, ids, least) of `lists`, every id is a record of
    questions_ko.jsonl (`by_id`) and the list holds at least `least` ids; skipped unless `full`."""
    for label, ids, least in lists:
        missing = sorted(ids - set(by_id))
        if missing and full:
            err('%s ids not in questions_ko.jsonl: %s' % (label, missing))
        if full and len(ids) < least:
            err('%d %s questions, expected at least %d' % (len(ids), label, least))


def sentence_count(p):
    """Sentences in a prompt: pieces ending in . ? ! or a line break."""
    return len([s for s in re.split(r'(?<=[.?!])\s+|\n+', p.strip()) if s.strip()])


def check_situational(by_id, ids):
    """Each listed situational question present in `by_id` has 2 to 4 sentences."""
    for rid in sorted(ids & set(by_id)):
        n = sentence_count(by_id[rid]['prompt'])
        if not 2 <= n <= 4:
            err('%s: situational prompt with %d sentences (want 2..4)' % (rid, n))


def check_inquiry(qko, inquiry_end, least, full=True):
    """Inquiry-style questions (a prompt ending matching `inquiry_end`): at least `least` of them
    unless `full` is False. Returns their ids."""
    inquiry = [r['id'] for r in qko if inquiry_end.search(r['prompt'].rstrip())]
    if full and len(inquiry) < least:
        err('%d inquiry-style questions, expected at least %d' % (len(inquiry), least))
    return inquiry


def check_faq_runs(qko, faq_hay, max_run):
    """No Korean question shares more than `max_run` consecutive characters (whitespace aside)
    with the manuals' own FAQ wording `faq_hay`. Returns (run, id) pairs, longest first."""
    worst = []
    for r in qko:
        run = longest_shared_run(norm(r['prompt']), faq_hay)
        worst.append((run, r['id']))
        if run > max_run:
            err('%s: shares %d consecutive characters with a manual FAQ question' % (r['id'], run))
    worst.sort(reverse=True)
    return worst


def check_sentences(rows, manuals, arts, lo_ids, pyfaq, want, full=True):
    """Sentence records: verified gold from a manual or the constitution matching the domain;
    verbatim sentences occur on their first gold page / article and carry no rule_hint, restated
    ones occur nowhere in their source and carry one; (unless `full` is False) the counts per
    (domain, variant) equal `want`. Returns those counts."""
    variants = {}
    for r in rows:
        check_gold(r['id'], r.get('gold'), manuals, arts, lo_ids, pyfaq)
        v, dom = r.get('variant'), r.get('domain')
        variants[(dom, v)] = variants.get((dom, v), 0) + 1
        if not r.get('gold'):
            continue
        g0, p = r['gold'][0], norm(r['prompt'])
        if g0.get('source') == 'constitution':
            if dom != 'constitution':
                err('%s: constitution gold but domain %r' % (r['id'], dom))
            text, whole = arts.get(g0['articles'][0], ''), '\n'.join(arts.values())
        elif g0.get('source') in manuals:
            if dom != 'rnd_manual':
                err('%s: manual gold but domain %r' % (r['id'], dom))
            text = manuals[g0['source']].get(g0['pages'][0], '')
            whole = '\n'.join(manuals[g0['source']].values())
        else:
            err('%s: sentence gold must be a manual or the constitution' % r['id'])
            continue
        if v == 'verbatim':
            if p not in norm(text):
                err('%s: verbatim sentence not found on its first gold page/article' % r['id'])
            if 'rule_hint' in r:
                err('%s: verbatim sentence with rule_hint' % r['id'])
        elif v == 'restated':
            if p in norm(whole):
                err('%s: restated sentence occurs verbatim in its source' % r['id'])
            if not r.get('rule_hint'):
                err('%s: restated sentence without rule_hint' % r['id'])
        else:
            err('%s: unknown variant %r' % (r['id'], v))
    if full and variants != want:
        err('sentence variants %r, expected %r' % (variants, want))
    return variants


def bench_refs(directory):
    """The bench prompts shipped next to `directory` (../unrelated_prompts.jsonl,
    ../polite_requests.jsonl) that exist, as {label: path}."""
    refs = {}
    for path in (os.path.join(directory, '..', 'unrelated_prompts.jsonl'),
                 os.path.join(directory, '..', 'polite_requests.jsonl')):
        if os.path.exists(path):
            refs[os.path.basename(path)] = path
    return refs


def add_devset_refs(refs, devset, names):
    """Add to `refs` the files `names` found in the development set's directory `devset` as
    'devset/name'; finding none of them is an error."""
    for name in names:
        path = os.path.join(devset, name)
        if os.path.exists(path):
            refs['devset/' + name] = path
    if not any(k.startswith('devset/') for k in refs):
        err('no development-set files found in %s' % devset)


LABELLED_SET_FILES = ['questions_ko.jsonl', 'sentences_ko.jsonl', 'unrelated.jsonl', 'questions_en.jsonl',
                      'overlap_heldout.jsonl']


def add_set_refs(refs, dirs, names=LABELLED_SET_FILES):
    """Add to `refs` the files `names` found in each (label, directory, required) of `dirs` as
    'label/name'; a required directory with none of them is an error."""
    for label, d, required in dirs:
        found = False
        for name in names:
            path = os.path.join(d, name)
            if os.path.exists(path):
                refs['%s/%s' % (label, name)] = path
                found = True
        if required and not found:
            err('no labelled-set files found in %s' % d)


def check_not_copied(data, refs, skip_kinds=()):
    """No prompt of `data` is a copy of a prompt in the files `refs` ({label: path}), or (except
    for records of a kind in `skip_kinds`) a light edit: a run of at least 8 characters covering
    60% of the prompt, whitespace aside. Returns the 'compared with' note of the report."""
    other = []
    for path in refs.values():
        with open(path, encoding='utf-8') as f:
            other += [norm(json.loads(line)['prompt']) for line in f if line.strip()]
    other_hay = '\x00'.join(other)
    runs = {}
    for rows in data.values():
        for r in rows:
            p = norm(r['prompt'])
            run = longest_shared_run(p, other_hay)
            runs.setdefault(r['kind'], []).append((run, r['id']))
            # a copy, or a light edit: most of a prompt reappearing in one reference prompt
            if p in other or (r['kind'] not in skip_kinds and run >= 8 and run >= 0.6 * len(p)):
                err('%s: prompt copied or lightly edited from a reference set (%d shared chars)' % (r['id'], run))
    return '%s; longest run shared, by kind (chars): %s' % (
        ', '.join(sorted(refs)) or 'none found',
        '; '.join('%s %s' % (k, ', '.join('%s=%d' % (i, b) for b, i in sorted(v, reverse=True)[:4]))
                  for k, v in sorted(runs.items())))


def report_head(data, per_manual, chapters):
    """The report's first lines: records per file, manual questions per manual, chapters."""
    print('records:', {k: len(v) for k, v in data.items()}, 'total', sum(len(v) for v in data.values()))
    print('manual questions by first gold source:', dict(sorted(per_manual.items())))
    print('constitution chapters asked about:', chapters)


def report_tail(lang, long_logs, shared, max_run, worst, ref_note, ok_note=''):
    """The report's last lines (unrelated counts, FAQ runs, references compared with) and the
    verdict: the problems and exit status 1, or 'OK' (+ `ok_note`)."""
    print('unrelated: languages %r, over 1,500 chars: %d, sharing corpus words: %d' %
          (dict(sorted(lang.items())), long_logs, shared))
    print('largest run shared with manual FAQ wording (chars, limit %d): %s' %
          (max_run, ', '.join('%s=%d' % (i, b) for b, i in worst[:5])))
    print('compared with', ref_note)
    if errors:
        print('\nFAILED: %d problem(s)' % len(errors))
        for e in errors:
            print('  -', e)
        sys.exit(1)
    print('\nOK: all checks passed' + ok_note)


def check_inquiry_set(here, cfg, reference_dirs):
    """The whole check of a training set written in the second round's form (train2, train3):
    Korean questions with colloquial, situational, polite and inquiry-style forms, English questions
    and unrelated prompts. `cfg` holds the set's settings (EXPECTED, the MIN_* counts, the id lists,
    the word lists, POLITE_END, INQUIRY_END, FAQ_MAX_RUN, TAGS); `reference_dirs(args)` gives the
    labelled sets it must not copy from, as (label, dir, required)."""
    args = training_args(here)
    manuals, arts, chapter, lo_ids, pyfaq, faq_hay = load_corpus(args.registry)

    # ---- files, ids, kinds, domains
    data = read_expected(args.dir, cfg.EXPECTED, args.partial)

    # ---- questions (Korean and English)
    check_questions(data, manuals, arts, lo_ids, pyfaq)
    qko = data['questions_ko.jsonl']
    by_id = {r['id']: r for r in qko}
    full = full_checker(data, args.partial)

    per_manual, chapters = check_spread(qko, chapter, full('questions_ko.jsonl'))

    polite = check_polite(qko, cfg.POLITE_END, cfg.MIN_POLITE, full('questions_ko.jsonl'))
    inquiry = check_inquiry(qko, cfg.INQUIRY_END, cfg.MIN_INQUIRY, full('questions_ko.jsonl'))
    check_listed(by_id, [('colloquial', cfg.COLLOQUIAL, cfg.MIN_COLLOQUIAL),
                         ('situational', cfg.SITUATIONAL, cfg.MIN_SITUATIONAL)], full('questions_ko.jsonl'))
    check_situational(by_id, cfg.SITUATIONAL)
    worst = check_faq_runs(qko, faq_hay, cfg.FAQ_MAX_RUN)

    # ---- unrelated
    lang, long_logs, shared = check_unrelated(data['unrelated.jsonl'], cfg.CORPUS_WORDS_KO, cfg.CORPUS_WORDS_EN,
                                              cfg.TAGS, full('unrelated.jsonl'), cfg.MIN_LONG_LOGS,
                                              cfg.MIN_SHARED_WORDS)

    # ---- not copied from other labelled sets or the bench prompts
    refs = bench_refs(args.dir)
    dirs = reference_dirs(args)
    dirs += [(os.path.basename(os.path.normpath(d)), d, True) for d in args.compare]
    add_set_refs(refs, dirs)
    ref_note = check_not_copied(data, refs)

    # ---- report
    report_head(data, per_manual, chapters)
    ends_q = sum(1 for r in qko if r['prompt'].rstrip().endswith('?'))
    print('questions_ko: ending in "?": %d, polite requests: %d, inquiry style: %d, colloquial: %d, '
          'situational: %d, longest %d chars' %
          (ends_q, len(polite), len(inquiry), len(cfg.COLLOQUIAL & set(by_id)), len(cfg.SITUATIONAL & set(by_id)),
           max([len(r['prompt']) for r in qko] or [0])))
    report_tail(lang, long_logs, shared, cfg.FAQ_MAX_RUN, worst, ref_note,
                ' (--partial: only the files present)' if args.partial else '')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--registry', default=None)
    ap.add_argument('--devset', default=None)
    ap.add_argument('--dir', default=HERE)
    args = ap.parse_args()
    args.registry = find_registry(args.registry)
    manuals, arts, chapter, lo_ids, pyfaq, faq_hay = load_corpus(args.registry)

    # ---- files, ids, kinds, domains
    all_ids, data = set(), {}
    for name, exp in EXPECTED.items():
        rows = read_jsonl(os.path.join(args.dir, name), name)
        data[name] = rows
        if len(rows) != exp['n']:
            err('%s: %d records, expected %d' % (name, len(rows), exp['n']))
        check_records(name, rows, exp, all_ids)
    check_unique_prompts(data)

    # ---- questions (Korean and English)
    check_questions(data, manuals, arts, lo_ids, pyfaq)
    qko = data['questions_ko.jsonl']
    by_id = {r['id']: r for r in qko}

    per_manual, chapters = check_spread(qko, chapter)

    polite = check_polite(qko, POLITE_END, MIN_POLITE)
    check_listed(by_id, [('colloquial', COLLOQUIAL, MIN_COLLOQUIAL)])
    worst = check_faq_runs(qko, faq_hay, FAQ_MAX_RUN)

    # ---- sentences
    variants = check_sentences(data['sentences_ko.jsonl'], manuals, arts, lo_ids, pyfaq, WANT_VARIANTS)

    # ---- unrelated
    lang, long_logs, shared = check_unrelated(data['unrelated.jsonl'], CORPUS_WORDS_KO, CORPUS_WORDS_EN, TAGS,
                                              least_long=MIN_LONG_LOGS, least_shared=MIN_SHARED_WORDS)

    # ---- not copied from the development set
    # the bench prompts shipped next to this directory, and the development set if given
    refs = bench_refs(args.dir)
    if args.devset:
        add_devset_refs(refs, args.devset, EXPECTED)
    ref_note = check_not_copied(data, refs, skip_kinds=('sentence',))

    # ---- report
    report_head(data, per_manual, chapters)
    ends_q = sum(1 for r in qko if r['prompt'].rstrip().endswith('?'))
    print('questions_ko: ending in "?": %d, polite requests: %d, colloquial: %d, longest %d chars' %
          (ends_q, len(polite), len(COLLOQUIAL), max(len(r['prompt']) for r in qko)))
    print('sentence variants:', dict(sorted(variants.items())))
    report_tail(lang, long_logs, shared, FAQ_MAX_RUN, worst, ref_note)


if __name__ == '__main__':
    main()
