#!/usr/bin/env python3
"""Validate the fourth training set in this directory against the registry corpus.

Adapted from ../train3/check.py (same record format and the same kinds of checks; other id
prefixes, counts and tallies, and a sentences file). The corpus loaders, the gold check, the
reading of the files and the per-record checks are the held-out validator's (../heldout/check.py,
loaded by path as ../train3/check.py does); the copy check is its own.

Checks: JSON parses, record counts, unique ids (xq/xs/xe/xu) across all files, required fields
and kind/route per file, domain counts, every gold reference exists (manual printed pages,
constitution articles of the main text, LibreOffice help page ids in docs.jsonl, Python FAQ
file + exact heading), at most 3 pages per gold entry, each manual is the first gold source of at
least 3 Korean questions, Korean manual questions share at most 13 consecutive characters with
the manuals' own FAQ questions, polite requests are marked (flag and ending agree) and counted,
inquiry-style questions are counted by their ending, the colloquial and situational questions
listed below exist (situational ones have 2-4 sentences), sentences occur (whitespace-
insensitively) on their first gold page / article / help page, unrelated prompts carry no gold
and have valid tags, enough of them share words with the corpus, and no prompt is copied or
lightly edited from the devset, ../train (including overlap_heldout.jsonl), ../train2,
../train3, ../unrelated_prompts.jsonl or ../polite_requests.jsonl.

Usage: python3 check.py [--registry DIR] [--devset DIR] [--compare DIR ...]
  --registry  the corpus (default: shared/data/registry next to the repository, else /work/shared/data/registry)
  --devset    the development set's directory (default: devset/ next to the registry; required)
  --compare   optional, repeatable: another set's directory in the same format
Standard library only. Exit status 0 when every check passes.
"""
import argparse
import importlib.util
import difflib
import glob
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))

EXPECTED = {
    'questions_ko.jsonl': dict(n=80, kind='question', route='push', prefix='xq',
                               domains={'rnd_manual': 28, 'constitution': 24, 'libreoffice_help': 28}),
    'questions_en.jsonl': dict(n=20, kind='question', route='push', prefix='xe', domains={'python_faq': 20}),
    'sentences_ko.jsonl': dict(n=30, kind='sentence', route='pull', prefix='xs'),
    'unrelated.jsonl': dict(n=80, kind='unrelated', route='skip', prefix='xu', langs={'ko': 55, 'en': 25}),
}
MANUAL_STEMS = ['manual_body', 'manual_b1', 'manual_b2', 'manual_b3', 'manual_b4', 'manual_case', 'manual_eval']
MIN_PER_MANUAL = 3
MIN_POLITE = 12
MIN_COLLOQUIAL = 45
MIN_SITUATIONAL = 15
MIN_INQUIRY = 10
MIN_SHARED_WORDS = 30
FAQ_MAX_RUN = 13
SIMILAR = 0.85              # difflib ratio (normalised text) at or above which a prompt counts as copied
# Questions in everyday wording against the documents' formal wording (judged by the author).
COLLOQUIAL = {
    'xq001', 'xq002', 'xq003', 'xq004', 'xq006', 'xq007', 'xq008', 'xq009', 'xq011', 'xq012', 'xq013',
    'xq014', 'xq015', 'xq016', 'xq017', 'xq018', 'xq019', 'xq020', 'xq021', 'xq022', 'xq023', 'xq024',
    'xq025', 'xq026', 'xq027', 'xq028', 'xq029', 'xq030', 'xq031', 'xq032', 'xq034', 'xq035', 'xq036',
    'xq037', 'xq038', 'xq039', 'xq043', 'xq044', 'xq045', 'xq046', 'xq047', 'xq048', 'xq049', 'xq050',
    'xq051', 'xq052', 'xq053', 'xq054', 'xq055', 'xq056', 'xq057', 'xq058', 'xq059', 'xq060', 'xq061',
    'xq062', 'xq063', 'xq064', 'xq065', 'xq066', 'xq067', 'xq068', 'xq069', 'xq070', 'xq071', 'xq072',
    'xq073', 'xq075', 'xq076', 'xq077', 'xq078', 'xq079', 'xq080',
}
# Long situational prompts: the situation first, 2-4 sentences (judged by the author).
SITUATIONAL = {
    'xq001', 'xq004', 'xq005', 'xq013', 'xq015', 'xq021', 'xq028', 'xq029', 'xq032', 'xq037', 'xq038',
    'xq050', 'xq051', 'xq054', 'xq057', 'xq064', 'xq068', 'xq072',
}
POLITE_END = re.compile(r'(주세요|줘|줘요|줄래|줄래요|부탁드려요|부탁드립니다|주실래요|주시겠어요|주시겠습니까|'
                        r'부탁해요|부탁합니다)[.!?~]*$')
