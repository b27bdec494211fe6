//! The tools' definitions: name, title, description, JSON Schemas of input and output, and
//! annotations — what an MCP server lists and what an agent reads to call a tool.

use serde_json::{Value, json};

use super::cap::{MAX_LIST, MAX_OUTPUT_CHARS};
use super::{grep, read, search};

fn nullable(t: &str) -> Value {
    json!({"type": [t, "null"]})
}

/// The citation fields shared with `ask` evidence.
fn citation() -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("instance".into(), json!({"type": "string"}));
    m.insert("source".into(), json!({"type": "string", "description": "source id (read/links take it)"}));
    m.insert("title".into(), json!({"type": "string"}));
    m.insert("page".into(), json!({"type": ["integer", "null"], "description": "printed page"}));
    m.insert(
        "article".into(),
        json!({"type": ["string", "null"], "description": "article label, e.g. 제10조"}),
    );
    m.insert("section".into(), nullable("string"));
    m.insert("heading".into(), nullable("string"));
    m.insert(
        "date".into(),
        json!({"type": ["string", "null"], "description": "reference date of the source"}),
    );
    m.insert("link".into(), nullable("string"));
    m
}

fn object(props: serde_json::Map<String, Value>, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

fn props(pairs: Vec<(&str, Value)>) -> serde_json::Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn with(
    mut base: serde_json::Map<String, Value>,
    pairs: Vec<(&str, Value)>,
) -> serde_json::Map<String, Value> {
    base.extend(pairs.into_iter().map(|(k, v)| (k.to_string(), v)));
    base
}

fn truncated() -> Value {
    json!({"type": "boolean", "description": format!("true when text was cut (ending in …[truncated]) or items were left out to stay within {MAX_OUTPUT_CHARS} characters")})
}

fn instance_arg(optional: bool) -> Value {
    let d =
        if optional { "instance name; leave out to cover every loaded instance" } else { "instance name" };
    json!({"type": "string", "minLength": 1, "maxLength": 64, "description": d})
}

fn tool(name: &str, title: &str, description: &str, input: Value, output: Value) -> Value {
    json!({
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": input,
        "outputSchema": output,
        "annotations": {"readOnlyHint": true, "idempotentHint": true, "destructiveHint": false, "openWorldHint": false},
    })
}

/// Every tool's definition, in the order of [`NAMES`](super::NAMES).
pub fn definitions() -> Value {
    let mut ranked = props(vec![("rank", json!({"type": "integer"}))]);
    ranked.extend(citation());
    let search_item = object(
        with(
            ranked,
            vec![
                ("text", json!({"type": "string"})),
                ("chunk", json!({"type": "integer", "description": "detailed: chunk id, for read {chunk}"})),
                ("score", json!({"type": "number", "description": "detailed: merged score"})),
                ("bm25", json!({"type": "number", "description": "detailed: BM25 score in its instance"})),
                (
                    "terms",
                    json!({"type": "array", "items": {"type": "object", "properties": {"term": {"type": "string"}, "score": {"type": "number"}}}}),
                ),
            ],
        ),
        &[
            "rank", "instance", "source", "title", "page", "article", "section", "heading", "date", "link",
            "text",
        ],
    );
    let search = tool(
        "search",
        "Search the documents",
        &format!(
            "BM25 search over one or all loaded instances (Korean and English), merged across instances; returns up to k cited passages (default {}). Search again with other words when the results do not answer the question; open a result with read before citing a page or article.",
            search::DEFAULT_K
        ),
        object(
            props(vec![
                (
                    "query",
                    json!({"type": "string", "minLength": 1, "maxLength": crate::search::MAX_QUERY_CHARS, "description": "words or a question"}),
                ),
                ("instance", instance_arg(true)),
                (
                    "k",
                    json!({"type": "integer", "minimum": 1, "maximum": search::MAX_K, "default": search::DEFAULT_K}),
                ),
                (
                    "detailed",
                    json!({"type": "boolean", "default": false, "description": "add chunk ids, scores and matched terms"}),
                ),
            ]),
            &["query"],
        ),
        object(
            props(vec![
                ("query", json!({"type": "string"})),
                ("instances", json!({"type": "array", "items": {"type": "string"}})),
                ("results", json!({"type": "array", "items": search_item})),
                ("truncated", truncated()),
            ]),
            &["query", "instances", "results", "truncated"],
        ),
    );
    let grep_match = object(
        with(
            citation(),
            vec![
                ("text", json!({"type": "string", "description": "the chunk text, matches wrapped in « »"})),
                (
                    "start",
                    json!({"type": "integer", "description": "first match: start character offset in the unmarked text"}),
                ),
                ("end", json!({"type": "integer"})),
                ("count", json!({"type": "integer"})),
                ("chunk", json!({"type": "integer"})),
            ],
        ),
        &[
            "instance", "source", "title", "page", "article", "section", "heading", "date", "link", "text",
            "start", "end", "count",
        ],
    );
    let grep = tool(
        "grep",
        "Find an exact phrase",
        "Exact phrase search (after normalising width, spaces, Hangul composition and case) in one or all instances; every match is marked with « ». Use it to find where a quoted sentence, a term or a number appears.",
        object(
            props(vec![
                ("text", json!({"type": "string", "minLength": 1, "maxLength": grep::MAX_TEXT_CHARS})),
                ("instance", instance_arg(true)),
                (
                    "limit",
                    json!({"type": "integer", "minimum": 1, "maximum": grep::MAX_LIMIT, "default": grep::DEFAULT_LIMIT}),
                ),
                ("detailed", json!({"type": "boolean", "default": false})),
            ]),
            &["text"],
        ),
        object(
            props(vec![
                ("text", json!({"type": "string"})),
                ("matches", json!({"type": "array", "items": grep_match})),
                ("total", json!({"type": "integer", "description": "matching chunks in all"})),
                ("truncated", truncated()),
                ("candidates", json!({"type": "integer"})),
            ]),
            &["text", "matches", "total", "truncated"],
        ),
    );
    let list = |d: &str| json!({"type": "array", "items": {"type": "string"}, "description": d});
    let source_entry = object(
        props(vec![
            ("instance", json!({"type": "string"})),
            ("source", json!({"type": "string"})),
            ("title", json!({"type": "string"})),
            ("kind", json!({"type": "string"})),
            ("date", nullable("string")),
            ("link", nullable("string")),
            ("links", json!({"type": "integer", "description": "number of links (see the links tool)"})),
            ("chunks", json!({"type": "integer"})),
            (
                "pages",
                json!({"type": ["array", "null"], "items": {"type": "integer"}, "description": "[first, last] printed page"}),
            ),
            ("articles", list(&format!("article labels in order (at most {MAX_LIST})"))),
            ("articles_more", json!({"type": "integer"})),
            ("headings", list(&format!("distinct headings in order (at most {MAX_LIST})"))),
            ("headings_more", json!({"type": "integer"})),
        ]),
        &[
            "instance",
            "source",
            "title",
            "kind",
            "date",
            "link",
            "links",
            "chunks",
            "pages",
            "articles",
            "articles_more",
            "headings",
            "headings_more",
        ],
    );
    let sources = tool(
        "sources",
        "List the sources",
        "Every source of one or all instances: id, title, kind, reference date, link, and the locations it has (page range, articles, headings) — what read can open.",
        object(props(vec![("instance", instance_arg(true))]), &[]),
        object(
            props(vec![
                ("sources", json!({"type": "array", "items": source_entry})),
                ("truncated", truncated()),
            ]),
            &["sources", "truncated"],
        ),
    );
    let part = object(
        props(vec![
            ("chunk", json!({"type": "integer"})),
            ("page", nullable("integer")),
            ("article", nullable("string")),
            ("section", nullable("string")),
            ("heading", nullable("string")),
            ("text", json!({"type": "string"})),
        ]),
        &["chunk", "page", "article", "section", "heading", "text"],
    );
    let read = tool(
        "read",
        "Read the original",
        "The whole text at a location of a source — a printed page, an article (제10조 or 10), a heading, or a chunk id from search — with its exact citation; around adds neighbouring chunks. An unknown location is an error listing the nearest valid ones. Open the source before citing a page or article.",
        object(
            props(vec![
                ("instance", instance_arg(false)),
                ("source", json!({"type": "string", "minLength": 1})),
                ("page", json!({"type": "integer", "minimum": 0})),
                ("article", json!({"type": ["string", "integer"], "description": "제10조, 제10조의2 or 10"})),
                ("heading", json!({"type": "string"})),
                ("chunk", json!({"type": "integer", "minimum": 0})),
                (
                    "around",
                    json!({"type": "integer", "minimum": 0, "maximum": read::MAX_AROUND, "default": 0}),
                ),
            ]),
            &["instance", "source"],
        ),
        object(
            with(
                citation(),
                vec![
                    ("text", json!({"type": "string"})),
                    ("chunks", json!({"type": "array", "items": {"type": "integer"}})),
                    ("before", json!({"type": "array", "items": part.clone()})),
                    ("after", json!({"type": "array", "items": part})),
                    ("truncated", truncated()),
                ],
            ),
            &[
                "instance",
                "source",
                "title",
                "page",
                "article",
                "section",
                "heading",
                "date",
                "link",
                "text",
                "chunks",
                "before",
                "after",
                "truncated",
            ],
        ),
    );
    let target = object(
        props(vec![
            ("instance", json!({"type": "string"})),
            ("source", json!({"type": "string"})),
            ("title", json!({"type": "string"})),
            ("kind", json!({"type": "string"})),
        ]),
        &["instance", "source", "title", "kind"],
    );
    let links = tool(
        "links",
        "Follow a source's links",
        "A source's links (attachments, related records); links that name a source of a loaded instance come back resolved, so read can open them.",
        object(
            props(vec![
                ("instance", instance_arg(false)),
                ("source", json!({"type": "string", "minLength": 1})),
            ]),
            &["instance", "source"],
        ),
        object(
            props(vec![
                ("instance", json!({"type": "string"})),
                ("source", json!({"type": "string"})),
                ("title", json!({"type": "string"})),
                (
                    "links",
                    json!({"type": "array", "items": object(props(vec![("link", json!({"type": "string"})), ("resolved", json!({"type": "array", "items": target}))]), &["link", "resolved"])}),
                ),
                ("truncated", truncated()),
            ]),
            &["instance", "source", "title", "links", "truncated"],
        ),
    );
    json!([search, grep, sources, read, links])
}
