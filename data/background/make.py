#!/usr/bin/env python3
"""Regenerate ko.tsv and en.tsv from the wordfreq wheel (PyPI `wordfreq` 3.1.1, standard library only).

    pip download --no-deps wordfreq==3.1.1 -d /tmp/wf && python3 make.py /tmp/wf/wordfreq-3.1.1-py3-none-any.whl

Each line: a word and its Zipf frequency (log10 of occurrences per billion words), most frequent
first. Korean keeps Hangul-only words, English keeps [a-z][a-z0-9]* words (what the analyzer keeps).
"""
import gzip, io, math, re, struct, sys, zipfile


def unpack(b, i):
    """The subset of MessagePack the wordfreq lists use."""
    t = b[i]
    if t <= 0x7F:
        return t, i + 1
    if 0x90 <= t <= 0x9F or t in (0xDC, 0xDD):
        if t <= 0x9F:
            n, i = t & 0xF, i + 1
        elif t == 0xDC:
            n, i = struct.unpack(">H", b[i + 1:i + 3])[0], i + 3
        else:
            n, i = struct.unpack(">I", b[i + 1:i + 5])[0], i + 5
        out = []
        for _ in range(n):
            v, i = unpack(b, i)
            out.append(v)
        return out, i
    if 0x80 <= t <= 0x8F:
        d, i = {}, i + 1
        for _ in range(t & 0xF):
            k, i = unpack(b, i)
            v, i = unpack(b, i)
            d[k] = v
        return d, i
    if 0xA0 <= t <= 0xBF:
        n = t & 0x1F
        return b[i + 1:i + 1 + n].decode(), i + 1 + n
    if t == 0xD9:
        n = b[i + 1]
        return b[i + 2:i + 2 + n].decode(), i + 2 + n
    if t == 0xDA:
        n = struct.unpack(">H", b[i + 1:i + 3])[0]
        return b[i + 3:i + 3 + n].decode(), i + 3 + n
    if t in (0xC2, 0xC3):
        return t == 0xC3, i + 1
    if t == 0xCC:
        return b[i + 1], i + 2
    raise ValueError(f"unsupported MessagePack type {t:#x} at {i}")


def main(wheel):
    keep = {"ko": re.compile(r"^[가-힣]+$"), "en": re.compile(r"^[a-z][a-z0-9]*$")}
    with zipfile.ZipFile(wheel) as z:
        for lang, pattern in keep.items():
            raw = gzip.decompress(z.read(f"wordfreq/data/small_{lang}.msgpack.gz"))
            lists, _ = unpack(raw, 0)
            assert lists[0] == {"format": "cB", "version": 1}, lists[0]
            with open(f"{lang}.tsv", "w", encoding="utf-8") as out:
                # Bin n holds the words of frequency 10^(-n/100) (centibels).
                for cb, words in enumerate(lists[1:]):
                    for w in sorted(words):
                        if pattern.match(w):
                            out.write(f"{w}\t{math.log10(10 ** (-cb / 100)) + 9:.2f}\n")


if __name__ == "__main__":
    main(sys.argv[1])
