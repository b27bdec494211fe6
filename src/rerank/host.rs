//! REBEL through a host's model over an engine's own search results (feature `tools`): what the
//! JS `Engine.rebelPrompt` / `rerankWith`, the MCP prompt `rebel` and the VS Code opt-in call.
//!
//! 1. [`prompt`] searches the engine (the `search` tool: one or all instances, merged; `k`
//!    documents, default [`DEFAULT_DOCS`]) and builds the REBEL rerank prompt over the results —
//!    one turn with REBEL's five criteria ([`rebel::one_turn`]), or turn 2 of the two-turn strategy
//!    when the model's reply to the turn-1 prompt ([`criteria_prompt`]) is given. The result
//!    ([`RebelPrompt`]) holds the prompt text and what the reply is checked against: the criteria
//!    and the documents with their stable references.
//! 2. The host sends `prompt` to its model, then [`apply`] parses the reply strictly
//!    ([`rebel::parse_reply`]) and returns the documents in the reply's composite order, with
//!    their scores and the new order as chunk references — which `ask` applies before the budget
//!    with `rerank: {ranking, mode: "order"}` ([`super::apply::Mode::Order`]).
//!
//! Every function has a JSON-text face (`*_json`) that the wasm bindings call, so errors and bytes
//! are the library's on every face. [`rrf_json`] is RRF ([`fusion::rrf`]) of lists a host supplies.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::composite::Weights;
use super::fusion::{self, ChunkRef, Fused};
use super::rebel::{self, Criterion, Lang, MAX_DOCS, PromptDoc};
use crate::corpus::Citation;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::tools::{self, search};

/// Documents in a prompt by default.
pub const DEFAULT_DOCS: u32 = 8;
/// Most lists [`rrf_json`] fuses.
pub const MAX_LISTS: usize = 16;

/// Arguments of [`prompt`].
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptArgs {
    /// The query (the user's prompt).
    pub query: String,
    /// Search only this instance (default: all, merged).
    #[serde(default)]
    pub instance: Option<String>,
    /// Documents in the prompt, 1..=50 (default [`DEFAULT_DOCS`]).
    #[serde(default)]
    pub k: Option<u32>,
    /// Prompt language (default Korean).
    #[serde(default)]
    pub lang: Lang,
    /// Weights of REBEL's five criteria (default [`Weights::default`]); one turn only.
    #[serde(default)]
    pub weights: Option<Weights>,
    /// The model's reply to the turn-1 prompt ([`criteria_prompt`]): build turn 2 from its criteria.
    #[serde(default)]
    pub criteria_reply: Option<String>,
}

/// Arguments of [`criteria_prompt`].
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriteriaArgs {
    /// The query.
    pub query: String,
    /// Prompt language (default Korean).
    #[serde(default)]
    pub lang: Lang,
}

/// One document of a prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Doc {
    /// Its id in the prompt (1-based).
    pub id: u32,
    /// Its stable chunk reference.
    #[serde(rename = "ref")]
    pub reference: ChunkRef,
    /// Instance name.
    pub instance: String,
    /// Source, location, date and link.
    #[serde(flatten)]
    pub cite: Citation,
    /// The text shown to the model.
    pub text: String,
}

/// A REBEL prompt and what its reply is checked against. The host keeps it and hands it back to
/// [`apply`] with the reply.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RebelPrompt {
    /// The query.
    pub query: String,
    /// The prompt's language.
    pub lang: Lang,
    /// The secondary criteria the reply scores (besides relevance), with their weights.
    pub criteria: Vec<Criterion>,
    /// The documents, in the prompt's order (ids 1…).
    pub docs: Vec<Doc>,
    /// The prompt text to send to the model.
    pub prompt: String,
}

impl RebelPrompt {
    /// What [`apply`] needs of it.
    pub fn key(&self) -> PromptKey {
        PromptKey {
            criteria: self.criteria.clone(),
            docs: self.docs.iter().map(|d| DocKey { id: d.id, reference: d.reference.clone() }).collect(),
        }
    }
}

