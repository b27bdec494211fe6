#!/usr/bin/env python3
"""Write names.txt: names of countries (Korean and English) and of programming languages, one
`kind<TAB>name` per line (kind `country` or `language`), for the gate's rule on names the
documents never mention (src/gate/names.rs); a Korean spelling of a language names the language
it spells in a third column (`language<TAB>파이썬<TAB>python`).

    npm pack i18n-iso-countries@7.14.0 linguist-languages@9.5.0
    tar xzf i18n-iso-countries-7.14.0.tgz                       # → package/langs/{ko,en}.json
    mkdir ll && tar xzf linguist-languages-9.5.0.tgz -C ll
    node -e 'console.log(JSON.stringify(require("./ll/package")))' > languages.json
    python3 data/gate/make_names.py package/langs languages.json > data/gate/names.txt

Countries: every Korean and English name and alternative name in i18n-iso-countries' `ko.json`
and `en.json`. Programming languages: the name and aliases of every language of type
"programming" in linguist-languages (GitHub Linguist's list), three characters or more, except
those more common in general English than Zipf 4 (shell, swift, make, console, julia: ordinary
words first; `data/background/en.tsv`). All normalised (NFKC, lowercase); names of more than one
word are left out (the gate matches single words), and so are:
- Korea's own names (대한민국, 한국, 북한, korea …): the documents groundgate is made for are
  Korean, so their country is no foreign topic (the constitution's territory is the peninsula);
- country names that are also ordinary Korean words or endings, so a prompt would hold them
  without naming the country: 건지 (…하는 건지), 수단 (means), 인도 (delivery), 가나 (…가나?),
  오만 (arrogance; 오만 원), 말리 (말리다), 저지 (저지하다), 피지 (sebum);
- English country names that are stop words: us.
Added: country spellings in common use where the package has another one (러시아 for 러시아연방,
체코 for 체코공화국, 폴란드, 포르투갈, 튀니지, 에티오피아, 대만, 타이완, 오스트레일리아,
아랍에미리트) and america, britain, england.
Korean spellings of programming languages (written for this project: no registry package lists
them; each is how Korean developers write the name, and none is an ordinary Korean word): the
KO_LANGUAGES table below. Left out as ordinary words or other names first: 루비 (the gem), 펄
(pearl), 스칼라 (scalar), 다트 (darts), 노드 (node), 셸/쉘 (shell), 베이직 (basic), 파스칼 (the
unit).
Standard library only; the output is sorted by name (code point) and deterministic; a name that
is both (none today) counts as a country.
"""
import json
import os
import sys
import unicodedata

SKIP = {"대한민국", "한국", "남한", "북한", "korea",
        "건지", "수단", "인도", "가나", "오만", "말리", "저지", "피지", "us"}
ADD = ["러시아", "체코", "폴란드", "포르투갈", "튀니지", "에티오피아", "대만", "타이완",
       "오스트레일리아", "아랍에미리트", "america", "britain", "england"]
KO_LANGUAGES = {
    "파이썬": "python", "자바": "java", "자바스크립트": "javascript", "타입스크립트": "typescript",
    "러스트": "rust", "코틀린": "kotlin", "고랭": "golang", "스위프트": "swift", "하스켈": "haskell",
    "씨샵": "csharp", "파워셸": "powershell", "파워쉘": "powershell", "배시": "bash",
    "테라폼": "terraform", "매트랩": "matlab", "포트란": "fortran", "코볼": "cobol",
    "델파이": "delphi", "얼랭": "erlang", "엘릭서": "elixir", "루아": "lua", "솔리디티": "solidity",
}
# Programming language names more common than this in general English are ordinary words first.
MAX_ZIPF = 4.0
HERE = os.path.dirname(os.path.abspath(__file__))


def norm(n):
    return unicodedata.normalize("NFKC", n).lower()


def one_word(n):
    return n and all(c.isalnum() for c in n)


def countries(langs):
    for lang in ("ko", "en"):
        with open(os.path.join(langs, lang + ".json"), encoding="utf-8") as f:
            for v in json.load(f)["countries"].values():
                yield from (v if isinstance(v, list) else [v])


def languages(path):
    with open(path, encoding="utf-8") as f:
        for lang in json.load(f).values():
            if lang.get("type") == "programming":
                yield lang["name"]
                yield from lang.get("aliases") or []


def zipf():
    with open(os.path.join(HERE, "..", "background", "en.tsv"), encoding="utf-8") as f:
        return {w: float(z) for w, z in (line.rstrip("\n").split("\t") for line in f if line.strip())}


def main():
    langs, langfile = sys.argv[1], sys.argv[2]
    common = zipf()
    kind = {n: "language" for n in map(norm, languages(langfile))
            if one_word(n) and len(n) >= 3 and common.get(n, 0.0) <= MAX_ZIPF}
    kind.update({n: "country" for n in map(norm, countries(langs)) if one_word(n)})
    kind.update({n: "country" for n in ADD})
    for n in SKIP:
        kind.pop(n, None)
    of = {}
    for n, spelled in KO_LANGUAGES.items():
        kind[n], of[n] = "language", spelled
    sys.stdout.write("".join(f"{kind[n]}\t{n}" + (f"\t{of[n]}" if n in of else "") + "\n"
                             for n in sorted(kind)))


if __name__ == "__main__":
    main()
