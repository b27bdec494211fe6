//! The `groundgate` command-line tool: build indexes, search them, inspect them.
//!
//! Subcommands live in their own modules; this file only parses arguments and maps errors to exit
//! codes (1 for a failed command, 2 for bad usage — clap's convention).

mod build;
mod info;
mod search;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    },
    /// Search an index. Queries come from the arguments, or one per stdin line.
    Search {
        /// The index file.
        #[arg(long)]
        index: PathBuf,
        /// Hits per query.
        #[arg(long, default_value_t = 10)]
        k: usize,
        /// Read `{"id", "query"}` lines on stdin, write one `{"id", "hits"}` line each.
        #[arg(long)]
        jsonl: bool,
        /// Query words (without --jsonl).
        query: Vec<String>,
    },
    /// Print an index's settings, counts and section sizes; check its checksums.
    Info {
        /// The index file.
        #[arg(long)]
        index: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build { manifest, out, quiet } => build::run(&manifest, &out, quiet),
        Command::Search { index, k, jsonl, query } => search::run(&index, k, jsonl, &query),
        Command::Info { index } => info::run(&index),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("groundgate: {e}");
            ExitCode::FAILURE
        }
    }
}
