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
import importlib.util
import os
import re

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

# The corpus loaders and the checks shared by the label validators are the held-out validator's
# (one home; called as heldout.NAME), loaded by path since both files are named check.py.
_spec = importlib.util.spec_from_file_location('heldout_check', os.path.join(HERE, '..', 'heldout', 'check.py'))
heldout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(heldout)


def main():
    args = heldout.training_args(HERE)
    manuals, arts, chapter, lo_ids, pyfaq, faq_hay = heldout.load_corpus(args.registry)

    # ---- files, ids, kinds, domains
    # Records set aside because they are close to a held-out prompt (README) still count.
    data = heldout.read_expected(args.dir, EXPECTED, args.partial, aside='overlap_heldout.jsonl')

    # ---- questions (Korean and English)
    heldout.check_questions(data, manuals, arts, lo_ids, pyfaq)
    qko = data['questions_ko.jsonl']
    by_id = {r['id']: r for r in qko}
    full = heldout.full_checker(data, args.partial)

    per_manual, chapters = heldout.check_spread(qko, chapter, full('questions_ko.jsonl'))

    polite = heldout.check_polite(qko, POLITE_END, MIN_POLITE, full('questions_ko.jsonl'))
    heldout.check_listed(by_id, [('colloquial', COLLOQUIAL, MIN_COLLOQUIAL)], full('questions_ko.jsonl'))
    worst = heldout.check_faq_runs(qko, faq_hay, FAQ_MAX_RUN)

    # ---- sentences
    variants = heldout.check_sentences(data['sentences_ko.jsonl'], manuals, arts, lo_ids, pyfaq, WANT_VARIANTS,
                                       full('sentences_ko.jsonl'))

    # ---- unrelated
    lang, long_logs, shared = heldout.check_unrelated(data['unrelated.jsonl'], CORPUS_WORDS_KO, CORPUS_WORDS_EN,
                                                      TAGS, full('unrelated.jsonl'), MIN_LONG_LOGS, MIN_SHARED_WORDS)

    # ---- not copied from the development set
    # the bench prompts shipped next to this directory, and the development set if given
    refs = heldout.bench_refs(args.dir)
    if args.devset:
        heldout.add_devset_refs(refs, args.devset, EXPECTED)
    heldout.add_set_refs(refs, [(os.path.basename(os.path.normpath(d)), d, True) for d in args.compare], EXPECTED)
    ref_note = heldout.check_not_copied(data, refs, skip_kinds=('sentence',))

    # ---- report
    heldout.report_head(data, per_manual, chapters)
    ends_q = sum(1 for r in qko if r['prompt'].rstrip().endswith('?'))
    print('questions_ko: ending in "?": %d, polite requests: %d, colloquial: %d, longest %d chars' %
          (ends_q, len(polite), len(COLLOQUIAL), max([len(r['prompt']) for r in qko] or [0])))
    print('sentence variants:', dict(sorted(variants.items())))
    heldout.report_tail(lang, long_logs, shared, FAQ_MAX_RUN, worst, ref_note)


if __name__ == '__main__':
    main()
