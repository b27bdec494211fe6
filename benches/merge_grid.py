#!/usr/bin/env python3
"""Offline grid over the `search` tool's merge (docs/tools-bench.md, merge section, session 6).

Reads the levers bench's dump — per prompt and instance: the query's terms (weight, idf, df,
background level), the instance's top 60 (score, location, text key, gold) and the gate's
relevance — and replays the merge (attainable ratio, instance share, collapse by location, dedup
by text) for each variant, printing questions / sentences in the top 5 and the merge loss per set.
The replay reproduces the bench's figures for the baseline and the default exactly.

    GG_DATA=/work/shared/data GG_DEVONLY=1 GG_FEATS=/tmp/feats.jsonl cargo bench --bench levers
    python3 benches/merge_grid.py /tmp/feats.jsonl            # needs numpy + scikit-learn for `logit`

Tuning sets only (the dump is made with GG_DEVONLY=1); never run it on the held-out set.
"""
import json
import math
import sys

SETS = ("devset", "train", "train2", "train3")


def load(path):
    P = [json.loads(line) for line in open(path)]
    for p in P:
        for ins in p["inst"]:
            n, k1 = ins["chunks"], ins["k1"] + 1
            max_idf = math.log(1 + (n - 0.5) / 1.5)
            ins["att"] = sum(
                t["w"] * (t["idf"] if t["idf"] is not None else max_idf) * k1 for t in ins["terms"]
            )
    return P


def about(p, vote):
    """The instance share of the query: each term some instance has votes `vote(shares, level)`."""
    terms, lv = {}, {}
    for li, ins in enumerate(p["inst"]):
        for t in ins["terms"]:
            if t["df"] is not None:
                terms.setdefault(t["t"], [0.0] * len(p["inst"]))[li] = t["df"] / ins["chunks"]
            if t["lv"] is not None:
                lv[t["t"]] = t["lv"]
    ab, total = [0.0] * len(p["inst"]), 0.0
    for t, sh in terms.items():
        s = sum(sh)
        if s <= 0:
            continue
        w = vote(sh, lv.get(t, 0))
        total += w
        for i in range(len(sh)):
            ab[i] += w * sh[i] / s
    return [a / total for a in ab] if total > 0 else ab


def ranked(p, score):
    items = [(score(p, li, r, h), li, h["c"], h) for li, ins in enumerate(p["inst"]) for r, h in enumerate(ins["hits"])]
    items.sort(key=lambda x: (-x[0], x[1], x[2]))
    return items


def top5(items):
    locs, keys, out = set(), set(), []
    for _, li, _, h in items:
        if len(out) == 5:
            break
        if (li, h["loc"]) in locs:
            continue
        locs.add((li, h["loc"]))
        if h["key"] in keys:
            continue
        keys.add(h["key"])
        out.append(h)
    return out


def evaluate(P, score, sets=SETS, order=None):
    res = {}
    for st in sets:
        q = nq = s = ns = loss = 0
        for p in P:
            if p["set"] != st:
                continue
            hit = any(h["g"] for h in top5(order(p) if order else ranked(p, score)))
            right = next(i for i in p["inst"] if i["name"] == p["right"])
            if p["file"] == "sentences_ko":
                s, ns = s + hit, ns + 1
            else:
                q, nq = q + hit, nq + 1
            loss += any(h["g"] for h in right["hits"][:4]) and not hit
        if nq:
            res[st] = f"Q {q}/{nq} S {s}/{ns} loss {loss}"
    return "  ".join(f"{k} {v}" for k, v in res.items())


def ratio(ins, h):
    return h["s"] / ins["att"] if ins["att"] > 0 else 0.0


def linear(key, lam):
    """Round 2's merge: ratio × (1 − λ + λ·n·about)."""
    return lambda p, li, r, h: ratio(p["inst"][li], h) * (1 - lam + lam * len(p["inst"]) * p[key][li])


def calibrated(key, b, c, rel=0.0):
    """ln ratio + b ln(n·about) + c ln chunks (+ rel · ln relevance)."""
    def f(p, li, r, h):
        ins = p["inst"][li]
        x = ratio(ins, h)
        if x <= 0:
            return -1e9
        v = math.log(x) + b * math.log(len(p["inst"]) * p[key][li] + 1e-9) + c * math.log(ins["chunks"])
        return v + (rel * math.log((ins.get("rel") or 0.0) + 1e-3) if rel else 0.0)
    return f


