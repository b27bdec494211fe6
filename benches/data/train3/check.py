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
import importlib.util
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

# The corpus loaders and the checks shared by the label validators are the held-out validator's
# (one home; called as heldout.NAME), loaded by path since both files are named check.py.
_spec = importlib.util.spec_from_file_location('heldout_check', os.path.join(HERE, '..', 'heldout', 'check.py'))
heldout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(heldout)


def reference_dirs(args):
    """The first two training sets and the devset (by default devset/ next to the registry)."""
    if args.devset is None:
        args.devset = os.path.join(os.path.dirname(os.path.normpath(args.registry)), 'devset')
    return [('train', os.path.join(args.dir, '..', 'train'), True),
            ('train2', os.path.join(args.dir, '..', 'train2'), True),
            ('devset', args.devset, True)]


def main():
    heldout.check_inquiry_set(HERE, sys.modules[__name__], reference_dirs)


if __name__ == '__main__':
    main()
