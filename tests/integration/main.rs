//! Integration tests: one binary, one module per area (ripgrep's layout).

mod ask;
mod build;
mod charts;
mod cli;
mod compat;
mod default_indexes;
mod forged;
mod format_errors;
mod rerank;
mod session;
mod tools;
mod util;