INQUIRY_END = re.compile(r'(문의드립니다|문의 드립니다|궁금합니다|알고 싶습니다|알고싶습니다|여쭤봅니다|여쭙니다)[.!?~]*$')
CORPUS_WORDS_KO = ['연구', '계약', '평가', '예산', '과제', '기관', '인건비', '정산', '헌법', '국회', '대통령',
                   '법원', '협약', '신청', '기간', '나라', '국민', '권리', '서식', '표', '셀', '시트', '슬라이드',
                   '피벗', '파이썬', '리스트', '딕셔너리', '엑셀', '연봉', '퇴직금', '연말정산', '공제', '실업급여',
                   '재판관', '의원', '계획서', '합치']
CORPUS_WORDS_EN = ['article', 'budget', 'evaluation', 'contract', 'research', 'agency', 'constitution',
                   'congress', 'president', 'python', 'list', 'dictionary', 'table', 'cell', 'sheet',
                   'pivot', 'exception', 'spreadsheet', 'parliament', 'court', 'committee', 'grant', 'senate']
TAGS = {'long_log', 'very_short', 'shares_corpus_words'}

# The corpus loaders and the gold check are the held-out validator's (one home; called as
# heldout.NAME), loaded by path since both files are named check.py; its error list is this one's.
_spec = importlib.util.spec_from_file_location('heldout_check', os.path.join(HERE, '..', 'heldout', 'check.py'))
heldout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(heldout)
errors = heldout.errors
err = heldout.err
norm = heldout.norm
load_manuals = heldout.load_manuals
load_constitution = heldout.load_constitution
load_pyfaq = heldout.load_pyfaq
longest_common = heldout.longest_shared_run


def load_lo(reg):
    """LibreOffice help pages {id: text} (the held-out validator keeps only the ids)."""
    docs = {}
    with open(os.path.join(reg, 'deb-libreoffice-help-ko', 'docs.jsonl'), encoding='utf-8') as f:
        for line in f:
            r = json.loads(line)
            docs[r['id']] = r.get('text', '')
    return docs


def load_faq_questions(reg, manuals):
    """The held-out validator's, without requiring rnd_manual_faq_ko.jsonl."""
    qs = []
    path = os.path.join(reg, 'pypi-korean-rnd-regs-mcp-0.61.0', 'rnd_manual_faq_ko.jsonl')
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for line in f:
                qs.append(json.loads(line)['question'])
    for pages in manuals.values():
        for text in pages.values():
            for m in re.finditer(r'Q\s*\d*\.\s*([^\n]+(?:\n[^\nQ\-∙※]+)?)', text):
                qs.append(m.group(1))
    return [norm(q) for q in qs if q.strip()]


# ---------------------------------------------------------------- gold validation
def check_gold(rid, gold, manuals, arts, lo, pyfaq):
    """The held-out validator's check, and a LibreOffice gold names only its source."""
    heldout.check_gold(rid, gold, manuals, arts, lo, pyfaq)
    for g in gold if isinstance(gold, list) else []:
        src = g.get('source')
        if src in lo and src not in manuals and src != 'constitution' and src not in pyfaq and set(g) != {'source'}:
            err('%s: LibreOffice gold takes only a source' % rid)


def sentences_of(text):
    return [s for s in re.split(r'(?<=[.?!])\s+', text.strip()) if s]


