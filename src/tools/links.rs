//! `links {instance?, source}`: a source's links; a link that names a source of a loaded instance
//! (its id or its own link) comes back resolved, so that `read` can open it. Without `instance`,
//! the source is looked up in every loaded instance ([`find_source`]).

use serde::{Deserialize, Serialize};

use super::cap::Budget;
use super::locate::find_source;
use crate::engine::Engine;
use crate::error::Result;

/// Arguments of `links`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Instance name; without it, the loaded instance that holds `source`.
    #[serde(default)]
    pub instance: Option<String>,
    /// Source id.
    pub source: String,
}

/// A source a link resolves to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    /// Instance name.
    pub instance: String,
    /// Source id.
    pub source: String,
    /// Title.
    pub title: String,
    /// Kind.
    pub kind: String,
}

/// One link.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    /// The link as the source records it.
    pub link: String,
    /// Sources of loaded instances it names (empty if none).
    pub resolved: Vec<Target>,
}

/// The result of `links`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// Instance name.
    pub instance: String,
    /// Source id.
    pub source: String,
    /// Source title.
    pub title: String,
    /// Its links, in order.
    pub links: Vec<Link>,
    /// Whether links were dropped to the output cap.
    pub truncated: bool,
}

/// Run `links`.
pub fn run(engine: &Engine, a: &Args) -> Result<Output> {
    let found = find_source(engine, a.instance.as_deref(), &a.source)?;
    let source = found.source;
    // Every source of every loaded instance, once.
    let mut all = Vec::new();
    for name in engine.instance_names() {
        let idx = engine.index(&name)?;
        for n in 0..idx.source_count() {
            all.push((name.clone(), idx.source_head(n)?));
        }
    }
    let mut budget = Budget::default();
    let mut links = Vec::new();
    for link in source.links.iter().filter(|l| !l.trim().is_empty()) {
        let Some(text) = budget.take(link.clone()) else { break };
        let target = link.trim();
        let resolved = all
            .iter()
            .filter(|(_, s)| s.id == target || s.link.as_deref() == Some(target))
            .map(|(i, s)| Target {
                instance: i.clone(),
                source: s.id.clone(),
                title: s.title.clone(),
                kind: s.kind.clone(),
            })
            .collect();
        links.push(Link { link: text, resolved });
    }
    Ok(Output {
        instance: found.instance,
        source: source.id,
        title: source.title,
        links,
        truncated: budget.truncated,
    })
}
