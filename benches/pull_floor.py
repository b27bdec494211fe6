#!/usr/bin/env python3
"""A pull floor, measured offline: if a prompt that every instance's relevance judge rejects were
pulled instead of skipped whenever its best relevance reaches a lower floor, how many routes would
turn right and how many wrong? Reads `groundgate ask --jsonl` answers for the labelled prompts;
a skipped prompt above the floor counts as a gain when it is a domain prompt whose form the router
read right (question or sentence), as a loss when it is unrelated.

    python3 benches/pull_floor.py --index indexes/{rnd,constitution,lohelp,pyfaq}.ggi --labels FILE…
"""
import argparse
import json
import subprocess

FLOORS = [0.15, 0.12, 0.10, 0.08, 0.06, 0.05, 0.04, 0.03]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", nargs="+", required=True)
    ap.add_argument("--labels", nargs="+", required=True)
    ap.add_argument("--bin", default="target/release/groundgate")
    a = ap.parse_args()
    labels = []
    for path in a.labels:
        with open(path, encoding="utf-8") as f:
            labels += [json.loads(line) for line in f if line.strip()]
    lines = "".join(json.dumps({"id": str(i), "prompt": l["prompt"]}, ensure_ascii=False) + "\n"
                    for i, l in enumerate(labels))
    out = subprocess.run([a.bin, "ask", "--index", *a.index, "--jsonl", "--now", "0"],
                         input=lines, capture_output=True, text=True, check=True).stdout
    skipped = []
    for l, line in zip(labels, out.splitlines()):
        ans = json.loads(line)
        if ans["route"] != "skip":
            continue
        kind = l.get("kind") or ("question" if l.get("gold") else "unrelated")
        form = next((r.split(":")[0] for r in ans["reasons"] if r.startswith(("question:", "sentence:"))), None)
        best = max([i["gate"]["relevance"] for i in ans["log"]["instances"] if i.get("gate")] or [0])
        skipped.append((best, kind, form))
    print(f"{len(labels)} prompts, {len(skipped)} skipped")
    print("| floor | routes turned right | routes turned wrong (unrelated pulled) |")
    print("|---:|---:|---:|")
    for t in FLOORS:
        above = [s for s in skipped if s[0] >= t]
        gain = sum(1 for b, k, f in above if k != "unrelated" and k == f)
        loss = sum(1 for b, k, f in above if k == "unrelated")
        print(f"| {t} | {gain} | {loss} |")


if __name__ == "__main__":
    main()