/// What [`apply`] reads of a prompt object handed back: the criteria and each document's id and
/// reference. Citations and texts are read from the index again (a host cannot alter them; other
/// fields of the object are ignored).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PromptKey {
    /// The prompt's criteria.
    pub criteria: Vec<Criterion>,
    /// Its documents, in the prompt's order.
    pub docs: Vec<DocKey>,
}

/// A document of a prompt handed back: its id and reference.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DocKey {
    /// Its id in the prompt (1-based).
    pub id: u32,
    /// Its chunk reference.
    #[serde(rename = "ref")]
    pub reference: ChunkRef,
}

/// One document in the reply's order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RerankedDoc {
    /// New 1-based rank.
    pub rank: u32,
    /// The document: id, reference, and its citation and text as the index holds them.
    #[serde(flatten)]
    pub doc: Doc,
    /// The model's relevance score, 0–10.
    pub relevance: f64,
    /// The model's score per criterion, 0–5 (by name).
    pub scores: BTreeMap<String, f64>,
    /// `relevance + Σ wᵢ·criterionᵢ`, computed by groundgate (4 decimals): the order.
    pub score: f64,
}

/// A reply applied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reranked {
    /// The documents, best first.
    pub items: Vec<RerankedDoc>,
    /// Their references in that order: `ask`'s `rerank: {ranking, mode: "order"}`.
    pub ranking: Vec<ChunkRef>,
}

/// The REBEL rerank prompt over the engine's search results for `a.query` (see the module docs).
pub fn prompt(engine: &Engine, a: &PromptArgs) -> Result<RebelPrompt> {
    let k = a.k.unwrap_or(DEFAULT_DOCS);
    if k == 0 || k as usize > MAX_DOCS {
        return Err(Error::invalid("k", format!("{k}; must be 1..={MAX_DOCS}")));
    }
    let criteria = match (&a.criteria_reply, &a.weights) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid(
                "weights",
                "weigh REBEL's five criteria in one turn; a turn-1 reply brings its own criteria and weights",
            ));
        }
        (Some(reply), None) => {
            rebel::parse_criteria(reply).map_err(|e| Error::invalid("criteria_reply", e.to_string()))?
        }
        (None, w) => {
            let w = w.unwrap_or_default();
            w.check()?;
            rebel::default_criteria(&w, a.lang)
        }
    };
    let args = search::Args {
        query: a.query.clone(),
        instance: a.instance.clone(),
        k: Some(k),
        detailed: true,
        ..search::Args::default()
    };
    let found = search::run(engine, &args)?;
    if found.results.is_empty() {
        return Err(Error::invalid("query", "no document matches it: nothing to rerank"));
    }
    let mut docs = Vec::with_capacity(found.results.len());
    for (i, item) in found.results.into_iter().enumerate() {
        let Some(reference) = item.reference else {
            return Err(Error::invalid("result", "a detailed search result without ref"));
        };
        docs.push(Doc {
            id: i as u32 + 1,
            reference,
            instance: item.instance,
            cite: item.cite,
            text: item.text,
        });
    }
    let text = rebel::rerank_prompt(&a.query, &prompt_docs(&docs), &criteria, a.lang)?;
    Ok(RebelPrompt { query: a.query.clone(), lang: a.lang, criteria, docs, prompt: text })
}

fn prompt_docs(docs: &[Doc]) -> Vec<PromptDoc> {
    docs.iter()
        .map(|d| PromptDoc { instance: d.instance.clone(), cite: d.cite.clone(), text: d.text.clone() })
        .collect()
}

/// Turn 1 of the two-turn strategy: the prompt asking the model for the query's criteria.
pub fn criteria_prompt(a: &CriteriaArgs) -> Result<String> {
    rebel::two_turn_criteria(&a.query, a.lang)
}