# ---------------------------------------------------------------- copy check
def cnorm(s):
    s = unicodedata.normalize('NFKC', s).lower()
    return re.sub(r'[\W_]+', '', s)


def load_refs(dirs):
    refs = []
    for label, d in dirs:
        files = sorted(glob.glob(os.path.join(d, '*.jsonl')))
        if not files:
            err('reference set %s not found at %s' % (label, d))
        for p in files:
            with open(p, encoding='utf-8') as f:
                for ln, line in enumerate(f, 1):
                    if line.strip():
                        r = json.loads(line)
                        refs.append(('%s/%s:%s' % (label, os.path.basename(p), r.get('id', ln)), r['prompt']))
    return refs


def add_file_refs(refs, paths):
    for p in paths:
        if not os.path.exists(p):
            err('reference file missing: %s' % p)
            continue
        with open(p, encoding='utf-8') as f:
            for ln, line in enumerate(f, 1):
                if line.strip():
                    r = json.loads(line)
                    refs.append(('%s:%s' % (os.path.basename(p), r.get('id', ln)), r['prompt']))


def check_not_copied(data, refs):
    prepared = [(name, cnorm(p)) for name, p in refs]
    worst = (0.0, '', '')
    for rows in data.values():
        for r in rows:
            a = cnorm(r['prompt'])
            if not a:
                continue
            for name, b in prepared:
                if not b:
                    continue
                if a == b or (min(len(a), len(b)) >= 20 and (a in b or b in a)):
                    err('%s: prompt copied from %s' % (r['id'], name))
                    continue
                sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
                if sm.real_quick_ratio() < SIMILAR or sm.quick_ratio() < SIMILAR:
                    continue
                ratio = sm.ratio()
                if ratio > worst[0]:
                    worst = (ratio, r['id'], name)
                if ratio >= SIMILAR:
                    err('%s: prompt lightly edited from %s (similarity %.2f)' % (r['id'], name, ratio))
    return worst


