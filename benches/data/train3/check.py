#!/usr/bin/env python3
"""Validate the third training set in this directory against the registry corpus.

Adapted from ../train2/check.py (same checks and record format; other id prefixes, counts and
tallies). The corpus loaders, gold checks and shared checks are the held-out validator's
(../heldout/check.py), loaded by path as ../train2/check.py does.

Checks: JSON parses, record counts, unique ids (wq/wu/we) across all files, required fields and
kind/route per file, domain counts, every gold reference exists (manual printed pages,
constitution articles of the main text, LibreOffice help ids, Python FAQ file + exact heading),
at most 3 pages per gold entry, Korean questions share at most 13 consecutive characters with
the manuals' own FAQ questions (rnd_manual_faq_ko.jsonl and the "Qn." lines of the pages), every
constitution chapter is asked about, each manual is the first gold source of at least 3
questions, polite requests are marked (flag and ending agree) and counted, inquiry-style
questions (…문의드립니다, …궁금합니다, …알고 싶습니다, …여쭤봅니다) are counted by their ending, the
colloquial and long situational questions listed below exist (situational ones have 2–4
sentences), unrelated prompts carry no gold and include prompts sharing words with the corpus
and two pasted texts over 1,500 characters. No prompt may be copied or lightly edited from the
first and second training sets (../train, ../train2), ../unrelated_prompts.jsonl,
../polite_requests.jsonl, the development set (--devset; by default the devset/ directory next to
the registry, required) or (with --compare) another labelled set.

Usage: python3 check.py [--registry DIR] [--devset DIR] [--compare DIR ...] [--partial]
  --registry  the corpus (default: shared/data/registry next to the repository)
  --devset    the development set's directory, to check that nothing was copied from it
              (default: devset/ next to the registry; the check fails when it is not found)
  --compare   optional, repeatable: another set's directory in the same format
  --partial   check only the files present (while the set is being written); missing files are not errors
Standard library only. Exit status 0 when every check passes.
"""
import argparse
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

EXPECTED = {
    'questions_ko.jsonl': dict(n=80, kind='question', route='push', prefix='wq',
                               domains={'rnd_manual': 30, 'constitution': 25, 'libreoffice_help': 25}),
    'unrelated.jsonl': dict(n=80, kind='unrelated', route='skip', prefix='wu'),
    'questions_en.jsonl': dict(n=20, kind='question', route='push', prefix='we',
                               domains={'python_faq': 20}),
}
# MANUAL_STEMS and MIN_PER_MANUAL: the held-out validator's (check_spread, check_questions).
MIN_POLITE = 15
MIN_COLLOQUIAL = 45
MIN_SITUATIONAL = 15
MIN_INQUIRY = 10
MIN_SHARED_WORDS = 35
MIN_LONG_LOGS = 2
FAQ_MAX_RUN = 13            # longest run of characters a question may share with a manual FAQ question
# Questions in everyday wording against the documents' formal wording (judged by the author).
COLLOQUIAL = {
    'wq001', 'wq003', 'wq005', 'wq006', 'wq007', 'wq009', 'wq010', 'wq011', 'wq013', 'wq015', 'wq017',
    'wq018', 'wq019', 'wq021', 'wq022', 'wq023', 'wq024', 'wq026', 'wq027', 'wq028', 'wq030', 'wq032',
    'wq033', 'wq034', 'wq036', 'wq037', 'wq038', 'wq041', 'wq042', 'wq043', 'wq046', 'wq047', 'wq048',
    'wq049', 'wq050', 'wq052', 'wq054', 'wq056', 'wq057', 'wq059', 'wq061', 'wq062', 'wq063', 'wq064',
    'wq065', 'wq066', 'wq067', 'wq068', 'wq070', 'wq072', 'wq074', 'wq075', 'wq076', 'wq077', 'wq078',
    'wq080',
}
# Long situational prompts: a person describing their situation in 2–4 sentences (judged by the author).
SITUATIONAL = {
    'wq003', 'wq008', 'wq011', 'wq012', 'wq013', 'wq018', 'wq028', 'wq029', 'wq032', 'wq037', 'wq047',
    'wq056', 'wq061', 'wq062', 'wq065', 'wq067', 'wq074',
}
# Request endings that make a prompt a polite request (…알려 주세요, …해줘, …부탁드려요, …정리해 줄래?).
POLITE_END = re.compile(r'(주세요|줘|줘요|줄래|줄래요|부탁드려요|부탁드립니다|주실래요|주시겠어요|주시겠습니까|'
                        r'부탁해요|부탁합니다)[.!?~]*$')