def main():
    P = load(sys.argv[1])
    for p in P:
        p["even"] = about(p, lambda sh, lv: 1.0)
        p["share"] = about(p, lambda sh, lv: max(sh) ** 0.25)
    print("baseline (even votes, λ 0.75)    ", evaluate(P, linear("even", 0.75)))
    print("votes by share (λ 0.75)          ", evaluate(P, linear("share", 0.75)))
    print("calibrated (½, −⅛) [default]     ", evaluate(P, calibrated("share", 0.5, -0.125)))
    print("-- votes: (largest or summed share)^a, λ")
    for a in (0.25, 0.4, 0.5, 0.75, 1.0):
        for agg in (max, sum):
            for p in P:
                p["v"] = about(p, lambda sh, lv: agg(sh) ** a)
            for lam in (0.5, 0.75, 1.0):
                print(f"{agg.__name__}^{a} λ{lam}".ljust(33), evaluate(P, linear("v", lam)))
    print("-- everyday words do not vote (background level = Zipf × 20)")
    for name, v in (
        ("Zipf < 4.5", lambda sh, lv: 1.0 if 0 < lv < 90 else 0.0),
        ("Zipf < 5", lambda sh, lv: 1.0 if 0 < lv < 100 else 0.0),
        ("Zipf < 5, level 0 votes", lambda sh, lv: 1.0 if lv < 100 else 0.0),
        ("Zipf < 5.5", lambda sh, lv: 1.0 if 0 < lv < 110 else 0.0),
        ("(6 − Zipf) ÷ 3, level 0 at ½", lambda sh, lv: max(0.0, (120 - lv) / 60) if lv > 0 else 0.5),
        ("(6 − Zipf) ÷ 3, level 0 at 0", lambda sh, lv: max(0.0, (120 - lv) / 60) if lv > 0 else 0.0),
    ):
        for p in P:
            p["v"] = about(p, v)
        print(name.ljust(33), evaluate(P, linear("v", 0.75)))
    print("-- calibrated: share power b × size power c")
    for b in (0.4, 0.5, 0.6, 0.75):
        for c in (0.0, -0.05, -0.1, -0.125, -0.15, -0.2):
            print(f"b {b} c {c}".ljust(33), evaluate(P, calibrated("share", b, c)))
    print("-- the gate's relevance^r in the calibration")
    for b, c, r in ((0.5, -0.125, 0.1), (0.5, -0.125, 0.25), (0.5, -0.125, 0.5), (0, 0, 0.25), (0, 0, 0.5), (0, 0, 1.0)):
        print(f"b {b} c {c} r {r}".ljust(33), evaluate(P, calibrated("share", b, c, r)))
    print("-- interleaving guarantees (votes by share, λ 0.75)")
    base = linear("share", 0.75)

    def guarantee(g):
        def order(p):
            items = ranked(p, base)
            first = [x for x in items if x[1] == items[0][1]][:g]
            return first + [x for x in items if x not in first]
        return order

    def second_at(pos):
        def order(p):
            items = ranked(p, base)
            other = next((x for x in items if x[1] != items[0][1]), None)
            if other is None:
                return items
            rest = [x for x in items if x is not other]
            return rest[: pos - 1] + [other] + rest[pos - 1:]
        return order

    for g in (1, 2, 3):
        print(f"best instance's top {g} first".ljust(33), evaluate(P, None, order=guarantee(g)))
    print("second instance's best at ≤ 4".ljust(33), evaluate(P, None, order=second_at(4)))
    if "logit" in sys.argv[2:]:
        logit(P)


def logit(P):
    """Leave-one-set-out logistic fits of "this hit is gold" (top 20 of every instance)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    def feats(p, li, r, h):
        ins = p["inst"][li]
        n = len(p["inst"])
        return [math.log(ratio(ins, h) + 1e-3), math.log(n * p["share"][li] + 1e-3), math.log(ins["chunks"]), math.log(r + 1)]

    for cols in ([0, 1], [0, 1, 2], [0, 1, 2, 3]):
        out = []
        for hold in SETS[:3]:
            X, y = [], []
            for p in P:
                if p["set"] in SETS[:3] and p["set"] != hold:
                    for li, ins in enumerate(p["inst"]):
                        for r, h in enumerate(ins["hits"][:20]):
                            X.append(feats(p, li, r, h))
                            y.append(h["g"])
            m = LogisticRegression(C=1.0, max_iter=2000).fit(np.array(X)[:, cols], y)
            score = lambda p, li, r, h, m=m: m.decision_function(np.array([feats(p, li, r, h)])[:, cols])[0]
            out.append(evaluate(P, score, sets=(hold,)) + f" coef {np.round(m.coef_[0], 2).tolist()}")
        print(f"logit {cols} (fit on the other two):")
        for o in out:
            print("   ", o)


if __name__ == "__main__":
    main()
