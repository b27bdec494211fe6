//! Instance manifests (TOML) and the build pipeline: inputs → documents → chunks → index bytes.
//!
//! ```toml
//! name = "constitution"                 # instance name (required)
//! title = "대한민국헌법"
//! description = "The Constitution of the Republic of Korea"
//! anchors = ["헌법", "기본권"]            # anchor words for the anchor gate
//! derive_anchors = 300                  # plus up to 300 derived from headings and titles
//! outside_names = true                  # store the country / language names never mentioned
//!                                       # (default true; see `gate::names`)
//! prompt_language = "ko"                # the readers write in Korean: a prompt without Hangul
//!                                       # is not about these documents (see `gate::script`)
//! sufficiency = 8.0                     # legacy (round 1 BM25 threshold), stored but unused by the gate
//! text = "ranked"                       # chunk text storage: "ranked" (default), "hangul", "lz4" or "plain"
//! [bm25]                                # optional; defaults k1 = 1.2, b = 0.75
//! k1 = 1.2
//! b = 0.75
//! [chunking]
//! max_chars = 450
//! [aliases]                             # readers' words for the documents' names, indexed with
//! Calc = ["캘크"]                        # every chunk that has the name (see `ingest::aliases`)
//! thesaurus = ["../data/thesaurus/ko.toml"]  # (top level) everyday words for formal ones, from
//!                                       # files of `"퇴직" = ["그만두", …]`, relative to the manifest
//! thesaurus_share = 0.02                # (top level) an entry applies where its formal word is
//!                                       # in at most this share of the chunks (default 0.02)
//! [context]                             # indexed with every chunk, not stored (see [`Context`])
//! title = false                         # the source title (default false)
//! keywords = true                       # the document's keyword metadata (default true)
//! sections = false                      # a section's chapter title (default false, see Context)
//!
//! [[input]]
//! format = "statute"   # html | markdown | rst | text | jsonl | statute | manual-json | glossary-tsv | glossary-jsonl
//! path = "../.cache/fetch/konlpy/kolaw/constitution.txt"   # file or directory, relative to the manifest
//! include = ["*.txt"]  # file-name patterns (`*` wildcard) when `path` is a directory
//! exclude = []
//! id = "constitution"  # source id for a single-file input (default: file name without extensions)
//! kind = "statute"     # overrides the source kind
//! date = "1987-10-29"  # overrides the reference date
//! link = "https://example.org/{id}"   # link template; {id} is replaced by the source id
//! contents = "help/ko/contents.js"     # a table of contents (nested HTML list, or a JS string of
//!                                      # one), relative to the manifest: each linked page (link
//!                                      # target = source id) gets the labels it sits under
//! ```
//!
//! Directories are walked recursively in sorted order, so builds are deterministic. Source ids of
//! files under a directory are their paths relative to it (HTML) or their stems (other formats).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::chunk::{ChunkOptions, chunk_document};
use super::files::{Files, Kind, StdFs};
use super::markup::Markup;
use super::{Document, glossary, html, jsonl, manual, markup, statute};
use crate::error::{Error, Result};
use crate::index::IndexBuilder;
use crate::search::Bm25Params;
use crate::text::AnalyzerSettings;

/// An instance manifest.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Instance name.
    pub name: String,
    /// Title (defaults to the name).
    pub title: Option<String>,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Anchor words.
    #[serde(default)]
    pub anchors: Vec<String>,
    /// Derive up to this many more anchors from the headings, titles and glossary terms (default
    /// 300; 0 turns derivation off). See [`crate::gate::anchor::derive`].
    pub derive_anchors: Option<usize>,
    /// Store the bundled country and programming-language names the documents never mention, of
    /// the kinds they never talk about (section `names`; default true): a prompt naming one is then
    /// not about this instance ([`crate::gate::names`]). `false` leaves the section out, for
    /// documents whose readers ask about places or languages the documents do not name.
    pub outside_names: Option<bool>,
    /// The language the documents' readers write their prompts in (`"ko"`, the only one the gate
    /// can tell): a prompt without a Hangul syllable is then not about this instance (section
    /// `prompt_language`; [`crate::gate::script`]). Absent: every prompt may be.
    pub prompt_language: Option<String>,
    /// Legacy (round 1): a BM25 score threshold, still stored in the index meta but not used by the
    /// gate, whose judges are fitted with `groundgate calibrate`.
    pub sufficiency: Option<f32>,
    /// Chunk text storage: `"ranked"` (default), `"hangul"`, `"lz4"` or `"plain"` (see
    /// [`crate::index::TextCodec`]).
    #[serde(default)]
    pub text: crate::index::TextCodec,
    /// BM25 parameters.
    pub bm25: Option<Bm25Params>,
    /// Analyzer settings (default: the shipped analyzer).
    pub analyzer: Option<AnalyzerSettings>,
    /// Chunking.
    pub chunking: Option<Chunking>,
    /// What else is indexed with every chunk (default: the document's keywords, not its title).
    pub context: Option<Context>,
    /// Readers' words for names the documents write otherwise (name → aliases), indexed with every
    /// chunk that contains the name ([`crate::ingest::aliases`]).
    #[serde(default)]
    pub aliases: std::collections::BTreeMap<String, Vec<String>>,
    /// Thesaurus files (`"formal word" = ["everyday word", …]`, TOML), relative to the manifest
    /// ([`Manifest::thesaurus_from`]). Like [`Manifest::aliases`], but an entry applies only where
    /// its formal word is in at most `thesaurus_share` of the chunks: a word many chunks use (변경,
    /// 입력) would give its everyday words to all of them. The project ships
    /// `data/thesaurus/ko.toml` (everyday Korean words for the formal ones public documents use)
    /// and `data/thesaurus/en.toml` (plain English for the technical words of software manuals).
    #[serde(default)]
    pub thesaurus: Vec<PathBuf>,
    /// The largest share of the chunks (0–1) a thesaurus entry's formal word may be in for the
    /// entry to apply (default [`THESAURUS_MAX_SHARE`]).
    pub thesaurus_share: Option<f64>,
    /// Source weights in the search ranking: source-id pattern (`*` matches any run of
    /// characters, `/` included) → a weight multiplying the BM25 score of the matching sources'
    /// chunks (above 0, at most [`MAX_WEIGHT`](crate::index::weights::MAX_WEIGHT); a source that
    /// matches several patterns takes their product). `"*/guide/*" = 1.3` ranks the LibreOffice
    /// help's how-to guides above its menu reference pages. Stored in the index (section
    /// `weights`); the `search` tool and `ask` rank with it, plain BM25 `search` does not.
    #[serde(default)]
    pub source_weights: std::collections::BTreeMap<String, f32>,
    /// Inputs.
    #[serde(rename = "input", default)]
    pub inputs: Vec<Input>,
}

/// Chunking settings.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chunking {
    /// Largest chunk, in characters ([`MIN_CHUNK_CHARS`] at least).
    pub max_chars: usize,
}

