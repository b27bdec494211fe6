//! The `groundgate` command-line tool: build indexes, search them, inspect them.
//!
//! Subcommands live in their own modules (the pull tools in tools.rs); this file only parses arguments and maps errors to exit
//! codes (1 for a failed command, 2 for bad usage — clap's convention).

mod ask;
mod audit;
mod build;
mod calibrate;
mod chart;
mod files;
mod index_file;
mod info;
mod rebel;
mod route;
mod search;
mod timings;
mod tools;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Push-or-pull evidence gate: compact Korean-aware BM25 indexes for LLM prompts.
#[derive(Parser)]
#[command(name = "groundgate", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build an index from a manifest.
    Build {
        /// The instance manifest (TOML).
        #[arg(long)]
        manifest: PathBuf,
        /// Where to write the index (.ggi).
        #[arg(long)]
        out: PathBuf,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// Override the manifest's chunk text storage: ranked, hangul, lz4 or plain.
        #[arg(long, value_parser = ["ranked", "hangul", "lz4", "plain"])]
        text: Option<String>,
    },
    /// Search one or more indexes (the `search` tool: merged across instances, cited results).
    /// Queries come from the arguments, or JSON lines on stdin with --jsonl.
    Search {
        /// Index files, one per instance (instance name = the index's name); repeat --index.
        #[arg(long, required = true)]
        index: Vec<PathBuf>,
        /// Results per query (tool: default 5, at most 50; one-index --jsonl without --tool:
        /// default 10, at most 1000).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=groundgate::search::MAX_K as i64))]
        k: Option<u32>,
        /// Search only this instance.
        #[arg(long)]
        instance: Option<String>,
        /// Add chunk ids, chunk references (`ref`), scores and matched terms.
        #[arg(long)]
        detailed: bool,
        /// A ranking of your own to fuse by RRF: chunk references `instance:chunk:crc32` (from
        /// --detailed or `groundgate chunks`), best first; repeat or separate with commas.
        #[arg(long, value_delimiter = ',', conflicts_with = "jsonl")]
        fuse: Vec<String>,
        /// The RRF constant for --fuse (default 60).
        #[arg(long, requires = "fuse", value_parser = clap::value_parser!(u32).range(0..=groundgate::tools::search::MAX_FUSE_K as i64))]
        fuse_k: Option<u32>,
        /// Read JSON lines on stdin, write one line each. With one index and without --tool:
        /// `{"id","query"}` → `{"id","hits"}` (the historic contract); else search arguments →
        /// `{"id","result"}`.
        #[arg(long)]
        jsonl: bool,
        /// With --jsonl: the tool contract even for one index.
        #[arg(long, requires = "jsonl")]
        tool: bool,
        /// With --jsonl: print per-query time (median, p95) on stderr at the end.
        #[arg(long, requires = "jsonl")]
        timings: bool,
        /// Query words (without --jsonl).
        query: Vec<String>,
    },
    /// Find an exact phrase (after normalisation) in one or more indexes; matches marked « ».
    Grep {
        #[command(flatten)]
        common: ToolArgs,
        /// Search only this instance.
        #[arg(long)]
        instance: Option<String>,
        /// Most matches (default 20).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=groundgate::tools::grep::MAX_LIMIT as i64))]
        limit: Option<u32>,
        /// Add chunk ids and the number of chunks checked.
        #[arg(long)]
        detailed: bool,
        /// The phrase (without --jsonl).
        text: Vec<String>,
    },
    /// List the sources of one or more indexes with their locations.
    Sources {
        #[command(flatten)]
        common: ToolArgs,
        /// Only this instance.
        #[arg(long)]
        instance: Option<String>,
        /// Skip this many sources: the next page of a long list (the previous page says where).
        #[arg(long)]
        offset: Option<u32>,
    },
    /// Read the text at a location (page, article, heading or chunk) of a source, with its citation.
    Read {
        #[command(flatten)]
        common: ToolArgs,
        /// Instance name.
        #[arg(long)]
        instance: Option<String>,
        /// Source id (each line's own with --jsonl).
        #[arg(long, required_unless_present = "jsonl")]
        source: Option<String>,
        /// Printed page.
        #[arg(long)]
        page: Option<u32>,
        /// Article (제10조 or 10).
        #[arg(long)]
        article: Option<String>,
        /// Heading.
        #[arg(long)]
        heading: Option<String>,
        /// Chunk id.
        #[arg(long)]
        chunk: Option<u32>,
        /// Neighbouring chunks on each side (0–5).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=groundgate::tools::read::MAX_AROUND as i64))]
        around: Option<u32>,
    },
    /// A source's links, resolved to sources of the loaded indexes where they name one.
    Links {
        #[command(flatten)]
        common: ToolArgs,
        /// Instance name.
        #[arg(long)]
        instance: Option<String>,
        /// Source id (each line's own with --jsonl).
        #[arg(long, required_unless_present = "jsonl")]
        source: Option<String>,
    },
    /// Serve `{"id","tool","arguments"}` JSON lines on stdin (any tool), one reply line each.
    Tool {
        #[command(flatten)]
        common: ToolArgs,
    },
    /// Print the tools' definitions (name, title, description, JSON Schemas, annotations).
    Tools,
    /// Decide and deliver cited evidence for prompts (the push pipeline) over one or more indexes.
    Ask {
        /// Index files, one per instance (instance name = the index's name).
        #[arg(long, required = true, num_args = 1..)]
        index: Vec<PathBuf>,
        /// Session id for dedup, 1–256 bytes (a JSON line's "session" overrides it).
        #[arg(long, value_parser = session_id)]
        session: Option<String>,
        /// Context format.
        #[arg(long, default_value = "short", value_parser = ["short", "detailed"])]
        format: String,
        /// Read `{"id", "prompt", "session"?, "rerank"?}` lines on stdin, write one answer line each.
        #[arg(long)]
        jsonl: bool,
        /// With --jsonl: print per-prompt time (median, p95) on stderr at the end.
        #[arg(long, requires = "jsonl")]
        timings: bool,
        /// Engine settings (TOML: max_prompt_chars, min_words, top_k, evidence_k, instance_budget, total_budget,
        /// share_power, deadline_ms, tag_prefix, dedup_window_ms).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Fix the clock at this time (ms since the epoch): reproducible output.
        #[arg(long)]
        now: Option<u64>,
        /// The prompt (without --jsonl; else one per stdin line).
        prompt: Vec<String>,
    },
    /// Fit the gate's relevance and sufficiency judges from labelled prompts; print the trade-off
    /// and held-out (k-fold) figures; --write stores the model in the index files.
    Calibrate {
        /// Index files, one per instance.
        #[arg(long, required = true, num_args = 1..)]
        index: Vec<PathBuf>,
        /// Label files (JSON Lines: prompt, kind, gold …; the devset's files as they are).
        #[arg(long, required = true, num_args = 1..)]
        labels: Vec<PathBuf>,
        /// Folds for the held-out figures.
        #[arg(long, default_value_t = 5)]
        folds: usize,
        /// Relevance operating point: an unrelated prompt wrongly accepted costs p/(1−p) domain
        /// prompts wrongly skipped (0.5: plain routing accuracy).
        #[arg(long, default_value_t = groundgate::eval::calibrate::FitParams::default().relevance_precision)]
        relevance_precision: f64,
        /// Sufficiency operating point: push when the evidence holds the gold with at least this
        /// probability at the margin (a wrong push costs p/(1−p) right ones; 0.4: push first, pull
        /// when the evidence is unlikely to answer).
        #[arg(long, default_value_t = groundgate::eval::calibrate::FitParams::default().sufficiency_precision)]
        sufficiency_precision: f64,
        /// L2 penalty of the logistic fits.
        #[arg(long, default_value_t = 0.05)]
        l2: f64,
        /// Store the fitted model in the index files.
        #[arg(long)]
        write: bool,
        /// Write every (prompt, instance) row with its features as JSON Lines (`"set": "fit"` or `"test"`).
        #[arg(long)]
        dump: Option<PathBuf>,
        /// Label files never fitted on: the model fitted on --labels is measured on them.
        #[arg(long, num_args = 1..)]
        test: Vec<PathBuf>,
        /// Also draw the judges' precision–recall trade-off (threshold sweep, operating points marked) as an SVG chart into this file.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Fit the gate's phrasing table on --labels too (out of fold for every figure) and write it
        /// to this file (the project's is data/gate/phrasing.tsv); without it the bundled table is used.
        #[arg(long)]
        fit_phrasing: Option<PathBuf>,
    },
    /// Audit the gate on labelled prompts: per instance, how many of its prompts it finds relevant
    /// and sufficient, which it filters out, and the words that would have opened it.
    Audit {
        /// Index files, one per instance.
        #[arg(long, required = true, num_args = 1..)]
        index: Vec<PathBuf>,
        /// Label files (as for calibrate).
        #[arg(long, required = true, num_args = 1..)]
        labels: Vec<PathBuf>,
        /// Write the anchor lists with the suggested words added (manifest lines) to this file.
        #[arg(long)]
        write_anchors: Option<PathBuf>,
        /// How many suggested words per instance.
        #[arg(long, default_value_t = 10)]
        suggest: usize,
        /// Also draw the pass rates per instance as an SVG chart into this file.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// The budget curve: share of labelled questions whose gold is inside the injected text, per
    /// budget, for the top 4 and the top 8; and the knee.
    Curve {
        /// Index files, one per instance.
        #[arg(long, required = true, num_args = 1..)]
        index: Vec<PathBuf>,
        /// Label files with gold (as for calibrate).
        #[arg(long, required = true, num_args = 1..)]
        labels: Vec<PathBuf>,
        /// Budgets in characters.
        #[arg(long, value_delimiter = ',', default_value = "300,600,1200,1800,3600")]
        budgets: Vec<usize>,
        /// Hits considered.
        #[arg(long, value_delimiter = ',', default_value = "4,8")]
        top: Vec<usize>,
        /// Also draw the curve (one line per top k, knees marked) as an SVG chart into this file.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// Evaluate the question/sentence router on labelled prompts `{"prompt", "kind", "polite"?}`.
    RouteEval {
        /// JSON Lines with kind = question | sentence | unrelated (one or more files).
        #[arg(long, num_args = 1.., required = true)]
        labels: Vec<PathBuf>,
        /// Index files: also evaluate the full verdict (kind, route) with these instances.
        #[arg(long, num_args = 1..)]
        index: Vec<PathBuf>,
        /// How many misrouted inputs to list.
        #[arg(long, default_value_t = 50)]
        misses: usize,
    },
    /// Print the evidence delivery rules for an agent's instructions.
    Rules {
        /// ko or en.
        #[arg(long, default_value = "en", value_parser = ["ko", "en"])]
        lang: String,
    },
    /// Print the field report's funnel from `ask --jsonl` output.
    Stats {
        /// A file of `ask --jsonl` output lines.
        logfile: PathBuf,
        /// Also draw the funnel as an SVG chart into this file.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// Write every chunk of an index with its citation as JSON Lines `{"chunk", "ref", "source",
    /// "title", "page", "article", "section", "heading", "date", "link", "text"}` (e.g. to feed
    /// another engine; `ref` is the chunk reference `instance:chunk:crc32` that --fuse takes).
    Chunks {
        /// The index file.
        #[arg(long)]
        index: PathBuf,
    },
    /// REBEL rerank prompts for a host's model, and applying its reply: search the index, print the
    /// prompt (one turn; `--criteria-prompt`: turn 1 of two; `--criteria FILE`: turn 2 from the
    /// turn-1 reply); with `--reply FILE`, print the hits in the reply's order as JSON Lines.
    Rebel {
        /// The index file.
        #[arg(long)]
        index: PathBuf,
        /// Documents in the prompt (the BM25 top k).
        #[arg(long, default_value_t = 4)]
        k: usize,
        /// Prompt language: ko or en.
        #[arg(long, default_value = "ko", value_parser = ["ko", "en"])]
        lang: String,
        /// One-turn weights as JSON, e.g. '{"depth": 1, "diversity": 1}' (default: the tuned ones).
        #[arg(long)]
        weights: Option<String>,
        /// Print turn 1 of the two-turn strategy (the criteria prompt).
        #[arg(long, conflicts_with_all = ["criteria", "reply"])]
        criteria_prompt: bool,
        /// A turn-1 reply: use its criteria (turn 2) instead of the five.
        #[arg(long)]
        criteria: Option<PathBuf>,
        /// The model's reply to the rerank prompt: print the reranked hits.
        #[arg(long)]
        reply: Option<PathBuf>,
        /// JSON as the JS `engine.rebelPrompt` / `rerankWith` give it (byte for byte): documents
        /// from the `search` tool with their references; with --reply, the reranked documents and
        /// `ranking` (for ask's `rerank: {ranking, mode: "order"}`).
        #[arg(long, conflicts_with = "criteria_prompt")]
        json: bool,
        /// The query.
        #[arg(required = true)]
        query: Vec<String>,
    },
    /// Print an index's settings, counts and section sizes; check its checksums.
    Info {
        /// The index file.
        #[arg(long)]
        index: PathBuf,
    },
}

/// Options every tool subcommand takes.
#[derive(clap::Args)]
struct ToolArgs {
    /// Index files, one per instance (instance name = the index's name); repeat --index.
    #[arg(long, required = true)]
    index: Vec<PathBuf>,
    /// Read JSON lines on stdin (the tool's arguments, plus "id"), write one line each.
    #[arg(long)]
    jsonl: bool,
    /// With --jsonl: print per-call time (median, p95) on stderr at the end.
    #[arg(long, requires = "jsonl")]
    timings: bool,
}

impl ToolArgs {
    fn common(self) -> tools::Common {
        tools::Common { indexes: self.index, jsonl: self.jsonl, timings: self.timings }
    }
}

/// Tool arguments from command-line values (absent ones left out).
fn args(pairs: Vec<(&str, Option<serde_json::Value>)>) -> serde_json::Map<String, serde_json::Value> {
    pairs.into_iter().filter_map(|(k, v)| Some((k.to_string(), v?))).collect()
}

fn some<T: Into<serde_json::Value>>(v: Option<T>) -> Option<serde_json::Value> {
    v.map(Into::into)
}

fn words(w: Vec<String>) -> Option<serde_json::Value> {
    (!w.is_empty()).then(|| w.join(" ").into())
}

/// Words taken as the query (or prompt) that cannot be one, as a usage error's message: an index
/// file (`search --index a.ggi b.ggi …` reads b.ggi as a word: each index needs its own --index),
/// and any word with --jsonl (the input comes from stdin; a word would silently become every
/// line's default).
fn misplaced(what: &str, jsonl: bool, words: &[String]) -> Option<String> {
    if let Some(w) = words.iter().find(|w| named_index(w) && std::path::Path::new(w.as_str()).is_file()) {
        return Some(format!(
            "'{w}' is an index file, not a word of the {what}: give each index its own --index (--index a.ggi --index b.ggi)"
        ));
    }
    let first = words.first()?;
    jsonl.then(|| {
        format!("with --jsonl the input comes from stdin, one JSON object a line (unexpected '{first}')")
    })
}

/// No query (or text) and no --jsonl: nothing to search for, as a usage error's message.
fn missing(what: &str, jsonl: bool, words: &[String]) -> Option<String> {
    (!jsonl && words.is_empty()).then(|| {
        format!("no {what}: give its words after the options (or --jsonl: one JSON object a line on stdin)")
    })
}

/// Is `path` named like an index file (`.ggi`, any case)?
fn named_index(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".ggi")
}

/// `ask --index a.ggi 농지 소작 금지`: --index takes every word up to the next flag, so a prompt
/// after it reads as index paths; one that is no file and not named .ggi is refused as such.
fn prompt_as_index(index: &[PathBuf], prompt: &[String]) -> Option<String> {
    if !prompt.is_empty() {
        return None;
    }
    let w = index.iter().find(|p| !p.is_file() && !named_index(&p.to_string_lossy()))?;
    Some(format!(
        "'{}' is not an index file: --index takes every word up to the next flag; give the prompt before --index, or after --",
        w.display()
    ))
}

/// `search --jsonl` over one index without `--tool` keeps the historic `{"id","hits"}` contract,
/// which has no instance to choose and no detail: `--instance` or `--detailed` there is refused,
/// not ignored.
fn historic_flags(indexes: usize, historic: bool, instance: bool, detailed: bool) -> Option<String> {
    let flag = if instance { "--instance" } else { "--detailed" };
    (indexes == 1 && historic && (instance || detailed)).then(|| {
        format!("{flag} is not part of the one-index `{{\"id\",\"hits\"}}` lines: add --tool for the search tool's lines")
    })
}

/// `--session`, checked before anything runs (a bad one was an error on every prompt).
fn session_id(s: &str) -> Result<String, String> {
    groundgate::deliver::session::check_id(s).map(|()| s.to_string()).map_err(|e| e.to_string())
}

/// `--k` past the `search` tool's limit (clap's range is the one-index JSON Lines contract's, the
/// widest): refused before any line is read, not once per line.
fn tool_k(k: Option<u32>, historic: bool) -> Option<String> {
    let max = groundgate::tools::search::MAX_K;
    k.filter(|&k| !historic && k > max).map(|k| {
        format!(
            "--k {k}: the search tool returns at most {max} results (one index with --jsonl and without --tool: up to {})",
            groundgate::search::MAX_K
        )
    })
}

/// Refuse misplaced or missing words ([`misplaced`], [`missing`], [`prompt_as_index`]) before
/// anything runs: exit code 2, with the subcommand's usage.
fn check_words(command: &Command) {
    let found = match command {
        Command::Search { index, jsonl, tool, instance, detailed, query, k, .. } => {
            misplaced("query", *jsonl, query)
                .or_else(|| missing("query", *jsonl, query))
                .or_else(|| historic_flags(index.len(), *jsonl && !*tool, instance.is_some(), *detailed))
                .or_else(|| tool_k(*k, index.len() == 1 && *jsonl && !*tool))
                .map(|m| ("search", m))
        }
        Command::Grep { common, text, .. } => misplaced("text", common.jsonl, text)
            .or_else(|| missing("text", common.jsonl, text))
            .map(|m| ("grep", m)),
        Command::Ask { index, jsonl, prompt, .. } => misplaced("prompt", *jsonl, prompt)
            .or_else(|| if *jsonl { None } else { prompt_as_index(index, prompt) })
            .map(|m| ("ask", m)),
        _ => None,
    };
    let Some((name, message)) = found else { return };
    if let Some(sub) = Cli::command().find_subcommand(name) {
        sub.clone()
            .bin_name(format!("groundgate {name}"))
            .error(clap::error::ErrorKind::ArgumentConflict, message)
            .exit();
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    check_words(&cli.command);
    let result = match cli.command {
        Command::Build { manifest, out, quiet, text } => build::run(&manifest, &out, quiet, text.as_deref()),
        Command::Search { index, k, instance, detailed, fuse, fuse_k, jsonl, tool, timings, query } => {
            if jsonl && !tool && index.len() == 1 {
                search::legacy_jsonl(&index[0], k.map_or(10, |k| k as usize), timings)
            } else {
                let a = args(vec![
                    ("query", words(query)),
                    ("instance", some(instance)),
                    ("k", some(k)),
                    ("detailed", detailed.then_some(true.into())),
                    ("fuse", (!fuse.is_empty()).then(|| fuse.into())),
                    ("fuse_k", some(fuse_k)),
                ]);
                tools::run(Some("search"), tools::Common { indexes: index, jsonl, timings }, a)
            }
        }
        Command::Grep { common, instance, limit, detailed, text } => {
            let a = args(vec![
                ("text", words(text)),
                ("instance", some(instance)),
                ("limit", some(limit)),
                ("detailed", detailed.then_some(true.into())),
            ]);
            tools::run(Some("grep"), common.common(), a)
        }
        Command::Sources { common, instance, offset } => {
            let a = args(vec![("instance", some(instance)), ("offset", some(offset))]);
            tools::run(Some("sources"), common.common(), a)
        }
        Command::Read { common, instance, source, page, article, heading, chunk, around } => {
            let a = args(vec![
                ("instance", some(instance)),
                ("source", some(source)),
                ("page", some(page)),
                ("article", some(article)),
                ("heading", some(heading)),
                ("chunk", some(chunk)),
                ("around", some(around)),
            ]);
            tools::run(Some("read"), common.common(), a)
        }
        Command::Links { common, instance, source } => tools::run(
            Some("links"),
            common.common(),
            args(vec![("instance", some(instance)), ("source", some(source))]),
        ),
        Command::Tool { common } => tools::run(None, common.common(), serde_json::Map::new()),
        Command::Tools => tools::definitions(),
        Command::Info { index } => info::run(&index),
        Command::Chunks { index } => info::chunks(&index),
        Command::Rebel { index, k, lang, weights, criteria_prompt, criteria, reply, json, query } => {
            rebel::run(rebel::Args { index, k, lang, weights, criteria_prompt, criteria, reply, json, query })
        }
        Command::Ask { index, session, format, jsonl, timings, config, now, prompt } => ask::run(ask::Args {
            indexes: index,
            session,
            format: if format == "detailed" {
                groundgate::deliver::Format::Detailed
            } else {
                groundgate::deliver::Format::Short
            },
            jsonl,
            timings,
            config,
            now,
            prompt,
        }),
        Command::Stats { logfile, svg } => ask::stats(&logfile, svg.as_deref()),
        Command::Audit { index, labels, write_anchors, suggest, svg } => {
            audit::run_audit(&index, &labels, write_anchors.as_ref(), suggest, svg.as_deref())
        }
        Command::Curve { index, labels, budgets, top, svg } => {
            audit::run_curve(&index, &labels, &budgets, &top, svg.as_deref())
        }
        Command::RouteEval { labels, index, misses } => route::eval(&labels, &index, misses),
        Command::Rules { lang } => route::rules(&lang),
        Command::Calibrate {
            index,
            labels,
            folds,
            relevance_precision,
            sufficiency_precision,
            l2,
            write,
            dump,
            test,
            svg,
            fit_phrasing,
        } => calibrate::run(calibrate::Args {
            indexes: index,
            labels,
            folds,
            params: groundgate::eval::calibrate::FitParams { l2, relevance_precision, sufficiency_precision },
            write,
            dump,
            test,
            svg,
            fit_phrasing,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`groundgate chunks … | head`) is not an error.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            // An operating-system error without a file (stdin, stdout) in the words every face uses.
            let text = match e.downcast_ref::<std::io::Error>() {
                Some(io) => groundgate::os_message(io),
                None => e.to_string(),
            };
            eprintln!("groundgate: {}", printable(&text));
            ExitCode::FAILURE
        }
    }
}

/// Write `text` to stdout. A reader that stopped early (`groundgate info … | head`) is an
/// [`std::io::ErrorKind::BrokenPipe`] error, which [`main`] takes as success; `print!` would
/// panic instead.
pub fn out(text: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_fmt(text)?;
    stdout.flush()
}

/// An error message as the terminal shows it: control characters but line breaks and tabs
/// escaped (`\u{1b}`), so text from a crafted index (a source id holding ESC sequences, named in
/// "nearby" hints) cannot drive the terminal.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(
            super::printable("no source \u{1b}[31mx\u{7f}\0; 한글\tok\n"),
            "no source \\u{1b}[31mx\\u{7f}\\u{0}; 한글\tok\n"
        );
    }
}