/// Apply the model's `reply` to `p` (a [`RebelPrompt`] from [`prompt`]): the documents in the
/// reply's composite order. A defective reply, a prompt whose documents no longer match the
/// engine's indexes (a stale reference, an unloaded instance) or a tampered prompt (ids out of
/// order, bad criteria) is an `invalid_argument` error.
pub fn apply(engine: &Engine, p: &PromptKey, reply: &str) -> Result<Reranked> {
    if p.docs.is_empty() || p.docs.len() > MAX_DOCS {
        return Err(Error::invalid(
            "prompt",
            format!("{} documents; a prompt holds 1..={MAX_DOCS}", p.docs.len()),
        ));
    }
    rebel::check_criteria(&p.criteria).map_err(|e| Error::invalid("prompt", e.to_string()))?;
    let mut docs = Vec::with_capacity(p.docs.len());
    for (i, d) in p.docs.iter().enumerate() {
        if d.id as usize != i + 1 {
            return Err(Error::invalid(
                "prompt",
                format!("document {} has id {}; ids run 1…n in order", i + 1, d.id),
            ));
        }
        let r = &d.reference;
        let index = engine
            .index(&r.instance)
            .map_err(|_| Error::invalid("prompt", format!("{r}: no instance {:?} is loaded", r.instance)))?;
        let chunk = r.verify(index)?;
        let cite = Citation::new(index.source_head(chunk.source)?, chunk.location);
        docs.push(Doc {
            id: d.id,
            reference: r.clone(),
            instance: r.instance.clone(),
            cite,
            text: chunk.text,
        });
    }
    let ranking = rebel::parse_reply(reply, p.docs.len(), &p.criteria)?;
    let mut items = Vec::with_capacity(ranking.items.len());
    for (rank, s) in ranking.items.into_iter().enumerate() {
        let Some(doc) = docs.get(s.id as usize - 1) else {
            return Err(Error::invalid("reply", format!("[{}] is not a document of the prompt", s.id)));
        };
        let scores = p.criteria.iter().zip(&s.criteria).map(|(c, v)| (c.name.clone(), *v)).collect();
        items.push(RerankedDoc {
            rank: rank as u32 + 1,
            doc: doc.clone(),
            relevance: s.relevance,
            scores,
            score: s.score,
        });
    }
    let ranking = items.iter().map(|d| d.doc.reference.clone()).collect();
    Ok(Reranked { items, ranking })
}

/// [`prompt`] with JSON arguments; the [`RebelPrompt`] as JSON text.
pub fn prompt_json(engine: &Engine, args: &str) -> Result<String> {
    to_json(&prompt(engine, &tools::parse("rebelPrompt", args)?)?)
}

/// [`criteria_prompt`] with JSON arguments.
pub fn criteria_prompt_json(args: &str) -> Result<String> {
    criteria_prompt(&tools::parse("rebelCriteriaPrompt", args)?)
}

/// [`apply`] with the prompt as JSON text (what [`prompt_json`] gave); the [`Reranked`] as JSON.
pub fn apply_json(engine: &Engine, prompt: &str, reply: &str) -> Result<String> {
    let p: PromptKey = serde_json::from_str(prompt).map_err(|e| {
        Error::invalid("prompt", format!("not a prompt object from rebelPrompt: {}", strip_position(&e)))
    })?;
    to_json(&apply(engine, &p, reply)?)
}

/// Arguments of [`rrf_json`].
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RrfArgs {
    lists: Vec<Vec<ChunkRef>>,
    #[serde(default)]
    k: Option<u32>,
}

/// RRF of ranked lists of chunk references: `{lists: [[ref…]…], k?}` (k 0..=1000, default 60) →
/// `[{ref, score, ranks}]`, best first ([`fusion::rrf`]). The references are not checked against
/// an index: any host lists fuse, loaded or not.
pub fn rrf_json(args: &str) -> Result<String> {
    let a: RrfArgs = tools::parse("rrf", args)?;
    if a.lists.is_empty() || a.lists.len() > MAX_LISTS {
        return Err(Error::invalid("lists", format!("{} lists; pass 1..={MAX_LISTS}", a.lists.len())));
    }
    let k = a.k.unwrap_or(fusion::DEFAULT_K);
    if k > search::MAX_FUSE_K {
        return Err(Error::invalid("k", format!("{k}; must be 0..={}", search::MAX_FUSE_K)));
    }
    let fused: Vec<Fused> = fusion::rrf(&a.lists, k)?;
    to_json(&fused)
}

fn strip_position(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let tail = format!(" at line {} column {}", e.line(), e.column());
    msg.strip_suffix(&tail).unwrap_or(&msg).to_string()
}

