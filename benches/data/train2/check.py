#!/usr/bin/env python3
"""Validate the second training set in this directory against the registry corpus.

Adapted from ../train/check.py (same checks and record format; other id prefixes, counts and
tallies). The corpus loaders and shared checks are the held-out validator's (../heldout/check.py);
this file reads nothing but this directory, the corpus and the sets it compares against.

Checks: JSON parses, record counts, unique ids (vq/vu/ve) across all files, required fields and
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
first training set (../train), ../unrelated_prompts.jsonl, ../polite_requests.jsonl or (with
--devset / --compare) another labelled set.

Usage: python3 check.py [--registry DIR] [--devset DIR] [--compare DIR ...] [--partial]
  --registry  the corpus (default: shared/data/registry next to the repository)
  --devset    optional: the development set's directory, to check that nothing was copied from it
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
    'questions_ko.jsonl': dict(n=80, kind='question', route='push', prefix='vq',
                               domains={'rnd_manual': 35, 'constitution': 25, 'libreoffice_help': 20}),
    'unrelated.jsonl': dict(n=80, kind='unrelated', route='skip', prefix='vu'),
    'questions_en.jsonl': dict(n=20, kind='question', route='push', prefix='ve',
                               domains={'python_faq': 20}),
}
# MANUAL_STEMS and MIN_PER_MANUAL: the held-out validator's (check_spread, check_questions).
MIN_POLITE = 15
MIN_COLLOQUIAL = 45
MIN_SITUATIONAL = 15
MIN_INQUIRY = 15
MIN_SHARED_WORDS = 30
MIN_LONG_LOGS = 2
FAQ_MAX_RUN = 13            # longest run of characters a question may share with a manual FAQ question
# Questions in everyday wording against the documents' formal wording (judged by the author).
COLLOQUIAL = {
    'vq001', 'vq002', 'vq004', 'vq006', 'vq007', 'vq008', 'vq009', 'vq010', 'vq011', 'vq012', 'vq014',
    'vq015', 'vq018', 'vq019', 'vq020', 'vq021', 'vq022', 'vq023', 'vq024', 'vq025', 'vq027', 'vq028',
    'vq029', 'vq032', 'vq033', 'vq034', 'vq036', 'vq037', 'vq038', 'vq040', 'vq042', 'vq043', 'vq045',
    'vq047', 'vq048', 'vq049', 'vq050', 'vq051', 'vq052', 'vq053', 'vq056', 'vq058', 'vq059', 'vq061',
    'vq062', 'vq063', 'vq064', 'vq065', 'vq066', 'vq067', 'vq068', 'vq069', 'vq070', 'vq071', 'vq072',
    'vq073', 'vq074', 'vq075', 'vq079',
}
# Long situational prompts: a person describing their situation in 2–4 sentences (judged by the author).
SITUATIONAL = {
    'vq003', 'vq005', 'vq011', 'vq013', 'vq017', 'vq024', 'vq026', 'vq031', 'vq037', 'vq040', 'vq050',
    'vq055', 'vq073', 'vq075', 'vq076', 'vq078',
}
# Request endings that make a prompt a polite request (…알려 주세요, …해줘, …부탁드려요, …정리해 줄래?).
POLITE_END = re.compile(r'(주세요|줘|줘요|줄래|줄래요|부탁드려요|부탁드립니다|주실래요|주시겠어요|주시겠습니까|'
                        r'부탁해요|부탁합니다)[.!?~]*$')
# Inquiry endings of a letter to an office.
INQUIRY_END = re.compile(r'(문의드립니다|문의 드립니다|궁금합니다|알고 싶습니다|알고싶습니다|여쭤봅니다|여쭙니다)[.!?~]*$')
# Words that tie an unrelated prompt to the corpus vocabulary without making it about the corpus.
CORPUS_WORDS_KO = ['연구', '계약', '평가', '예산', '과제', '기관', '인건비', '정산', '헌법', '국회', '대통령',
                   '서식', '표', '셀', '시트', '피벗', '파이썬', 'python', 'list', 'dictionary', '리스트',
                   '딕셔너리', 'exception', '예외', '엑셀', '스프레드시트', '연봉', '퇴직금', '연말정산', '세액공제']
CORPUS_WORDS_EN = ['article', 'budget', 'evaluation', 'contract', 'research', 'agency', 'constitution',
                   'congress', 'president', 'python', 'list', 'dictionary', 'table', 'cell', 'sheet',
                   'pivot', 'exception', 'spreadsheet', 'basic law']
TAGS = {'long_log', 'very_short', 'shares_corpus_words'}

# The corpus loaders and the checks shared by the label validators are the held-out validator's
# (one home; called as heldout.NAME), loaded by path since both files are named check.py.
_spec = importlib.util.spec_from_file_location('heldout_check', os.path.join(HERE, '..', 'heldout', 'check.py'))
heldout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(heldout)


def reference_dirs(args):
    """The first training set (if present) and the devset (if given)."""
    dirs = [('train', os.path.join(args.dir, '..', 'train'), False)]
    if args.devset:
        dirs.append(('devset', args.devset, True))
    return dirs


def main():
    heldout.check_inquiry_set(HERE, sys.modules[__name__], reference_dirs)


if __name__ == '__main__':
    main()