# Inquiry endings of a letter to an office.
INQUIRY_END = re.compile(r'(문의드립니다|문의 드립니다|궁금합니다|알고 싶습니다|알고싶습니다|여쭤봅니다|여쭙니다)[.!?~]*$')
# Words that tie an unrelated prompt to the corpus vocabulary without making it about the corpus.
CORPUS_WORDS_KO = ['연구', '계약', '평가', '예산', '과제', '기관', '인건비', '정산', '헌법', '국회', '대통령',
                   '법원', '협약', '내용', '신청', '기간', '나라', '국민', '권리', '권한',
                   '서식', '표', '셀', '시트', '슬라이드', '피벗', '파이썬', 'python', 'list', 'dictionary',
                   '리스트', '딕셔너리', 'exception', '예외', '엑셀', '스프레드시트', '연봉', '퇴직금', '연말정산',
                   '세액공제']
CORPUS_WORDS_EN = ['article', 'budget', 'evaluation', 'contract', 'research', 'agency', 'constitution',
                   'congress', 'president', 'python', 'list', 'dictionary', 'table', 'cell', 'sheet',
                   'pivot', 'exception', 'spreadsheet', 'basic law', 'parliament', 'court', 'committee']
TAGS = {'long_log', 'very_short', 'shares_corpus_words'}

# The corpus loaders, gold checks and error list are the held-out validator's (one home, as in
# ../train/check.py), loaded by path since both files are named check.py.
_spec = importlib.util.spec_from_file_location('heldout_check', os.path.join(HERE, '..', 'heldout', 'check.py'))
_heldout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_heldout)
errors, err, norm, read_jsonl = _heldout.errors, _heldout.err, _heldout.norm, _heldout.read_jsonl
load_manuals, load_constitution, load_lo = _heldout.load_manuals, _heldout.load_constitution, _heldout.load_lo
load_pyfaq, load_faq_questions = _heldout.load_pyfaq, _heldout.load_faq_questions
longest_shared_run, check_gold = _heldout.longest_shared_run, _heldout.check_gold
find_registry, load_corpus = _heldout.find_registry, _heldout.load_corpus
check_spread, check_polite, check_unrelated = _heldout.check_spread, _heldout.check_polite, _heldout.check_unrelated
check_records, check_unique_prompts, check_questions = (_heldout.check_records, _heldout.check_unique_prompts,
                                                      _heldout.check_questions)


