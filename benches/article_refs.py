#!/usr/bin/env python3
"""Cited statute articles: does `ask` put the article a prompt cites first, and does `search`?

Every article label of the given index (from `groundgate chunks`) is cited in three forms —
"헌법 제N조 보여줘", "헌법 N조", "제N조가 뭐야?" — and each prompt goes through `ask --jsonl` over all
the given indexes and through the `search` tool (top 1). Counted: prompts whose first evidence item
(and whose first search result) is a chunk of the cited article of that instance.

    python3 benches/article_refs.py --instance constitution \
        --index indexes/{rnd,constitution,lohelp,pyfaq}.ggi [--bin target/release/groundgate]
"""
import argparse
import json
import subprocess

FORMS = ["헌법 {label} 보여줘", "헌법 {n}조", "{label}가 뭐야?"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", nargs="+", required=True)
    ap.add_argument("--instance", required=True, help="the instance whose articles are cited")
    ap.add_argument("--bin", default="target/release/groundgate")
    a = ap.parse_args()
    path = next(p for p in a.index if p.rsplit("/", 1)[-1] == a.instance + ".ggi")
    chunks = subprocess.run([a.bin, "chunks", "--index", path], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    labels = sorted({json.loads(c)["article"] for c in chunks if json.loads(c).get("article")},
                    key=lambda l: (len(l), l))
    prompts = []
    for label in labels:
        n = label[1:].split("조")[0]
        prompts += [(label, f.format(label=label, n=n)) for f in FORMS]
    ask_in = "".join(json.dumps({"id": str(i), "prompt": p}, ensure_ascii=False) + "\n"
                     for i, (_, p) in enumerate(prompts))
    asked = subprocess.run([a.bin, "ask", "--index", *a.index, "--jsonl", "--now", "0"],
                           input=ask_in, capture_output=True, text=True, check=True).stdout.splitlines()
    indexes = [x for p in a.index for x in ("--index", p)]
    search_in = "".join(json.dumps({"id": str(i), "query": p, "k": 1}, ensure_ascii=False) + "\n"
                        for i, (_, p) in enumerate(prompts))
    searched = subprocess.run([a.bin, "search", *indexes, "--jsonl", "--tool"], input=search_in,
                              capture_output=True, text=True, check=True).stdout.splitlines()
    first = lambda items, label: bool(items) and items[0].get("instance") == a.instance \
        and items[0].get("article") == label
    n_ask = n_search = 0
    for (label, _), x, y in zip(prompts, asked, searched):
        n_ask += first(json.loads(x).get("evidence") or [], label)
        n_search += first(json.loads(y)["result"]["results"], label)
    print(f"{len(labels)} articles × {len(FORMS)} forms = {len(prompts)} prompts")
    print(f"ask: cited article first {n_ask}/{len(prompts)}")
    print(f"search: cited article first {n_search}/{len(prompts)}")


if __name__ == "__main__":
    main()
