#!/usr/bin/env python3
"""Would a bank of labelled prompts rescue the domain questions the gate skips? (session 35; a
measurement, nothing shipped uses it.)

Every labelled prompt goes through `groundgate ask --jsonl` over the given indexes. Each prompt the
gate skips as unrelated is then compared with the other labelled prompts (leave one out): TF-IDF
cosine over Hangul character bigrams and ASCII words of 2+ letters. The rule tried: the skip becomes
a question to pull when the nearest prompt is a domain prompt with similarity >= T and the k
nearest give domain prompts at least M more similarity than unrelated ones. Prints, per (k, T, M),
the routing right before and after, and how many skipped prompts the rule flips, of them
unrelated. Standard library only.

    python3 benches/question_bank.py --index indexes/{rnd,constitution,lohelp,pyfaq}.ggi \
        --labels <label files> [--bin target/release/groundgate]
"""
import argparse
import collections
import json
import math
import re
import subprocess


def kind_of(label):
    return label.get("kind") or ("question" if label.get("gold") else "unrelated")


def tokens(prompt):
    out = []
    for w in re.findall(r"[가-힣]+|[a-z0-9_]+", prompt.lower()):
        if re.match("[가-힣]", w):
            out += [w] if len(w) == 1 else [w[i:i + 2] for i in range(len(w) - 1)]
        elif len(w) >= 2:
            out.append(w)
    return out


def routed_right(kind, route, got):
    if kind == "question":
        return got == "question" and route in ("push", "pull")
    if kind == "sentence":
        return got == "sentence" and route == "pull"
    return route == "skip"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", nargs="+", required=True)
    ap.add_argument("--labels", nargs="+", required=True)
    ap.add_argument("--bin", default="target/release/groundgate")
    a = ap.parse_args()
    labels = [json.loads(l) for f in a.labels for l in open(f, encoding="utf-8") if l.strip()]
    lines = "".join(json.dumps({"id": str(i), "prompt": l["prompt"]}, ensure_ascii=False) + "\n"
                    for i, l in enumerate(labels))
    index_args = [x for f in a.index for x in ("--index", f)]
    out = subprocess.run([a.bin, "ask", *index_args, "--jsonl", "--now", "0"], input=lines,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    answers = [json.loads(l) for l in out]

    counts = [collections.Counter(tokens(l["prompt"])) for l in labels]
    n = len(counts)
    df = collections.Counter(t for c in counts for t in c)

    def vector(c):
        v = {t: (1 + math.log(k)) * math.log((n + 1) / (df.get(t, 0) + 0.5)) for t, k in c.items()}
        z = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {t: x / z for t, x in v.items()}

    bank = [vector(c) for c in counts]
    nearest = {}
    for j, (l, ans) in enumerate(zip(labels, answers)):
        if ans["route"] == "skip" and ans["kind"] == "unrelated":
            sims = sorted(((sum(x * b.get(t, 0.0) for t, x in bank[j].items()), i)
                           for i, b in enumerate(bank) if i != j), reverse=True)
            nearest[j] = sims[:5]

    before = sum(routed_right(kind_of(l), ans["route"], ans["kind"]) for l, ans in zip(labels, answers))
    print(f"{n} prompts, {len(nearest)} skipped as unrelated; routing right before: {before}")
    print("| k | T | M | routing right after | flipped | of them unrelated |")
    print("|---:|---:|---:|---:|---:|---:|")
    for k in (1, 3, 5):
        for t in (0.2, 0.3, 0.4, 0.5):
            for m in (0.0, 0.3):
                after, flipped, wrong = before, 0, 0
                for j, sims in nearest.items():
                    top = sims[:k]
                    dom = sum(s for s, i in top if kind_of(labels[i]) != "unrelated")
                    unrel = sum(s for s, i in top if kind_of(labels[i]) == "unrelated")
                    s0, i0 = top[0]
                    if kind_of(labels[i0]) != "unrelated" and s0 >= t and dom - unrel >= m:
                        flipped += 1
                        kind = kind_of(labels[j])
                        wrong += kind == "unrelated"
                        # a flip makes the prompt a question to pull (no evidence)
                        after += routed_right(kind, "pull", "question") - routed_right(kind, "skip", "unrelated")
                print(f"| {k} | {t} | {m} | {after} | {flipped} | {wrong} |")


if __name__ == "__main__":
    main()
