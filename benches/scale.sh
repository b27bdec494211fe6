#!/usr/bin/env bash
# Scaling curve (issue 13): rnd × N — its manual files hard-linked N times under new names, so
# every source is a distinct copy — built natively, then search timed natively (`--timings`) and
# in wasm (benches/scale.mjs: open time, RSS growth after loading, search p50/p95, top 10) on the
# 343 R&D FAQ questions. Usage: benches/scale.sh 1 10 100 (after ./build.sh; needs ../shared/data
# or GG_DATA for the questions). Results: docs/scaling.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DATA="${GG_DATA:-$ROOT/../shared/data}"
src="$ROOT/.cache/fetch/korean-rnd-regs-mcp/korean_rnd_regs_mcp"
out="$ROOT/target/scale"
mkdir -p "$out"
questions="$out/questions.jsonl"
node -e 'const fs=require("fs");for(const l of fs.readFileSync(process.argv[1],"utf8").split("\n"))if(l.trim())console.log(JSON.stringify({query:JSON.parse(l).question}))' \
  "$DATA/registry/pypi-korean-rnd-regs-mcp-0.61.0/rnd_manual_faq_ko.jsonl" > "$questions"
for n in "$@"; do
  d="$out/x$n"; rm -rf "$d"; mkdir -p "$d/docs"
  for k in $(seq 1 "$n"); do
    for f in "$src"/manual_*.json; do ln "$f" "$d/docs/manual_c${k}_$(basename "$f" .json | sed 's/^manual_//').json"; done
  done
  # The copy's paths: its documents, the thesaurus (relative to indexes/), and the case book's
  # weight under the copies' names (manual_c1_case, …; a pattern matching nothing is refused).
  sed -e 's#^path = .*#path = "docs"#' -e "s#^thesaurus = .*#thesaurus = [\"$ROOT/data/thesaurus/ko.toml\"]#" \
    -e 's#^manual_case = #"manual_c*_case" = #' indexes/rnd.toml > "$d/rnd.toml"
  /usr/bin/time -f "build x$n: %e s, max RSS %M KB" target/release/groundgate build --manifest "$d/rnd.toml" --out "$d/rnd.ggi" --quiet
  target/release/groundgate search --index "$d/rnd.ggi" --k 10 --jsonl --timings < "$questions" 2>&1 >/dev/null | tail -1 | sed "s/^/native x$n search: /"
  node --expose-gc benches/scale.mjs "$d/rnd.ggi" "$questions" "x$n"
done
