//! The tools' definitions: name, title, description, JSON Schemas of input and output, and
//! annotations — what an MCP server lists and what an agent reads to call a tool.
//!
//! Their one home is `definitions.json` beside this file, embedded as text (building the same
//! value in code cost ~20 KB of wasm; the text costs ~2 KB gzipped). The tests below check that
//! every limit it states is the one the tools enforce.

use serde_json::Value;

/// The definitions as JSON text (an array, in the order of [`NAMES`](super::NAMES)).
pub const DEFINITIONS_JSON: &str = include_str!("definitions.json");

/// Every tool's definition, in the order of [`NAMES`](super::NAMES).
pub fn definitions() -> Value {
    // Checked by the tests below; a parse failure cannot happen at run time.
    serde_json::from_str(DEFINITIONS_JSON).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{NAMES, cap, grep, read, search};

    #[test]
    fn limits_in_the_schemas_are_the_enforced_ones() {
        let d = definitions();
        let input = |i: usize, field: &str| d[i]["inputSchema"]["properties"][field].clone();
        assert_eq!(d.as_array().unwrap().len(), NAMES.len());
        for (i, n) in NAMES.iter().enumerate() {
            assert_eq!(d[i]["name"], *n);
        }
        assert_eq!(input(0, "k")["maximum"], search::MAX_K);
        assert_eq!(input(0, "k")["default"], search::DEFAULT_K);
        assert_eq!(input(0, "query")["maxLength"], crate::search::MAX_QUERY_CHARS);
        assert_eq!(input(0, "fuse_k")["maximum"], search::MAX_FUSE_K);
        assert_eq!(input(0, "fuse_k")["default"], crate::rerank::fusion::DEFAULT_K);
        assert_eq!(input(0, "fuse")["maxItems"], crate::rerank::fusion::MAX_LIST);
        assert_eq!(input(1, "limit")["maximum"], grep::MAX_LIMIT);
        assert_eq!(input(1, "limit")["default"], grep::DEFAULT_LIMIT);
        assert_eq!(input(1, "text")["maxLength"], grep::MAX_TEXT_CHARS);
        assert_eq!(input(3, "around")["maximum"], read::MAX_AROUND);
        assert!(DEFINITIONS_JSON.contains(&format!("within {} characters", cap::MAX_OUTPUT_CHARS)));
        assert!(DEFINITIONS_JSON.contains(&format!("(at most {})", cap::MAX_LIST)));
        assert!(DEFINITIONS_JSON.contains(&format!("(default {})", search::DEFAULT_K)));
    }
}
