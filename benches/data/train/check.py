#!/usr/bin/env python3
"""Validate the training set in this directory against the registry corpus.

Adapted from the held-out set's validator (same checks; other id prefixes, counts and word lists).

Checks: JSON parses, record counts, unique ids (tq/ts/tu/te) across all files, required
fields and kind/route per file, domain and variant counts, every gold reference exists
(manual printed pages, constitution articles of the main text, LibreOffice help ids,
Python FAQ file + exact heading), at most 3 pages per gold entry, verbatim sentences occur on
their first gold page / article (whitespace-insensitive), restated sentences occur nowhere
in their manual, Korean questions share at most 13 consecutive characters with the manuals'
own FAQ questions, every constitution chapter is asked about, polite requests are marked and
counted, the colloquial questions listed below exist, unrelated prompts carry no gold and
include long logs and prompts sharing words with the corpus. No prompt may be copied or lightly
edited from ../unrelated_prompts.jsonl, ../polite_requests.jsonl or (with --devset / --compare) another
labelled set.

Usage: python3 check.py [--registry DIR] [--devset DIR] [--compare DIR ...] [--partial]
  --registry  the corpus (default: shared/data/registry next to the repository)
  --devset    optional: the development set's directory, to check that nothing was copied from it
  --compare   optional, repeatable: another set's directory in the same format (e.g. the held-out set),
              to check that nothing was copied from it either
  --partial   check only the files present (while the set is being written); missing files are not errors
Standard library only. Exit status 0 when every check passes.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

EXPECTED = {
    'questions_ko.jsonl': dict(n=110, kind='question', route='push', prefix='tq',
                               domains={'rnd_manual': 55, 'constitution': 25, 'libreoffice_help': 30}),
    'sentences_ko.jsonl': dict(n=40, kind='sentence', route='pull', prefix='ts',
                               domains={'rnd_manual': 30, 'constitution': 10}),
    'unrelated.jsonl': dict(n=90, kind='unrelated', route='skip', prefix='tu'),
    'questions_en.jsonl': dict(n=30, kind='question', route='push', prefix='te',
                               domains={'python_faq': 30}),
}
WANT_VARIANTS = {('rnd_manual', 'verbatim'): 15, ('constitution', 'verbatim'): 10, ('rnd_manual', 'restated'): 15}
# MANUAL_STEMS and MIN_PER_MANUAL: the held-out validator's (check_spread, check_questions).
MIN_POLITE = 25
MIN_COLLOQUIAL = 40
MIN_SHARED_WORDS = 35
MIN_LONG_LOGS = 2
FAQ_MAX_RUN = 13            # longest run of characters a question may share with a manual FAQ question
# Questions written in everyday wording against the documents' formal wording (judged by the author).
COLLOQUIAL = {
    'tq001', 'tq002', 'tq003', 'tq006', 'tq009', 'tq011', 'tq012', 'tq013', 'tq014', 'tq019', 'tq020',
    'tq021', 'tq022', 'tq028', 'tq029', 'tq030', 'tq031', 'tq033', 'tq034', 'tq040', 'tq042', 'tq044',
    'tq046', 'tq047', 'tq049', 'tq052', 'tq054', 'tq055', 'tq057', 'tq059', 'tq060', 'tq062', 'tq065',
    'tq067', 'tq068', 'tq070', 'tq071', 'tq072', 'tq075', 'tq076', 'tq077', 'tq079', 'tq080', 'tq087',
    'tq091', 'tq093', 'tq096', 'tq098', 'tq100', 'tq101', 'tq102', 'tq104', 'tq105', 'tq106', 'tq109',
    'tq110',
}
# Request endings that make a prompt a polite request (…알려 주세요, …해줘, …부탁드려요, …정리해 줄래?).
POLITE_END = re.compile(r'(주세요|줘|줘요|줄래|줄래요|드려요|드립니다|주실래요|주시겠어요|부탁해요|부탁합니다)[.!?~]*$')
# Words that tie an unrelated prompt to the corpus vocabulary without making it about the corpus.
CORPUS_WORDS_KO = ['연구', '계약', '평가', '예산', '과제', '기관', '인건비', '정산', '헌법', '국회', '대통령',
                   '서식', '표', '셀', '시트', '피벗', '파이썬', 'python', 'list', 'dictionary', '리스트',
                   '딕셔너리', 'exception', '예외']
CORPUS_WORDS_EN = ['article', 'budget', 'evaluation', 'contract', 'research', 'agency', 'constitution',
                   'congress', 'president', 'python', 'list', 'dictionary', 'table', 'cell', 'sheet',
                   'pivot', 'exception', 'spreadsheet']
TAGS = {'long_log', 'very_short', 'shares_corpus_words'}

# The corpus loaders, gold checks and error list are the held-out validator's (one home), loaded
# by path since both files are named check.py.
_spec = importlib.util.spec_from_file_location('heldout_check', os.path.join(HERE, '..', 'heldout', 'check.py'))
_heldout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_heldout)
errors, err, norm, read_jsonl = _heldout.errors, _heldout.err, _heldout.norm, _heldout.read_jsonl
load_manuals, load_constitution, load_lo = _heldout.load_manuals, _heldout.load_constitution, _heldout.load_lo
rst_headings, load_pyfaq, load_faq_questions = _heldout.rst_headings, _heldout.load_pyfaq, _heldout.load_faq_questions
longest_shared_run, check_gold = _heldout.longest_shared_run, _heldout.check_gold
find_registry, load_corpus = _heldout.find_registry, _heldout.load_corpus
check_spread, check_polite, check_unrelated = _heldout.check_spread, _heldout.check_polite, _heldout.check_unrelated
check_records, check_unique_prompts, check_questions = (_heldout.check_records, _heldout.check_unique_prompts,
                                                      _heldout.check_questions)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--registry', default=None)
    ap.add_argument('--devset', default=None)
    ap.add_argument('--compare', action='append', default=[])
    ap.add_argument('--partial', action='store_true')
    ap.add_argument('--dir', default=HERE)
    args = ap.parse_args()
    args.registry = find_registry(args.registry)
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
        # Records set aside because they are close to a held-out prompt (README) still count.
        aside = os.path.join(args.dir, 'overlap_heldout.jsonl')
        if os.path.exists(aside):
            rows += [r for r in read_jsonl(aside, 'overlap_heldout.jsonl')
                     if str(r.get('id', '')).startswith(exp['prefix'])]
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
    missing = sorted(COLLOQUIAL - set(by_id))
    if missing and full('questions_ko.jsonl'):
        err('colloquial ids not in questions_ko.jsonl: %s' % missing)
    if full('questions_ko.jsonl') and len(COLLOQUIAL) < MIN_COLLOQUIAL:
        err('%d colloquial questions, expected at least %d' % (len(COLLOQUIAL), MIN_COLLOQUIAL))

    worst = []
    for r in qko:
        run = longest_shared_run(norm(r['prompt']), faq_hay)
        worst.append((run, r['id']))
        if run > FAQ_MAX_RUN:
            err('%s: shares %d consecutive characters with a manual FAQ question' % (r['id'], run))
    worst.sort(reverse=True)

    # ---- sentences
    variants = {}
    for r in data['sentences_ko.jsonl']:
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
    if full('sentences_ko.jsonl') and variants != WANT_VARIANTS:
        err('sentence variants %r, expected %r' % (variants, WANT_VARIANTS))

    # ---- unrelated
    lang, long_logs, shared = check_unrelated(data['unrelated.jsonl'], CORPUS_WORDS_KO, CORPUS_WORDS_EN, TAGS,
                                              full('unrelated.jsonl'))
    if full('unrelated.jsonl') and long_logs < MIN_LONG_LOGS:
        err('only %d unrelated prompts over 1,500 characters' % long_logs)
    if full('unrelated.jsonl') and shared < MIN_SHARED_WORDS:
        err('only %d unrelated prompts share words with the corpus' % shared)

    # ---- not copied from the development set
    # the bench prompts shipped next to this directory, and the development set if given
    refs = {}
    for path in (os.path.join(args.dir, '..', 'unrelated_prompts.jsonl'), os.path.join(args.dir, '..', 'polite_requests.jsonl')):
        if os.path.exists(path):
            refs[os.path.basename(path)] = path
    if args.devset:
        for name in EXPECTED:
            path = os.path.join(args.devset, name)
            if os.path.exists(path):
                refs['devset/' + name] = path
        if not any(k.startswith('devset/') for k in refs):
            err('no development-set files found in %s' % args.devset)
    for d in args.compare:
        found = False
        for name in EXPECTED:
            path = os.path.join(d, name)
            if os.path.exists(path):
                refs['%s/%s' % (os.path.basename(os.path.normpath(d)), name)] = path
                found = True
        if not found:
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
            if p in other or (r['kind'] != 'sentence' and run >= 8 and run >= 0.6 * len(p)):
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
    print('questions_ko: ending in "?": %d, polite requests: %d, colloquial: %d, longest %d chars' %
          (ends_q, len(polite), len(COLLOQUIAL), max([len(r['prompt']) for r in qko] or [0])))
    print('sentence variants:', dict(sorted(variants.items())))
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