fn to_json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::invalid("result", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::InstanceOptions;

    fn engine() -> Engine {
        let bytes =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1/excerpts.ggi")).unwrap();
        let mut e = Engine::new(Default::default()).unwrap();
        e.add_instance("x", bytes, InstanceOptions::default()).unwrap();
        e
    }

    fn args(json: &str) -> PromptArgs {
        tools::parse("t", json).unwrap()
    }

    /// A well-formed reply to `p` that scores the documents in reverse prompt order.
    fn reverse_reply(p: &RebelPrompt) -> String {
        let n = p.docs.len();
        let mut r = String::from("Reasoning first.\n<ranking>\n");
        for id in (1..=n).rev() {
            r.push_str(&format!("[{id}] relevance={}", 10 - (n - id).min(10)));
            for c in &p.criteria {
                r.push_str(&format!(" {}=1", c.name));
            }
            r.push('\n');
        }
        r.push_str("</ranking>\n");
        r
    }

    #[test]
    fn one_turn_prompt_over_search_results_and_its_reply_applied() {
        let e = engine();
        let p = prompt(&e, &args(r#"{"query": "거주 이전의 자유", "k": 3}"#)).unwrap();
        assert_eq!(p.docs.len(), 3);
        assert_eq!(p.docs.iter().map(|d| d.id).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(p.criteria.len(), 5);
        assert!(p.prompt.starts_with("당신은 검색 시스템이"));
        assert_eq!(p.prompt.matches("<doc id=").count(), 3);
        // The references are the search tool's.
        let s = tools::call(
            &e,
            "search",
            &serde_json::json!({"query": "거주 이전의 자유", "k": 3, "detailed": true}),
        )
        .unwrap();
        for (d, r) in p.docs.iter().zip(s["results"].as_array().unwrap()) {
            assert_eq!(d.reference.to_string(), r["ref"].as_str().unwrap());
        }
        let out = apply(&e, &p.key(), &reverse_reply(&p)).unwrap();
        assert_eq!(out.items.iter().map(|d| d.doc.id).collect::<Vec<_>>(), [3, 2, 1]);
        assert_eq!(out.ranking, [2, 1, 0].map(|i| p.docs[i].reference.clone()));
        assert_eq!(out.items[0].doc, p.docs[2], "citation and text untouched");
        assert_eq!(out.items[0].rank, 1);
        assert_eq!(out.items[0].scores.len(), 5);
        // Through JSON, as every binding calls it: the same.
        let pj = prompt_json(&e, r#"{"query": "거주 이전의 자유", "k": 3}"#).unwrap();
        assert_eq!(pj, to_json(&p).unwrap());
        assert_eq!(apply_json(&e, &pj, &reverse_reply(&p)).unwrap(), to_json(&out).unwrap());
        // English, and weights.
        let en = prompt(&e, &args(r#"{"query": "거주 이전의 자유", "lang": "en", "weights": {"depth": 1}}"#))
            .unwrap();
        assert!(en.prompt.starts_with("You rerank"));
        assert!(en.prompt.contains("1·depth"));
    }

    #[test]
    fn two_turn_prompt_from_the_turn_1_reply() {
        let e = engine();
        let t1 = criteria_prompt_json(r#"{"query": "기술료 납부 기한"}"#).unwrap();
        assert!(t1.contains("<criteria>"));
        let reply = "생각…\n<criteria>\ndeadline | 1 | 기한을 밝힘. 5 = 날짜, 0 = 없음\nlegal_basis | 0.6 | 근거 조문. 5 = 조문 명시, 0 = 없음\n</criteria>";
        let a = PromptArgs {
            query: "기술료 납부 기한".into(),
            criteria_reply: Some(reply.into()),
            ..Default::default()
        };
        let p = prompt(&e, &a).unwrap();
        assert_eq!(
            p.criteria.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["deadline", "legal_basis"]
        );
        assert!(p.prompt.contains("[id] relevance=R deadline=S legal_basis=S"));
        let out = apply(&e, &p.key(), &reverse_reply(&p)).unwrap();
        assert_eq!(out.items.len(), p.docs.len());
        assert_eq!(out.items[0].scores.keys().collect::<Vec<_>>(), ["deadline", "legal_basis"]);
    }

    #[test]
    fn bad_arguments_prompts_and_replies_are_typed_errors() {
        let e = engine();
        let p = prompt(&e, &args(r#"{"query": "거주 이전의 자유", "k": 2}"#)).unwrap();
        for (bad, says) in [
            (r#"{"query": ""}"#, "query"),
            (r#"{"query": "x", "k": 0}"#, "k"),
            (r#"{"query": "x", "k": 51}"#, "k"),
            (r#"{"query": "x", "lang": "fr"}"#, "`fr`"),
            (r#"{"query": "x", "bogus": 1}"#, "bogus"),
            (r#"{"query": "x", "instance": "nope"}"#, "nope"),
            (r#"{"query": "zzzqqq"}"#, "nothing to rerank"),
            (
                r#"{"query": "x", "weights": {"depth": 1}, "criteria_reply": "<criteria>\na | 1 | b\n</criteria>"}"#,
                "weights",
            ),
            (r#"{"query": "거주", "criteria_reply": "no block"}"#, "no_block"),
            (r#"{"query": "거주", "weights": {"depth": 99}}"#, "depth"),
            ("[1]", "expected a JSON object"),
        ] {
            let err = prompt_json(&e, bad).unwrap_err();
            assert_eq!(err.code(), "invalid_argument", "{bad}");
            assert!(err.to_string().contains(says), "{bad}: {err}");
        }
        assert_eq!(criteria_prompt_json(r#"{"query": " "}"#).unwrap_err().code(), "invalid_argument");
        // Defective replies: the parser's kinds.
        for (reply, kind) in [
            ("nothing", "no_block"),
            ("<ranking>\n[1] relevance=5", "unclosed"),
            (
                "<ranking>\n[1] relevance=5 depth=1 diversity=1 clarity=1 authority=1 recency=1\n</ranking>",
                "partial",
            ),
        ] {
            let err = apply(&e, &p.key(), reply).unwrap_err();
            assert_eq!(err.code(), "invalid_argument");
            assert!(err.to_string().contains(kind), "{err}");
        }
        // Tampered or stale prompts.
        let good = reverse_reply(&p);
        let mut stale = p.key();
        stale.docs[0].reference.check ^= 1;
        assert!(apply(&e, &stale, &good).unwrap_err().to_string().contains("stale"));
        let mut ids = p.key();
        ids.docs.swap(0, 1);
        assert!(apply(&e, &ids, &good).unwrap_err().to_string().contains("ids run"));
        let mut gone = p.key();
        gone.docs[0].reference.instance = "y".into();
        assert!(apply(&e, &gone, &good).unwrap_err().to_string().contains("no instance"));
        let mut empty = p.key();
        empty.docs.clear();
        assert_eq!(apply(&e, &empty, "").unwrap_err().code(), "invalid_argument");
        for bad in ["", "{}", "[1]", r#"{"query": 1}"#] {
            let err = apply_json(&e, bad, &good).unwrap_err();
            assert!(err.to_string().contains("not a prompt object"), "{bad}: {err}");
        }
    }

    #[test]
    fn rrf_of_host_lists() {
        let got: serde_json::Value = serde_json::from_str(
            &rrf_json(r#"{"lists": [["x:1:00000001", "x:2:00000002"], ["x:2:00000002"]], "k": 0}"#).unwrap(),
        )
        .unwrap();
        assert_eq!(got[0]["ref"], "x:2:00000002");
        assert_eq!(got[0]["score"], 1.5);
        assert_eq!(got[1]["ranks"], serde_json::json!([1, null]));
        for (bad, says) in [
            (r#"{"lists": []}"#, "lists"),
            (r#"{"lists": [["x:1:00000001"]], "k": 1001}"#, "k"),
            (r#"{"lists": [["x:1:00000001", "x:1:00000001"]]}"#, "twice"),
            (r#"{"lists": [["x:1"]]}"#, "instance:chunk:check"),
            (r#"{"lists": "x"}"#, "arguments"),
        ] {
            let err = rrf_json(bad).unwrap_err();
            assert_eq!(err.code(), "invalid_argument");
            assert!(err.to_string().contains(says), "{bad}: {err}");
        }
    }
}