/// The smallest `max_chars` a manifest may set: a chunk must hold a sentence to be cited.
pub const MIN_CHUNK_CHARS: usize = 50;

/// What is indexed with every chunk of a document besides its heading and text: words a reader
/// would search by that the chunk itself may not contain. Indexed only; the stored text is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Context {
    /// The source title (when it is not the chunk's heading).
    pub title: bool,
    /// The document's keywords ([`Document::keywords`]: a help page's index entries).
    pub keywords: bool,
    /// The heading of the larger division the chunk's section belongs to
    /// ([`Document::section_titles`]: a manual's chapter title, a statute's chapter). Measured on
    /// the devset and left off by default: no question gained (docs/tools-bench.md).
    pub sections: bool,
}

impl Default for Context {
    fn default() -> Self {
        Context { title: false, keywords: true, sections: false }
    }
}

impl Context {
    /// The context text of `chunk` of `doc`.
    pub fn text(&self, doc: &Document, chunk: &crate::corpus::Chunk) -> String {
        let mut parts: Vec<&str> = Vec::new();
        let title = doc.source.title.trim();
        if self.title
            && !title.is_empty()
            && chunk.location.heading.as_deref() != Some(title)
            && !chunk.text.starts_with(title)
        {
            parts.push(title);
        }
        if self.keywords {
            parts.extend(doc.keywords.iter().map(String::as_str));
        }
        if self.sections
            && let Some(t) = chunk.location.section.as_deref().and_then(|s| doc.section_title(s))
        {
            parts.push(t);
        }
        // A table of contents the manifest names is always used (`Input::contents`).
        parts.extend(doc.chapters.iter().map(String::as_str));
        parts.join("\n")
    }
}

/// One input of a manifest.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// Format name.
    pub format: String,
    /// File or directory, relative to the manifest.
    pub path: PathBuf,
    /// File-name patterns to include (a pattern with a `/` matches the path below `path`).
    #[serde(default)]
    pub include: Vec<String>,
    /// File-name patterns to exclude (a pattern with a `/` matches the path below `path`).
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Source id for a single file (a folder's files are named by their file names).
    pub id: Option<String>,
    /// Source kind override.
    pub kind: Option<String>,
    /// Reference date override: a string, or a TOML date written without quotes
    /// (`date = 2024-01-01`), kept as written.
    #[serde(default, deserialize_with = "date_or_text")]
    pub date: Option<String>,
    /// Link template (`{id}` → source id).
    pub link: Option<String>,
    /// A table of contents, relative to the manifest ([`super::contents`]): the labels each linked
    /// page (link target = source id) sits under become its [`Document::chapters`].
    pub contents: Option<PathBuf>,
}

/// Anchors derived per instance unless the manifest says otherwise.
pub const DEFAULT_DERIVED_ANCHORS: usize = 300;

/// By default a thesaurus entry applies only where its formal word is in at most this share of
/// the chunks (manifest `thesaurus_share`; chosen on the retrieval bench, docs/tools-bench.md).
pub const THESAURUS_MAX_SHARE: f64 = 0.02;

/// What a build produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Documents (sources) read.
    pub documents: usize,
    /// Chunks written.
    pub chunks: usize,
    /// Distinct terms.
    pub terms: u32,
    /// Index size in bytes.
    pub bytes: usize,
    /// UTF-8 bytes of chunk text indexed.
    pub text_bytes: usize,
    /// Anchor words stored (the manifest's and those derived from headings and titles).
    pub anchors: usize,
    /// Sources read that hold no text (an empty file, a page of scripts only): no chunk of theirs
    /// can be found.
    pub empty: Vec<String>,
}

impl BuildStats {
    /// Notes for the person who built the index, one per line: when it has no anchor word (the
    /// judges then read a prompt's words alone, and a small collection's own questions may be
    /// skipped), and when sources hold no text.
    pub fn note(&self, name: &str) -> Option<String> {
        let mut notes = Vec::new();
        if self.anchors == 0 {
            notes.push(format!(
                "note: {name} has no anchor words (none in the manifest, none recur in its headings): the \
                 gate judges prompts on their words alone and may skip questions about these \
                 documents; list their key words in `anchors = [...]` and try a few with `ask \
                 --format detailed`"
            ));
        }
        if let Some(first) = self.empty.first() {
            let more = match self.empty.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            notes.push(format!(
                "note: {} source{} of {name} hold{} no text ({first}{more}): nothing in them can be found; \
                 check that the files are not empty and that their [[input]]'s format is theirs",
                self.empty.len(),
                if self.empty.len() == 1 { "" } else { "s" },
                if self.empty.len() == 1 { "s" } else { "" },
            ));
        }
        (!notes.is_empty()).then(|| notes.join("\n"))
    }
}

/// `*`-wildcard match of a file name.
pub fn wildcard(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// A date as TOML gives it: text, or a date/time value (`date = 2024-01-01`), as its text.
fn date_or_text<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Date {
        Text(String),
        Value(toml::value::Datetime),
    }
    let date = Option::<Date>::deserialize(d).map_err(|_| {
        serde::de::Error::custom("date: write it as text (\"2024-01\") or a TOML date (2024-01-01)")
    })?;
    Ok(date.map(|v| match v {
        Date::Text(t) => t,
        Date::Value(v) => v.to_string(),
    }))
}