# ---------------------------------------------------------------- main
def default_registry():
    cand = os.path.join(HERE, '..', '..', '..', '..', 'shared', 'data', 'registry')
    if os.path.isdir(cand):
        return cand
    return '/work/shared/data/registry'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--registry', default=default_registry())
    ap.add_argument('--devset', default=None)
    ap.add_argument('--compare', action='append', default=[])
    ap.add_argument('--dir', default=HERE)
    args = ap.parse_args()
    if args.devset is None:
        args.devset = os.path.join(os.path.dirname(os.path.normpath(args.registry)), 'devset')

    manuals = load_manuals(args.registry)
    arts, chapter = load_constitution(args.registry)
    lo = load_lo(args.registry)
    pyfaq = load_pyfaq(args.registry)
    faq_qs = load_faq_questions(args.registry, manuals)
    if len(arts) != 130:
        err('constitution parser found %d main-text articles, expected 130' % len(arts))

    all_ids, data = set(), {}
    for name, exp in EXPECTED.items():
        path = os.path.join(args.dir, name)
        if not os.path.exists(path):
            err('%s missing' % name)
            data[name] = []
            continue
        rows = data[name] = heldout.read_jsonl(path, name)
        if len(rows) != exp['n']:
            err('%s: %d records, expected %d' % (name, len(rows), exp['n']))
        heldout.check_records(name, rows, exp, all_ids)

    # ---- questions
    for name in ('questions_ko.jsonl', 'questions_en.jsonl'):
        for r in data[name]:
            check_gold(r['id'], r.get('gold'), manuals, arts, lo, pyfaq)
            if not r.get('answer_hint'):
                err('%s: missing answer_hint' % r['id'])
            dom = r.get('domain')
            srcs = {g.get('source') for g in r.get('gold') or []}
            ok = {'rnd_manual': srcs <= set(MANUAL_STEMS), 'constitution': srcs == {'constitution'},
                  'libreoffice_help': all(s in lo for s in srcs), 'python_faq': all(s in pyfaq for s in srcs)}
            if not ok.get(dom, False):
                err('%s: domain %r does not match gold sources %r' % (r['id'], dom, sorted(srcs)))
    qko = data['questions_ko.jsonl']
    by_id = {r['id']: r for r in qko}
    per_manual, chapters = {}, {}
    for r in qko:
        g0 = (r.get('gold') or [{}])[0]
        if r.get('domain') == 'rnd_manual':
            per_manual[g0.get('source')] = per_manual.get(g0.get('source'), 0) + 1
        if r.get('domain') == 'constitution':
            for n in g0.get('articles', []):
                chapters[chapter.get(n)] = chapters.get(chapter.get(n), 0) + 1
    for s in MANUAL_STEMS:
        if per_manual.get(s, 0) < MIN_PER_MANUAL:
            err('only %d questions have %s as first gold (minimum %d)' % (per_manual.get(s, 0), s, MIN_PER_MANUAL))
    if len([c for c in chapters if c]) < 8:
        err('constitution questions cover only chapters %r' % sorted(chapters))

    # polite flag <-> ending; inquiry endings; listed forms
    polite = inquiry = 0
    for r in qko:
        ends = bool(POLITE_END.search(r['prompt'].rstrip()))
        if ends != bool(r.get('polite')):
            err('%s: polite flag %r but ending %s a polite request' % (r['id'], r.get('polite'), 'is' if ends else 'is not'))
        if r.get('polite') not in (None, True):
            err('%s: polite must be true or absent' % r['id'])
        polite += ends
        inquiry += bool(INQUIRY_END.search(r['prompt'].rstrip()))
    if polite < MIN_POLITE:
        err('only %d polite requests (minimum %d)' % (polite, MIN_POLITE))
    if inquiry < MIN_INQUIRY:
        err('only %d inquiry-style questions (minimum %d)' % (inquiry, MIN_INQUIRY))
    for label, ids, minimum in (('colloquial', COLLOQUIAL, MIN_COLLOQUIAL), ('situational', SITUATIONAL, MIN_SITUATIONAL)):
        missing = sorted(i for i in ids if i not in by_id)
        if missing:
            err('%s ids not in questions_ko.jsonl: %s' % (label, missing))
        if len(ids) < minimum:
            err('only %d %s questions (minimum %d)' % (len(ids), label, minimum))
    for i in sorted(SITUATIONAL):
        if i in by_id:
            n = len(sentences_of(by_id[i]['prompt']))
            if not 2 <= n <= 4:
                err('%s: situational prompt has %d sentences, expected 2-4' % (i, n))

    # manual questions vs the manuals' own FAQ wording
    worst_faq = []
    for r in qko:
        if r.get('domain') != 'rnd_manual':
            continue
        q = norm(r['prompt'])
        best = max((longest_common(q, f) for f in faq_qs), default=0)
        worst_faq.append((best, r['id']))
        if best > FAQ_MAX_RUN:
            err('%s: shares %d consecutive characters with a manual FAQ question' % (r['id'], best))
    worst_faq.sort(reverse=True)

    # ---- sentences
    sdom = {}
    for r in data['sentences_ko.jsonl']:
        rid = r['id']
        check_gold(rid, r.get('gold'), manuals, arts, lo, pyfaq)
        if r.get('variant') != 'verbatim':
            err('%s: variant must be "verbatim"' % rid)
        sdom[r.get('domain')] = sdom.get(r.get('domain'), 0) + 1
        g0 = (r.get('gold') or [{}])[0]
        src = g0.get('source')
        if src == 'constitution':
            text, dom = arts.get((g0.get('articles') or [None])[0], ''), 'constitution'
        elif src in manuals:
            text, dom = manuals[src].get((g0.get('pages') or [None])[0], ''), 'rnd_manual'
        elif src in lo:
            text, dom = lo[src], 'libreoffice_help'
        else:
            err('%s: sentence gold must be a manual page, an article or a help page' % rid)
            continue
        if r.get('domain') != dom:
            err('%s: domain %r, expected %r' % (rid, r.get('domain'), dom))
        if norm(r['prompt']) not in norm(text):
            err('%s: sentence not found on its first gold page/article/help page' % rid)
    if sdom.get('rnd_manual', 0) + sdom.get('constitution', 0) < 25:
        err('sentences should come mostly from the manuals and the constitution: %r' % sdom)

    # ---- unrelated
    lang, long_logs, shared, very_short = {}, 0, 0, 0
    for r in data['unrelated.jsonl']:
        rid = r['id']
        if 'gold' in r or 'answer_hint' in r:
            err('%s: unrelated prompt has gold/answer_hint' % rid)
        lang[r.get('lang')] = lang.get(r.get('lang'), 0) + 1
        tags = r.get('tags')
        if not isinstance(tags, list) or not set(tags) <= TAGS:
            err('%s: bad tags %r' % (rid, tags))
            tags = []
        long_p = len(r['prompt']) > 1500
        if long_p != ('long_log' in tags):
            err('%s: long_log tag and length (%d) disagree' % (rid, len(r['prompt'])))
        long_logs += long_p
        if 'very_short' in tags:
            very_short += 1
            if len(r['prompt']) > 20:
                err('%s: very_short prompt is %d characters' % (rid, len(r['prompt'])))
        if 'shares_corpus_words' in tags:
            words = CORPUS_WORDS_KO if r.get('lang') == 'ko' else CORPUS_WORDS_EN
            hit = [w for w in words if w in r['prompt'].lower()]
            if not hit:
                err('%s: tagged shares_corpus_words but contains none of the listed words' % rid)
            shared += 1
        if r.get('lang') == 'ko' and not re.search('[가-힣]', r['prompt']):
            err('%s: lang ko without Hangul' % rid)
        if r.get('lang') == 'en' and re.search('[가-힣]', r['prompt']):
            err('%s: lang en with Hangul' % rid)
    if lang != EXPECTED['unrelated.jsonl']['langs']:
        err('unrelated languages %r, expected %r' % (lang, EXPECTED['unrelated.jsonl']['langs']))
    if shared < MIN_SHARED_WORDS:
        err('only %d unrelated prompts share corpus words (minimum %d)' % (shared, MIN_SHARED_WORDS))

    # ---- not copied from earlier sets
    parent = os.path.join(args.dir, '..')
    dirs = [('devset', args.devset), ('train', os.path.join(parent, 'train')),
            ('train2', os.path.join(parent, 'train2')), ('train3', os.path.join(parent, 'train3'))]
    dirs += [(os.path.basename(os.path.normpath(d)), d) for d in args.compare]
    refs = load_refs(dirs)
    add_file_refs(refs, [os.path.join(parent, 'unrelated_prompts.jsonl'), os.path.join(parent, 'polite_requests.jsonl')])
    worst = check_not_copied(data, refs)

    # ---- report
    print('records:', {k: len(v) for k, v in data.items()}, 'total', sum(len(v) for v in data.values()))
    print('manual questions by first gold source:', dict(sorted(per_manual.items())))
    print('constitution questions by chapter:', dict(sorted((k, v) for k, v in chapters.items() if k)))
    print('questions_ko: colloquial %d, situational %d, polite %d, inquiry %d, ending in "?" %d' %
          (len(COLLOQUIAL), len(SITUATIONAL), polite, inquiry, sum(r['prompt'].rstrip().endswith('?') for r in qko)))
    print('sentences by domain:', sdom)
    print('unrelated: languages %r, very_short %d, shares_corpus_words %d, over 1,500 chars %d' %
          (lang, very_short, shared, long_logs))
    print('largest run shared with manual FAQ wording: %s' % ', '.join('%s=%d' % (i, b) for b, i in worst_faq[:3]))
    print('reference prompts compared: %d; highest similarity %.2f (%s vs %s)' % (len(refs), worst[0], worst[1], worst[2]))
    if errors:
        print('\nFAILED: %d problem(s)' % len(errors))
        for e in errors:
            print('  -', e)
        sys.exit(1)
    print('\nOK: all checks passed')


if __name__ == '__main__':
    main()
