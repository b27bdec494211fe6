#!/usr/bin/env python3
"""The gate's figures through the real engine: every labelled prompt goes through
`groundgate ask --jsonl` over the given indexes, and the answers are counted against the gold
(the same rule as `groundgate::eval::gold`: source, and pages / main-text articles / heading when
the gold names them).

    python3 benches/gate_figures.py --index indexes/{rnd,constitution,lohelp,pyfaq}.ggi \
        --labels benches/data/heldout/*.jsonl [--bin target/release/groundgate] [--misses]

Label files are the devset's format (prompt, kind, gold). Figures (issue 11's table):
questions that get evidence; of those, gold inside the injected text; questions with gold pushed;
unrelated prompts that get evidence; routing right (question → kind question and push/pull;
pasted sentence → kind sentence and pull; unrelated → skip); polite requests kept as questions;
pasted sentences pushed with evidence. Standard library only.

Two more figures say how much of the answer reaches the model, not only where it is from: for the
questions that get evidence and whose label has an `answer_hint` (a short answer written with the
gold), the share of the hint's words found in the injected evidence text (Hangul words as their
character bigrams, other words of 3+ letters whole; the mean over questions, and how many have at
least half), and the share of the injected characters that is the documents' text (the rest is
citation and source lines).

`--prefix TEXT` puts TEXT in front of every Korean domain question (the others stay as written):
how much a greeting costs the gate, e.g. `--prefix "안녕하세요, 수고 많으십니다. "`; `--nospace` removes
every space of every Korean domain question first (Korean typed without spaces)
(docs/gate-bench.md, "Small talk").
"""
import argparse
import json
import re
import subprocess
import sys


def article_number(label):
    m = re.fullmatch(r"제(\d+)조", label or "")
    return int(m.group(1)) if m else None


def gold_hit(gold, e):
    if e.get("source") != gold["source"]:
        return False
    if gold.get("pages") and e.get("page") not in gold["pages"]:
        return False
    if gold.get("articles"):
        if (e.get("section") or "").startswith("부칙"):
            return False
        if article_number(e.get("article")) not in gold["articles"]:
            return False
    sec = gold.get("section") or gold.get("heading")
    if sec is not None and sec not in (e.get("heading"), e.get("section")):
        return False
    return True


def hint_grams(text):
    """The answer-hint words as the hint figures compare them: Hangul words as their character
    bigrams, other words of 3+ letters or digits whole, lowercased."""
    grams = set()
    for w in re.findall(r"[가-힣]+|[a-z0-9_]+", text.lower()):
        if re.match("[가-힣]", w):
            grams |= {w[i:i + 2] for i in range(len(w) - 1)}
        elif len(w) > 2:
            grams.add(w)
    return grams


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", nargs="+", required=True)
    ap.add_argument("--labels", nargs="+", required=True)
    ap.add_argument("--bin", default="target/release/groundgate")
    ap.add_argument("--misses", action="store_true", help="list the prompts routed wrong")
    ap.add_argument("--config", help="engine settings (TOML), passed to `ask --config`")
    ap.add_argument("--nospace", action="store_true",
                    help="remove the spaces of every Korean domain question (typed without spaces)")
    ap.add_argument("--prefix", default="", help="text put in front of every Korean domain question")
    a = ap.parse_args()
    labels = []
    for path in a.labels:
        with open(path, encoding="utf-8") as f:
            labels += [json.loads(line) for line in f if line.strip()]
    for l in labels:
        kind = l.get("kind") or ("question" if l.get("gold") else "unrelated")
        if kind == "question" and re.search("[가-힣]", l["prompt"]):
            if a.nospace:
                l["prompt"] = re.sub(r"\s+", "", l["prompt"])
            if a.prefix:
                l["prompt"] = a.prefix + l["prompt"]
    lines = "".join(json.dumps({"id": str(i), "prompt": l["prompt"]}, ensure_ascii=False) + "\n"
                    for i, l in enumerate(labels))
    config = ["--config", a.config] if a.config else []
    out = subprocess.run([a.bin, "ask", "--index", *a.index, "--jsonl", "--now", "0", *config],
                         input=lines, capture_output=True, text=True, check=True).stdout
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(labels), (len(answers), len(labels))
    n = dict(q=0, q_ev=0, q_gold=0, q_gold_ev=0, q_gold_in=0, u=0, u_ev=0, s=0, s_ev=0,
             right=0, polite=0, polite_q=0, hint=0, hint_sum=0.0, hint_half=0, chars=0, text=0)
    misses = []
    for l, ans in zip(labels, answers):
        kind = l.get("kind") or ("question" if l.get("gold") else "unrelated")
        ev = ans.get("evidence") or []
        route = ans.get("route")
        if l.get("polite"):
            n["polite"] += 1
            n["polite_q"] += ans.get("kind") == "question"
        if kind == "question":
            n["q"] += 1
            n["q_ev"] += bool(ev)
            if l.get("gold"):
                n["q_gold"] += 1
                n["q_gold_ev"] += bool(ev)
                n["q_gold_in"] += any(gold_hit(g, e) for g in l["gold"] for e in ev)
            hint = hint_grams(l.get("answer_hint") or "")
            if ev and hint:
                found = len(hint & hint_grams(" ".join(e.get("text", "") for e in ev))) / len(hint)
                n["hint"] += 1
                n["hint_sum"] += found
                n["hint_half"] += found >= 0.5
            if ev:
                n["chars"] += sum(e.get("chars", 0) for e in ev)
                n["text"] += sum(len(e.get("text", "")) for e in ev)
            ok = ans.get("kind") == "question" and route in ("push", "pull")
        elif kind == "sentence":
            n["s"] += 1
            n["s_ev"] += bool(ev)
            ok = ans.get("kind") == "sentence" and route == "pull"
        else:
            n["u"] += 1
            n["u_ev"] += bool(ev)
            ok = route == "skip"
        n["right"] += ok
        if not ok:
            misses.append((kind, route, ans.get("kind"), l["prompt"]))

    def pct(x, d):
        return f"{100 * x / d:.1f}% ({x}/{d})" if d else "–"

    print(f"| figure | {len(labels)} prompts |\n|---|---:|")
    print(f"| domain questions that get evidence | {pct(n['q_ev'], n['q'])} |")
    print(f"| … of those, gold inside the injected text | {pct(n['q_gold_in'], n['q_gold_ev'])} |")
    print(f"| domain questions with gold pushed | {pct(n['q_gold_in'], n['q_gold'])} |")
    print(f"| unrelated prompts that get evidence | {pct(n['u_ev'], n['u'])} |")
    print(f"| routing right | {pct(n['right'], len(labels))} |")
    print(f"| polite requests kept as questions | {n['polite_q']}/{n['polite']} |")
    print(f"| pasted sentences pushed with evidence | {n['s_ev']}/{n['s']} |")
    if n["hint"]:
        print(f"| answer hint's words in the evidence text (mean) | {100 * n['hint_sum'] / n['hint']:.1f}% "
              f"({n['hint']} questions with evidence and a hint) |")
        print(f"| … questions with at least half of them | {pct(n['hint_half'], n['hint'])} |")
    if n["chars"]:
        print(f"| documents' text in the injected characters (questions) | {pct(n['text'], n['chars'])} |")
    if a.misses:
        for kind, route, got, prompt in misses:
            print(f"- {kind} → {route} ({got}): {prompt[:100]}", file=sys.stderr)


if __name__ == "__main__":
    main()