/// The source id a table of contents' link names, when it is written another way than the id:
/// `./a.html`, `/guide/b.html` (from the site's root), `../guide/b.html` (from the table's folder
/// `dir`, below the input's). None when the link is the id itself or names no source of `ids`.
fn toc_target(target: &str, dir: Option<&str>, ids: &std::collections::BTreeSet<&str>) -> Option<String> {
    if ids.contains(target) {
        return None;
    }
    let plain = target.trim_start_matches("./").trim_start_matches('/');
    let mut candidates = vec![plain.to_string()];
    if let Some(dir) = dir.filter(|d| !d.is_empty()) {
        // `dir/target` with `.` and `..` steps resolved.
        let mut parts: Vec<&str> = dir.split('/').collect();
        for step in target.split('/') {
            match step {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        candidates.push(parts.join("/"));
    }
    candidates.into_iter().find(|c| ids.contains(c.as_str()))
}

/// Deepest folder [`walk`] enters below an input's `path`.
const MAX_DEPTH: usize = 32;

/// Every file under `dir`, sorted folder by folder, but hidden ones: a name starting with `.`
/// (`.git/`, macOS's `._guide.md` copies, which are not text) is left out with what it holds. A
/// link to a folder above (`self -> .`, `up -> ..`) makes the tree endless (two such links,
/// exponential): past [`MAX_DEPTH`] levels — which the walk, depth first, reaches before it has
/// listed much — it stops with an error naming the folder.
fn walk(fs: &dyn Files, dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    walk_from(fs, dir, out, 0)
}

fn walk_from(fs: &dyn Files, dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::input(
            dir.display().to_string(),
            format!("folders nested more than {MAX_DEPTH} deep: does a link point back to a folder above?"),
        ));
    }
    let mut entries = fs.list(dir)?;
    entries.retain(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')));
    entries.sort();
    for p in entries {
        if fs.kind(&p) == Kind::Dir {
            walk_from(fs, &p, out, depth + 1)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

fn default_include(format: &str) -> &'static [&'static str] {
    match format {
        "html" => &["*.html", "*.htm"],
        "markdown" => &["*.md", "*.markdown"],
        "rst" => &["*.rst", "*.rst.txt"],
        "text" | "statute" => &["*.txt"],
        "jsonl" | "glossary-jsonl" => &["*.jsonl"],
        "manual-json" => &["*.json"],
        "glossary-tsv" => &["*.tsv"],
        _ => &["*"],
    }
}

/// The input formats a manifest may name.
const FORMATS: [&str; 9] =
    ["html", "markdown", "rst", "text", "jsonl", "statute", "manual-json", "glossary-tsv", "glossary-jsonl"];

fn unknown_format(format: &str) -> String {
    let (last, rest) = FORMATS.split_last().unwrap_or((&"", &[]));
    format!("unknown format {format:?}; use {} or {last}", rest.join(", "))
}

/// File name without its extensions (`design.rst.txt` → `design`).
fn stem(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    name.split('.').next().unwrap_or(&name).to_string()
}

/// `file`'s path below `root`, `/`-separated (`team-a/intro.md`).
fn below(file: &Path, root: &Path) -> String {
    file.strip_prefix(root).unwrap_or(file).to_string_lossy().replace('\\', "/")
}

/// The source ids of one input's files (`root`: the input's path; `single`: it names one file):
/// the input's `id` for one file; the path below `root` for HTML (`guide/print.html`); else the
/// file name without its extensions — or, for files whose names would give one id
/// (`team-a/intro.md` and `team-b/intro.md`, `policy.2023.txt` and `policy.2024.txt`), the path
/// below `root` without its last extension (`team-a/intro`, `policy.2023`). Hangul is composed
/// (a macOS file name's jamo → syllables).
fn source_ids(input: &Input, root: &Path, files: &[PathBuf], single: bool) -> Vec<String> {
    if single && let Some(id) = &input.id {
        return vec![id.clone()];
    }
    // Hangul file names from macOS arrive decomposed: ids are composed, as people type them.
    derived_ids(input, root, files, single).iter().map(|id| crate::text::compose_hangul(id)).collect()
}

fn derived_ids(input: &Input, root: &Path, files: &[PathBuf], single: bool) -> Vec<String> {
    if input.format == "html" && !single {
        return files.iter().map(|f| below(f, root)).collect();
    }
    let stems: Vec<String> = files.iter().map(|f| stem(f)).collect();
    let mut uses: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for s in &stems {
        *uses.entry(s).or_default() += 1;
    }
    stems
        .iter()
        .zip(files)
        .map(|(id, f)| {
            if uses[id.as_str()] == 1 || single {
                return id.clone();
            }
            let path = below(f, root);
            let cut = path.rfind('.').filter(|&i| i > path.rfind('/').map_or(0, |j| j + 1));
            cut.map_or(path.clone(), |i| path[..i].to_string())
        })
        .collect()
}

impl Manifest {
    /// Read a manifest file.
    pub fn load(path: &Path) -> Result<Manifest> {
        Self::load_from(&StdFs, path)
    }

    /// Read a manifest file through `fs`.
    pub fn load_from(fs: &dyn Files, path: &Path) -> Result<Manifest> {
        let text = fs.read_to_string(path)?;
        let m: Manifest =
            toml::from_str(&text).map_err(|e| Error::input(path.display().to_string(), e.to_string()))?;
        // The engine's rule (one home: `engine::valid_name`), so every index built loads.
        if !crate::engine::valid_name(&m.name) {
            return Err(Error::input(
                path.display().to_string(),
                format!("name {:?}: use 1–64 ASCII letters, digits, - or _", m.name),
            ));
        }
        if m.inputs.is_empty() {
            return Err(Error::input(path.display().to_string(), "no [[input]]"));
        }
        // Before any file is listed, so that the message names the manifest and the input.
        if let Some((n, input)) =
            m.inputs.iter().enumerate().find(|(_, i)| !FORMATS.contains(&i.format.as_str()))
        {
            return Err(Error::input(
                path.display().to_string(),
                format!("[[input]] {} (path {:?}): {}", n + 1, input.path, unknown_format(&input.format)),
            ));
        }
        if let Some(c) = m.chunking.filter(|c| c.max_chars < MIN_CHUNK_CHARS) {
            return Err(Error::input(
                path.display().to_string(),
                format!("[chunking] max_chars = {}: at least {MIN_CHUNK_CHARS}", c.max_chars),
            ));
        }
        // The reader refuses an index with a non-finite one: refused here, naming the key.
        if let Some(t) = m.sufficiency.filter(|t| !t.is_finite() || *t < 0.0) {
            return Err(Error::input(
                path.display().to_string(),
                format!("sufficiency = {t}: must be a number ≥ 0"),
            ));
        }
        Ok(m)
    }

    /// The entries of the manifest's thesaurus files (formal word → everyday words, merged in file
    /// order), read through `fs` from `base` (the manifest's folder).
    pub fn thesaurus_from(&self, fs: &dyn Files, base: &Path) -> Result<Thesaurus> {
        let mut words = Thesaurus::new();
        for file in &self.thesaurus {
            let at = base.join(file);
            let table: Thesaurus = toml::from_str(&fs.read_to_string(&at)?)
                .map_err(|e| Error::input(at.display().to_string(), e.to_string()))?;
            for (name, more) in table {
                words.entry(name).or_default().extend(more);
            }
        }
        Ok(words)
    }

    /// The files an input names, sorted.
    pub fn files(input: &Input, base: &Path) -> Result<Vec<PathBuf>> {
        Self::files_in(&StdFs, input, base)
    }

    /// The files an input names, sorted, through `fs`.
    pub fn files_in(fs: &dyn Files, input: &Input, base: &Path) -> Result<Vec<PathBuf>> {
        let root = base.join(&input.path);
        let kind = fs.kind(&root);
        if kind == Kind::File {
            return Ok(vec![root]);
        }
        if kind != Kind::Dir {
            return Err(Error::input(
                root.display().to_string(),
                "not found: fix the input's `path` (relative to the manifest's folder; the default \
                 indexes' sources are fetched by the repository's ./build.sh)",
            ));
        }
        if input.id.is_some() {
            return Err(Error::input(
                root.display().to_string(),
                "`id` names the source of a one-file input; a folder's files are named by their \
                 file names: leave `id` out, or give each file an [[input]] of its own",
            ));
        }
        let mut all = Vec::new();
        walk(fs, &root, &mut all)?;
        let include: Vec<String> = if input.include.is_empty() {
            default_include(&input.format).iter().map(|s| s.to_string()).collect()
        } else {
            input.include.clone()
        };
        // A pattern with a `/` matches the path below the input's folder (`guide/*`), one without
        // the file name.
        let matches = |pat: &str, p: &Path| {
            let name = if pat.contains('/') {
                below(p, &root)
            } else {
                p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
            };
            wildcard(pat, &name)
        };
        // An index is never a document (one built into its own input folder would be read as text
        // on the next build).
        let index = |p: &Path| p.extension().is_some_and(|e| e == "ggi");
        let files: Vec<PathBuf> = all
            .into_iter()
            .filter(|p| {
                !index(p)
                    && include.iter().any(|pat| matches(pat, p))
                    && !input.exclude.iter().any(|pat| matches(pat, p))
            })
            .collect();
        // A name that is not UTF-8 (a CP949 name from an older Korean system) cannot be a source
        // id or be opened again by the name the npm bin's file system gives it: a file the input
        // would read is refused the same on both (others, say the original .hwp files, are not read).
        if let Some(bad) = files.iter().find(|p| below(p, &root).contains('\u{FFFD}')) {
            return Err(Error::input(
                bad.display().to_string(),
                "the file name is not UTF-8 (older Korean systems name files in CP949): rename the file",
            ));
        }
        if files.is_empty() {
            return Err(Error::input(
                root.display().to_string(),
                format!(
                    "no file of this [[input]] (format {:?}) matches include {:?}{}: check its path, \
                     include and format",
                    input.format,
                    include,
                    if input.exclude.is_empty() {
                        String::new()
                    } else {
                        format!(" and not exclude {:?}", input.exclude)
                    }
                ),
            ));
        }
        Ok(files)
    }

    /// Read every input into documents (in manifest and file order).
    pub fn documents(&self, base: &Path, progress: impl FnMut(usize, usize)) -> Result<Vec<Document>> {
        self.documents_from(&StdFs, base, progress)
    }

    /// Read every input into documents through `fs` (in manifest and file order).
    pub fn documents_from(
        &self,
        fs: &dyn Files,
        base: &Path,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Vec<Document>> {
        let mut jobs = Vec::new();
        for input in &self.inputs {
            let root = base.join(&input.path);
            let files = Self::files_in(fs, input, base)?;
            let ids = source_ids(input, &root, &files, fs.kind(&root) == Kind::File);
            for (f, id) in files.into_iter().zip(ids) {
                jobs.push((input, f, id));
            }
        }
        // Each source id once in an index: a second one names both files.
        let mut first: std::collections::BTreeMap<&str, &Path> = std::collections::BTreeMap::new();
        for (input, file, id) in &jobs {
            if input.format == "jsonl" {
                continue; // its records carry their own ids (checked when the index is written)
            }
            if let Some(other) = first.insert(id.as_str(), file.as_path()) {
                return Err(Error::input(
                    file.display().to_string(),
                    format!(
                        "source id {id:?} is already the id of {}: rename one of the files, or give \
                         it an [[input]] of its own with an `id`",
                        other.display()
                    ),
                ));
            }
        }
        let total = jobs.len();
        let mut docs = Vec::new();
        // Per input (by position), its table of contents: page id → labels, sorted by id.
        let mut tocs: Vec<Vec<(String, Vec<String>)>> = Vec::new();
        for input in &self.inputs {
            let mut toc = match &input.contents {
                Some(p) => {
                    let ids: std::collections::BTreeSet<&str> =
                        jobs.iter().filter(|j| std::ptr::eq(j.0, input)).map(|j| j.2.as_str()).collect();
                    // The table's folder below the input's, for links relative to the table itself.
                    let dir = base
                        .join(p)
                        .parent()
                        .and_then(|d| d.strip_prefix(base.join(&input.path)).ok())
                        .map(|d| below(d, Path::new("")));
                    let mut toc = super::contents::parse(&fs.read_to_string(&base.join(p))?);
                    for (target, _) in &mut toc {
                        // Ids are composed Hangul (`source_ids`); a table written on macOS may not be.
                        *target = crate::text::compose_hangul(target);
                        if let Some(id) = toc_target(target, dir.as_deref(), &ids) {
                            *target = id;
                        }
                    }
                    toc
                }
                None => Vec::new(),
            };
            toc.sort_by(|a, b| a.0.cmp(&b.0));
            tocs.push(toc);
        }
        for (n, (input, file, id)) in jobs.into_iter().enumerate() {
            let toc = self.inputs.iter().position(|i| std::ptr::eq(i, input)).and_then(|i| tocs.get(i));
            let origin = file.display().to_string();
            let text = fs.read_to_string(&file)?;
            let mut got = match input.format.as_str() {
                "html" => vec![html::parse(&text, &id)?],
                "markdown" => vec![markup::parse(&text, &id, Markup::Markdown)],
                "rst" => vec![markup::parse(&text, &id, Markup::Rst)],
                "text" => vec![markup::parse(&text, &id, Markup::Text)],
                "statute" => vec![statute::parse(&text, &id)],
                "manual-json" => vec![manual::parse(&text, &id)?],
                "jsonl" => {
                    let set = [
                        ("kind", input.kind.is_some()),
                        ("date", input.date.is_some()),
                        ("link", input.link.is_some()),
                    ];
                    let set: Vec<&str> =
                        set.into_iter().filter_map(|(name, on)| on.then_some(name)).collect();
                    jsonl::parse(&text, &origin, &set)?
                }
                "glossary-tsv" => vec![glossary::parse(&text, &id, false)?],
                "glossary-jsonl" => vec![glossary::parse(&text, &id, true)?],
                other => return Err(Error::input(origin, unknown_format(other))),
            };
            for d in &mut got {
                if let Some(toc) = toc {
                    let from = toc.partition_point(|(id, _)| id.as_str() < d.source.id.as_str());
                    for (_, labels) in toc[from..].iter().take_while(|(id, _)| *id == d.source.id) {
                        for l in labels {
                            if !d.chapters.contains(l) {
                                d.chapters.push(l.clone());
                            }
                        }
                    }
                }
                if let Some(k) = &input.kind {
                    d.source.kind = k.clone();
                }
                if let Some(date) = &input.date {
                    d.source.date = Some(date.clone());
                }
                if let Some(t) = &input.link {
                    d.source.link = Some(t.replace("{id}", &d.source.id));
                }
            }
            docs.extend(got);
            progress(n + 1, total);
        }
        Ok(docs)
    }

    /// Build the index bytes for this manifest (`base` is the manifest's folder).
    pub fn build(&self, base: &Path, progress: impl FnMut(usize, usize)) -> Result<(Vec<u8>, BuildStats)> {
        self.build_from(&StdFs, base, progress)
    }

    /// Build the index bytes for this manifest, reading its inputs through `fs`.
    pub fn build_from(
        &self,
        fs: &dyn Files,
        base: &Path,
        progress: impl FnMut(usize, usize),
    ) -> Result<(Vec<u8>, BuildStats)> {
        let thesaurus = self.thesaurus_from(fs, base)?;
        let mut docs = self.documents_from(fs, base, progress)?;
        docs.iter_mut().for_each(Document::clip_labels);
        // An index of nothing is a mistake in the manifest (a path or pattern that matches no
        // file, files with no records), not a result: every search of it would be empty.
        if docs.is_empty() {
            return Err(Error::input(
                &self.name,
                "the inputs hold no documents: check each [[input]]'s path, include and format",
            ));
        }
        let (bytes, stats) = build_from_documents(self, &docs, &thesaurus)?;
        // Documents without a word of text (empty files, a record with `"text": ""`) are an index
        // of nothing too.
        if stats.chunks == 0 {
            return Err(Error::input(
                &self.name,
                format!(
                    "the inputs hold no text ({} document{}, 0 chunks): check that the files are not empty \
                     and that each [[input]]'s format is theirs",
                    stats.documents,
                    if stats.documents == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok((bytes, stats))
    }
}

/// A thesaurus: formal word → everyday words ([`Manifest::thesaurus`]).
pub type Thesaurus = std::collections::BTreeMap<String, Vec<String>>;

/// Build index bytes from documents already read, with the entries of the manifest's thesaurus
/// files ([`Manifest::thesaurus_from`]; empty for none).
pub fn build_from_documents(
    m: &Manifest,
    docs: &[Document],
    thesaurus: &Thesaurus,
) -> Result<(Vec<u8>, BuildStats)> {
    let share = m.thesaurus_share.unwrap_or(THESAURUS_MAX_SHARE);
    if !(0.0..=1.0).contains(&share) {
        return Err(Error::invalid(
            "thesaurus_share",
            format!("{share}: use a share of the chunks from 0 to 1"),
        ));
    }
    if let Some((pattern, w)) = m.source_weights.iter().find(|(_, w)| !crate::index::weights::allowed(**w)) {
        return Err(Error::invalid(
            "source_weights",
            format!(
                "{pattern:?} = {w}: use a number above 0 and at most {}",
                crate::index::weights::MAX_WEIGHT
            ),
        ));
    }
    if let Some(p) = m.bm25
        && !(p.k1.is_finite() && (0.0..=3.0).contains(&p.k1) && p.b.is_finite() && (0.0..=1.0).contains(&p.b))
    {
        return Err(Error::invalid(
            "bm25",
            format!("k1 = {}, b = {}: use k1 from 0 to 3 and b from 0 to 1", p.k1, p.b),
        ));
    }
    let mut b = IndexBuilder::new(&m.name, m.analyzer.unwrap_or_default());
    b.describe(m.title.as_deref().unwrap_or(&m.name), &m.description);
    if let Some(p) = m.bm25 {
        b.bm25(p);
    }
    if let Some(s) = m.sufficiency {
        b.sufficiency(s);
    }
    b.text_codec(m.text);
    let words = crate::gate::background::bundled()?;
    b.background(crate::gate::background::term_levels(
        &crate::text::Analyzer::new(m.analyzer.unwrap_or_default()),
        &words,
    ));
    if m.outside_names.unwrap_or(true) {
        b.outside_names(crate::gate::names::bundled()?);
    }
    if let Some(l) = &m.prompt_language {
        b.prompt_language(l)?;
    }
    for a in &m.anchors {
        b.add_anchor(a);
    }
    let derive = m.derive_anchors.unwrap_or(DEFAULT_DERIVED_ANCHORS);
    if derive > 0 {
        let mut heads: Vec<&str> = Vec::new();
        for d in docs {
            heads.push(&d.source.title);
            for blk in &d.blocks {
                if let Some(h) = &blk.location.heading {
                    heads.push(h);
                }
            }
        }
        for a in crate::gate::anchor::derive(heads, derive) {
            b.add_anchor(&a);
        }
    }
    let opts = ChunkOptions {
        max_chars: m.chunking.map_or(ChunkOptions::default().max_chars, |c| c.max_chars.max(MIN_CHUNK_CHARS)),
    };
    let context = m.context.unwrap_or_default();
    let aliases = crate::ingest::aliases::Aliases::new(&m.aliases);
    let thesaurus = crate::ingest::aliases::Aliases::new(thesaurus);
    // Every document's chunks first, each with its context, the names of `[aliases]` and the
    // thesaurus's formal words it has (its texts lowercased once for both): a thesaurus entry
    // applies by the number of chunks that have its formal word.
    let mut uses = vec![0usize; thesaurus.len()];
    let mut chunk_count = 0usize;
    let mut prepared = Vec::with_capacity(docs.len());
    for d in docs {
        type Prepared = (crate::corpus::Chunk, String, Vec<usize>, Vec<usize>);
        let chunks: Vec<Prepared> = chunk_document(d, 0, opts)
            .into_iter()
            .map(|c| {
                let extra = context.text(d, &c);
                let (mut names, mut found) = (Vec::new(), Vec::new());
                if !(aliases.is_empty() && thesaurus.is_empty()) {
                    let heading = c.location.heading.as_deref().unwrap_or("");
                    let lower: Vec<String> = [&c.text, heading, &d.source.title, &extra]
                        .iter()
                        .map(|t| t.to_lowercase())
                        .collect();
                    names = aliases.found_lowercase(&lower);
                    found = thesaurus.found_lowercase(&lower);
                }
                found.iter().for_each(|&i| uses[i] += 1);
                (c, extra, names, found)
            })
            .collect();
        chunk_count += chunks.len();
        prepared.push(chunks);
    }
    let max_uses = (chunk_count as f64 * share) as usize;
    // A weight whose pattern names no source would be silently without effect.
    if let Some(pattern) = m.source_weights.keys().find(|p| !docs.iter().any(|d| wildcard(p, &d.source.id))) {
        let example = docs.first().map_or(String::new(), |d| format!(" (here e.g. {:?})", d.source.id));
        return Err(Error::invalid(
            "source_weights",
            format!(
                "{pattern:?} matches no source; patterns match source ids as `groundgate sources` \
                 lists them{example}, `*` any run of characters"
            ),
        ));
    }
    let mut stats = BuildStats { documents: docs.len(), ..Default::default() };
    for (d, chunks) in docs.iter().zip(prepared) {
        if chunks.is_empty() {
            stats.empty.push(d.source.id.clone());
        }
        let sid = b.add_source(d.source.clone())?;
        let weight = m
            .source_weights
            .iter()
            .filter(|(pattern, _)| wildcard(pattern, &d.source.id))
            .fold(1f32, |w, (_, x)| w * x);
        if weight != 1.0 {
            b.source_weight(sid, weight)?;
        }
        let mut seen_heading: Option<String> = None;
        for (mut c, mut extra, names, found) in chunks {
            c.source = sid;
            stats.text_bytes += c.text.len();
            let heading = c.location.heading.clone();
            let mut named = aliases.words(&names);
            let rare: Vec<usize> = found.into_iter().filter(|&i| uses[i] <= max_uses).collect();
            let everyday = thesaurus.words(&rare);
            if !everyday.is_empty() {
                if !named.is_empty() {
                    named.push('\n');
                }
                named.push_str(&everyday);
            }
            if !named.is_empty() {
                if !extra.is_empty() {
                    extra.push('\n');
                }
                extra.push_str(&named);
            }
            let id = b.add_chunk_with_context(c, extra)?;
            if d.source.kind == "glossary" && heading != seen_heading {
                if let Some(h) = &heading {
                    b.add_glossary_term(h, id);
                }
                seen_heading = heading;
            }
        }
    }
    stats.chunks = b.chunk_count();
    let bytes = b.build()?;
    let index = crate::Index::open(&bytes[..])?;
    stats.terms = index.term_count();
    stats.anchors = index.anchors()?.len();
    stats.bytes = bytes.len();
    Ok((bytes, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Source;

    #[test]
    fn context_is_title_and_keywords_as_asked() {
        let doc = Document {
            source: Source { id: "p".into(), title: "셀 변경 방지".into(), ..Default::default() },
            keywords: vec!["셀, 보호".into(), "시트, 보호".into()],
            ..Default::default()
        };
        let chunk = |heading: &str| crate::corpus::Chunk {
            text: "본문".into(),
            location: crate::corpus::Location { heading: Some(heading.into()), ..Default::default() },
            ..Default::default()
        };
        assert_eq!(Context::default().text(&doc, &chunk("h")), "셀, 보호\n시트, 보호");
        let both = Context { title: true, keywords: true, sections: false };
        assert_eq!(both.text(&doc, &chunk("h")), "셀 변경 방지\n셀, 보호\n시트, 보호");
        assert_eq!(both.text(&doc, &chunk("셀 변경 방지")), "셀, 보호\n시트, 보호");
        let none = Context { title: false, keywords: false, sections: false };
        assert_eq!(none.text(&doc, &chunk("h")), "");
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("manual_*.json", "manual_b1.json"));
        assert!(!wildcard("manual_*.json", "rnd_faq.jsonl"));
        assert!(wildcard("*", "x"));
        assert!(wildcard("a*b*c", "aXbYc"));
        assert!(!wildcard("a*b*c", "ac"));
        assert!(wildcard("index.rst.txt", "index.rst.txt"));
    }

    #[test]
    fn a_table_of_contents_indexes_each_page_with_its_chapters() {
        let base = PathBuf::from("/m");
        let page = |title: &str, body: &str| {
            format!(
                "<html><head><title>{title}</title></head><body><h1>{title}</h1><p>{body}</p></body></html>"
            )
            .into_bytes()
        };
        let mut files = std::collections::BTreeMap::new();
        files.insert(base.join("help/ko/a.html"), page("자동 필터 적용", "열을 선택합니다."));
        files.insert(base.join("help/ko/b.html"), page("셀 병합", "셀을 선택합니다."));
        let toc = "x.innerHTML='\\\n<ul><li><label>스프레드시트 (Calc)</label><ul>\\\n<li><a href=\"ko/a.html?DbPAR=CALC\">자동 필터</a></li></ul></li></ul>';";
        files.insert(base.join("help/ko/contents.js"), toc.as_bytes().to_vec());
        let fs = MemFs(files);
        let m: Manifest = toml::from_str(
            "name = \"h\"\n[[input]]\nformat = \"html\"\npath = \"help\"\ninclude = [\"*.html\"]\n\
             contents = \"help/ko/contents.js\"\n",
        )
        .unwrap();
        let bytes = m.build_from(&fs, &base, |_, _| {}).unwrap().0;
        let idx = crate::Index::open(&bytes[..]).unwrap();
        // The page under "스프레드시트 (Calc)" is found by its chapter's words; its text is unchanged.
        let hits = crate::search::search(&idx, "스프레드시트 calc", 5).unwrap();
        assert_eq!(hits.iter().map(|h| h.cite.source.as_str()).collect::<Vec<_>>(), ["ko/a.html"]);
        assert!(!hits[0].text.contains("스프레드시트"));
        // A missing contents file is an input error naming it.
        let mut broken = m.clone();
        broken.inputs[0].contents = Some("help/ko/none.js".into());
        let e = broken.build_from(&fs, &base, |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("none.js"), "{e}");
    }

    #[test]
    fn a_thesaurus_gives_rare_formal_words_their_everyday_words() {
        let base = PathBuf::from("/m");
        let mut files = std::collections::BTreeMap::new();
        // 퇴직 is in one chunk of four, 변경 in all four (a text file's first line is its title,
        // which every chunk's words include: here a neutral one).
        let text = "업무 안내\n\n직원의 퇴직 사유를 적은 서류의 변경 절차를 안내합니다.\n\n\
                    연구 기간의 변경은 전문기관에 미리 신청하여야 합니다.\n\n\
                    협약 금액의 변경은 중앙행정기관의 승인을 받아야 합니다.\n\n\
                    회의 장소의 변경은 참석자 모두에게 통보하여야 합니다.\n";
        files.insert(base.join("docs/a.txt"), text.as_bytes().to_vec());
        files.insert(
            base.join("th/ko.toml"),
            "\"퇴직\" = [\"그만두\"]\n\"변경\" = [\"바꾸\"]\n".as_bytes().to_vec(),
        );
        let fs = MemFs(files);
        let manifest = |extra: &str| -> Manifest {
            toml::from_str(&format!(
                "name = \"t\"\nthesaurus = [\"th/ko.toml\"]\n{extra}[chunking]\nmax_chars = 50\n\
                 [[input]]\nformat = \"text\"\npath = \"docs\"\n"
            ))
            .unwrap()
        };
        let build = |m: &Manifest, fs: &MemFs| m.build_from(fs, &base, |_, _| {});
        let hits = |share: &str, q: &str| {
            let bytes = build(&manifest(share), &fs).unwrap().0;
            let idx = crate::Index::open(&bytes[..]).unwrap();
            assert_eq!(idx.chunk_count(), 4u32);
            crate::search::search(&idx, q, 5).unwrap().len()
        };
        assert_eq!(manifest("").thesaurus_from(&fs, &base).unwrap()["퇴직"], ["그만두"]);
        // 4 chunks: 퇴직 (1 of 4 = 25 %) applies at a share of 0.25, 변경 (100 %) only at 1.
        assert_eq!(hits("thesaurus_share = 0.25\n", "그만두면"), 1);
        assert_eq!(hits("thesaurus_share = 0.25\n", "바꾸려면"), 0);
        assert_eq!(hits("thesaurus_share = 1.0\n", "바꾸려면"), 4);
        // At the default share (2 %) neither applies to so few chunks; the text is unchanged.
        assert_eq!(hits("", "그만두면"), 0);
        // Bad input: a share outside 0–1, a missing or malformed thesaurus file.
        for bad in ["1.5", "-0.1", "nan"] {
            let e = build(&manifest(&format!("thesaurus_share = {bad}\n")), &fs).unwrap_err();
            assert!(e.to_string().contains("thesaurus_share"), "{e}");
        }
        let mut missing = manifest("");
        missing.thesaurus = vec!["th/none.toml".into()];
        let e = build(&missing, &fs).unwrap_err();
        assert!(e.to_string().contains("none.toml"), "{e}");
        // A device is no thesaurus: refused, not read until memory runs out.
        #[cfg(unix)]
        {
            let mut device = manifest("");
            device.thesaurus = vec!["/dev/zero".into()];
            let e = device.thesaurus_from(&StdFs, &base).unwrap_err();
            assert!(e.to_string().contains("/dev/zero: not a regular file"), "{e}");
        }
        let mut files = fs.0.clone();
        files.insert(base.join("th/ko.toml"), b"\"x\" = 3\n".to_vec());
        let e = build(&manifest(""), &MemFs(files)).unwrap_err();
        assert!(e.to_string().contains("ko.toml"), "{e}");
    }

    #[test]
    fn a_build_without_anchor_words_says_so() {
        let stats = |anchors| BuildStats { anchors, ..Default::default() };
        assert!(stats(0).note("hr").unwrap().starts_with("note: hr has no anchor words"));
        assert_eq!(stats(3).note("hr"), None);
        let empty = BuildStats {
            anchors: 3,
            empty: vec!["blank".into(), "scripts.html".into()],
            ..Default::default()
        };
        assert_eq!(
            empty.note("hr").unwrap(),
            "note: 2 sources of hr hold no text (blank and 1 more): nothing in them can be found; check \
             that the files are not empty and that their [[input]]'s format is theirs"
        );
    }

    #[test]
    fn source_weights_lift_the_matching_sources_in_the_tool_ranking() {
        let base = PathBuf::from("/m");
        let page = |title: &str, body: &str| {
            format!("<html><head><title>{title}</title></head><body><p>{body}</p></body></html>").into_bytes()
        };
        // The reference page matches the query a little better than the guide.
        let mut files = std::collections::BTreeMap::new();
        files.insert(base.join("help/ref/merge.html"), page("셀 병합", "셀 병합 명령: 셀 병합 대화 상자"));
        files.insert(base.join("help/guide/merge.html"), page("셀 합치기", "셀을 선택하고 병합을 누릅니다"));
        let fs = MemFs(files);
        let manifest = |weights: &str| -> Manifest {
            toml::from_str(&format!("name = \"h\"\n{weights}[[input]]\nformat = \"html\"\npath = \"help\"\n"))
                .unwrap()
        };
        let first = |weights: &str, r: crate::search::Ranking| {
            let bytes = manifest(weights).build_from(&fs, &base, |_, _| {}).unwrap().0;
            let idx = crate::Index::open(&bytes[..]).unwrap();
            let terms = crate::search::weighted_terms(&idx, "셀 병합", r);
            let top = crate::search::rank(&idx, &terms, 1, r).unwrap()[0];
            idx.source(idx.chunk_record(top.chunk).unwrap().source).unwrap().id
        };
        let tool = crate::search::Ranking::DEFAULT;
        assert_eq!(first("", tool), "ref/merge.html");
        let lifted = "[source_weights]\n\"guide/*\" = 4.0\n";
        assert_eq!(first(lifted, tool), "guide/merge.html");
        // What the gate's judges read: the score before weighing.
        let bytes = manifest(lifted).build_from(&fs, &base, |_, _| {}).unwrap().0;
        let idx = crate::Index::open(&bytes[..]).unwrap();
        let terms = crate::search::weighted_terms(&idx, "셀 병합", tool);
        let top = crate::search::rank(&idx, &terms, 1, tool).unwrap()[0];
        assert_eq!(crate::search::unweighted(&idx, top).score, top.score / 4.0);
        // Plain BM25 ranks as before; an index without weights has no section.
        assert_eq!(first(lifted, crate::search::Ranking::BM25), "ref/merge.html");
        let plain = manifest("").build_from(&fs, &base, |_, _| {}).unwrap().0;
        assert_eq!(crate::Index::open(&plain[..]).unwrap().chunk_weights(), None);
        // Two patterns multiply; a weight outside (0, 10] is refused naming the key.
        let both = "[source_weights]\n\"guide/*\" = 0.5\n\"*merge*\" = 0.5\n";
        let bytes = manifest(both).build_from(&fs, &base, |_, _| {}).unwrap().0;
        let index = crate::Index::open(&bytes[..]).unwrap();
        let weights: Vec<f32> = (0..2).filter_map(|c| index.chunk_weights().unwrap().get(c)).collect();
        assert!(weights.contains(&0.25) && weights.contains(&0.5), "{weights:?}");
        for bad in ["0.0", "-1.0", "nan", "inf", "10.5"] {
            let m = manifest(&format!("[source_weights]\n\"guide/*\" = {bad}\n"));
            let e = m.build_from(&fs, &base, |_, _| {}).unwrap_err();
            assert_eq!(e.code(), "invalid_argument", "{bad}");
            assert!(e.to_string().contains("source_weights"), "{e}");
        }
        let e = manifest("[source_weights]\n\"*\" = 5.0\n\"guide/*\" = 5.0\n")
            .build_from(&fs, &base, |_, _| {})
            .unwrap_err();
        assert!(e.to_string().contains("guide/merge.html: weight 25"), "{e}");
        // A pattern that names no source (ids are relative to the input's path) is refused.
        let e = manifest("[source_weights]\n\"*/guide/*\" = 1.3\n")
            .build_from(&fs, &base, |_, _| {})
            .unwrap_err();
        assert_eq!(e.code(), "invalid_argument");
        assert!(e.to_string().contains("invalid source_weights: \"*/guide/*\" matches no source"), "{e}");
        assert!(e.to_string().contains("(here e.g. \"guide/merge.html\")"), "{e}");
    }

    #[test]
    fn a_folder_tree_without_end_is_an_error_not_a_hang() {
        // Every folder holds two folders (two links back up: `self -> .`, `up -> ..`), or one
        // (a host whose kind() says "dir" of everything): the walk stops with the folder named.
        struct Endless(usize);
        impl Files for Endless {
            fn kind(&self, _: &Path) -> Kind {
                Kind::Dir
            }
            fn list(&self, dir: &Path) -> Result<Vec<PathBuf>> {
                Ok(["self", "up"].iter().take(self.0).map(|n| dir.join(n)).collect())
            }
            fn read(&self, path: &Path) -> Result<Vec<u8>> {
                Err(Error::input(path.display().to_string(), "a folder"))
            }
        }
        for fs in [Endless(2), Endless(1)] {
            let e = walk(&fs, Path::new("site"), &mut Vec::new()).unwrap_err();
            assert_eq!(e.code(), "input");
            assert!(
                e.to_string().contains("nested more than 32 deep") && e.to_string().contains("site/self"),
                "{e}"
            );
        }
        #[cfg(unix)]
        {
            let dir = std::env::temp_dir().join(format!("gg-walk-loop-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("a.md"), "# a").unwrap();
            let _ = std::os::unix::fs::symlink(".", dir.join("self"));
            let _ = std::os::unix::fs::symlink("..", dir.join("up"));
            assert_eq!(walk(&StdFs, &dir, &mut Vec::new()).unwrap_err().code(), "input");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// Files held in memory, keyed by path (what a wasm host hands over), for the tests below.
    struct MemFs(std::collections::BTreeMap<PathBuf, Vec<u8>>);

    impl MemFs {
        /// Every file under `dir`, read from disk.
        fn copy_of(dir: &Path) -> MemFs {
            let mut files = std::collections::BTreeMap::new();
            let mut all = Vec::new();
            walk(&StdFs, dir, &mut all).unwrap();
            for f in all {
                files.insert(f.clone(), std::fs::read(&f).unwrap());
            }
            MemFs(files)
        }
    }

    impl Files for MemFs {
        fn kind(&self, path: &Path) -> Kind {
            if self.0.contains_key(path) {
                Kind::File
            } else if self.0.keys().any(|k| k.starts_with(path)) {
                Kind::Dir
            } else {
                Kind::Other
            }
        }
        fn list(&self, dir: &Path) -> Result<Vec<PathBuf>> {
            let mut out: Vec<PathBuf> = self
                .0
                .keys()
                .filter_map(|k| k.strip_prefix(dir).ok()?.components().next().map(|c| dir.join(c)))
                .collect();
            out.dedup();
            out.reverse(); // any order: the pipeline sorts
            Ok(out)
        }
        fn read(&self, path: &Path) -> Result<Vec<u8>> {
            self.0.get(path).cloned().ok_or_else(|| Error::input(path.display().to_string(), "no such file"))
        }
    }

    #[test]
    fn the_same_bytes_through_any_file_access() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let manifest = data.join("excerpts.toml");
        let native = Manifest::load(&manifest).unwrap().build(&data, |_, _| {}).unwrap();
        let mem = MemFs::copy_of(&data);
        let m = Manifest::load_from(&mem, &manifest).unwrap();
        let mut calls = 0;
        let through = m.build_from(&mem, &data, |_, _| calls += 1).unwrap();
        assert_eq!(through, native);
        assert!(calls > 1);
        // A file that cannot be read is an input error naming it.
        let mut broken = MemFs::copy_of(&data);
        let victim = broken.0.keys().find(|k| k.extension().is_some_and(|e| e == "html")).unwrap().clone();
        broken.0.insert(victim.clone(), vec![0xff, 0xfe, 0x00]);
        let e = m.build_from(&broken, &data, |_, _| {}).unwrap_err();
        assert_eq!(e.code(), "input");
        assert!(e.to_string().contains(&victim.display().to_string()), "{e}");
    }

    #[test]
    fn instance_names_follow_the_engines_rule() {
        let at = PathBuf::from("/m.toml");
        let load = |name: &str| {
            let text = format!("name = {name:?}\n[[input]]\nformat = \"html\"\npath = \"d\"\n");
            Manifest::load_from(&MemFs([(at.clone(), text.into_bytes())].into()), &at)
        };
        assert!(load(&"a".repeat(64)).is_ok());
        for bad in ["", " ", "a b", "한국", &"a".repeat(65)] {
            let e = load(bad).unwrap_err();
            assert_eq!(e.code(), "input", "{bad:?}");
            assert!(!crate::engine::valid_name(bad));
        }
        // A legacy sufficiency the reader would refuse is refused here, by its key.
        for bad in ["nan", "inf", "-1.0"] {
            let text =
                format!("name = \"x\"\nsufficiency = {bad}\n[[input]]\nformat = \"html\"\npath = \"d\"\n");
            let e = Manifest::load_from(&MemFs([(at.clone(), text.into_bytes())].into()), &at).unwrap_err();
            assert!(e.to_string().contains("sufficiency = "), "{bad}: {e}");
        }
    }

    #[test]
    fn manifest_parses_and_rejects_unknown_keys() {
        let m: Manifest = toml::from_str(
            "name = \"x\"\nanchors = [\"a\"]\n[bm25]\nk1 = 0.9\nb = 0.4\n[[input]]\nformat = \"html\"\npath = \"d\"\n",
        )
        .unwrap();
        assert_eq!(m.inputs.len(), 1);
        assert_eq!(m.bm25.unwrap().k1, 0.9);
        assert!(toml::from_str::<Manifest>("name = \"x\"\nnmae = 1\n").is_err());
    }

    #[test]
    fn outside_names_are_stored_unless_the_manifest_says_no() {
        use crate::corpus::Source;
        use crate::ingest::Block;
        let docs = [Document {
            source: Source { id: "s".into(), title: "감리 안내서".into(), ..Default::default() },
            blocks: vec![Block {
                text: "감리원은 교육을 이수하여야 한다.".into(), ..Default::default()
            }],
            ..Default::default()
        }];
        for (setting, stored) in
            [("", true), ("outside_names = true\n", true), ("outside_names = false\n", false)]
        {
            let m: Manifest = toml::from_str(&format!("name = \"x\"\n{setting}")).unwrap();
            let bytes = build_from_documents(&m, &docs, &Thesaurus::new()).unwrap().0;
            let index = crate::Index::open(bytes.as_slice()).unwrap();
            assert_eq!(index.is_outside_name("프랑스"), stored, "{setting:?}");
            assert_eq!(index.outside_names().count() > 900, stored, "{setting:?}");
        }
    }

    #[test]
    fn the_prompt_language_is_stored_when_the_gate_can_tell_it() {
        use crate::corpus::Source;
        use crate::ingest::Block;
        let docs = [Document {
            source: Source { id: "s".into(), title: "안내서".into(), ..Default::default() },
            blocks: vec![Block {
                text: "감리원은 교육을 이수하여야 한다.".into(), ..Default::default()
            }],
            ..Default::default()
        }];
        for (setting, korean) in [("", false), ("prompt_language = \"ko\"\n", true)] {
            let m: Manifest = toml::from_str(&format!("name = \"x\"\n{setting}")).unwrap();
            let bytes = build_from_documents(&m, &docs, &Thesaurus::new()).unwrap().0;
            assert_eq!(crate::Index::open(bytes.as_slice()).unwrap().korean_prompts(), korean, "{setting:?}");
        }
        let m: Manifest = toml::from_str("name = \"x\"\nprompt_language = \"en\"\n").unwrap();
        let Err(e) = build_from_documents(&m, &docs, &Thesaurus::new()) else { panic!("en is refused") };
        assert_eq!(e.code(), "invalid_argument");
        assert!(e.to_string().contains("\"en\"; the gate can tell only [\"ko\"]"), "{e}");
    }
}