def sentence_count(p):
    """Sentences in a prompt: pieces ending in . ? ! or a line break."""
    return len([s for s in re.split(r'(?<=[.?!])\s+|\n+', p.strip()) if s.strip()])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--registry', default=None)
    ap.add_argument('--devset', default=None)
    ap.add_argument('--compare', action='append', default=[])
    ap.add_argument('--partial', action='store_true')
    ap.add_argument('--dir', default=HERE)
    args = ap.parse_args()
    args.registry = find_registry(args.registry)
    if args.devset is None:
        args.devset = os.path.join(os.path.dirname(os.path.normpath(args.registry)), 'devset')
    manuals, arts, chapter, lo_ids, pyfaq, faq_hay = load_corpus(args.registry)

    # ---- files, ids, kinds, domains
    all_ids, data = set(), {}
    for name, exp in EXPECTED.items():
        path = os.path.join(args.dir, name)
        if not os.path.exists(path):
            if not args.partial:
                err('%s: missing' % name)
            data[name] = []
            continue
        rows = read_jsonl(path, name)
        data[name] = rows
        if len(rows) != exp['n']:
            err('%s: %d records, expected %d' % (name, len(rows), exp['n']))
        check_records(name, rows, exp, all_ids)
    check_unique_prompts(data)

    # ---- questions (Korean and English)
    check_questions(data, manuals, arts, lo_ids, pyfaq)
    qko = data['questions_ko.jsonl']
    by_id = {r['id']: r for r in qko}

    def full(name):
        """Whether the file's aggregate checks apply (always, unless --partial and the file is absent)."""
        return bool(data[name]) or not args.partial

    per_manual, chapters = check_spread(qko, chapter, full('questions_ko.jsonl'))

    polite = check_polite(qko, POLITE_END)
    if full('questions_ko.jsonl') and len(polite) < MIN_POLITE:
        err('%d polite requests, expected at least %d' % (len(polite), MIN_POLITE))
    inquiry = [r['id'] for r in qko if INQUIRY_END.search(r['prompt'].rstrip())]
    if full('questions_ko.jsonl') and len(inquiry) < MIN_INQUIRY:
        err('%d inquiry-style questions, expected at least %d' % (len(inquiry), MIN_INQUIRY))
    for label, ids, least in (('colloquial', COLLOQUIAL, MIN_COLLOQUIAL), ('situational', SITUATIONAL, MIN_SITUATIONAL)):
        missing = sorted(ids - set(by_id))
        if missing and full('questions_ko.jsonl'):
            err('%s ids not in questions_ko.jsonl: %s' % (label, missing))
        if full('questions_ko.jsonl') and len(ids) < least:
            err('%d %s questions, expected at least %d' % (len(ids), label, least))
    for rid in sorted(SITUATIONAL & set(by_id)):
        n = sentence_count(by_id[rid]['prompt'])
        if not 2 <= n <= 4:
            err('%s: situational prompt with %d sentences (want 2..4)' % (rid, n))

    worst = []
    for r in qko:
        run = longest_shared_run(norm(r['prompt']), faq_hay)
        worst.append((run, r['id']))
        if run > FAQ_MAX_RUN:
            err('%s: shares %d consecutive characters with a manual FAQ question' % (r['id'], run))
    worst.sort(reverse=True)

    # ---- unrelated
    lang, long_logs, shared = check_unrelated(data['unrelated.jsonl'], CORPUS_WORDS_KO, CORPUS_WORDS_EN, TAGS,
                                              full('unrelated.jsonl'))
    if full('unrelated.jsonl') and long_logs < MIN_LONG_LOGS:
        err('only %d unrelated prompts over 1,500 characters' % long_logs)
    if full('unrelated.jsonl') and shared < MIN_SHARED_WORDS:
        err('only %d unrelated prompts share words with the corpus' % shared)

    # ---- not copied from the first two training sets, the devset, the bench prompts or other sets
    refs = {}
    for path in (os.path.join(args.dir, '..', 'unrelated_prompts.jsonl'),
                 os.path.join(args.dir, '..', 'polite_requests.jsonl')):
        if os.path.exists(path):
            refs[os.path.basename(path)] = path
    set_names = ['questions_ko.jsonl', 'sentences_ko.jsonl', 'unrelated.jsonl', 'questions_en.jsonl',
                 'overlap_heldout.jsonl']
    dirs = [('train', os.path.join(args.dir, '..', 'train'), True),
            ('train2', os.path.join(args.dir, '..', 'train2'), True),
            ('devset', args.devset, True)]
    dirs += [(os.path.basename(os.path.normpath(d)), d, True) for d in args.compare]
    for label, d, required in dirs:
        found = False
        for name in set_names:
            path = os.path.join(d, name)
            if os.path.exists(path):
                refs['%s/%s' % (label, name)] = path
                found = True
        if required and not found:
            err('no labelled-set files found in %s' % d)
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
            if p in other or (run >= 8 and run >= 0.6 * len(p)):
                err('%s: prompt copied or lightly edited from a reference set (%d shared chars)' % (r['id'], run))
    ref_note = '%s; longest run shared, by kind (chars): %s' % (
        ', '.join(sorted(refs)) or 'none found',
        '; '.join('%s %s' % (k, ', '.join('%s=%d' % (i, b) for b, i in sorted(v, reverse=True)[:4]))
                  for k, v in sorted(runs.items())))

    # ---- report
    print('records:', {k: len(v) for k, v in data.items()}, 'total', sum(len(v) for v in data.values()))
    print('manual questions by first gold source:', dict(sorted(per_manual.items())))
    print('constitution chapters asked about:', chapters)
    ends_q = sum(1 for r in qko if r['prompt'].rstrip().endswith('?'))
    print('questions_ko: ending in "?": %d, polite requests: %d, inquiry style: %d, colloquial: %d, '
          'situational: %d, longest %d chars' %
          (ends_q, len(polite), len(inquiry), len(COLLOQUIAL & set(by_id)), len(SITUATIONAL & set(by_id)),
           max([len(r['prompt']) for r in qko] or [0])))
    print('unrelated: languages %r, over 1,500 chars: %d, sharing corpus words: %d' %
          (dict(sorted(lang.items())), long_logs, shared))
    print('largest run shared with manual FAQ wording (chars, limit %d): %s' %
          (FAQ_MAX_RUN, ', '.join('%s=%d' % (i, b) for b, i in worst[:5])))
    print('compared with', ref_note)
    if errors:
        print('\nFAILED: %d problem(s)' % len(errors))
        for e in errors:
            print('  -', e)
        sys.exit(1)
    print('\nOK: all checks passed' + (' (--partial: only the files present)' if args.partial else ''))


if __name__ == '__main__':
    main()
