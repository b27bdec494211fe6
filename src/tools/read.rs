//! `read {instance?, source, page? | article? | heading? | chunk?, around?}`: the whole text at a
//! location — every chunk of the page, article or heading, in order — with its exact citation, and
//! `around` neighbouring chunks of the same source. Without `instance`, the source is looked up in
//! every loaded instance ([`find_source`]). An unknown location is an error listing the nearest
//! valid ones.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::cap::Budget;
use super::locate::{find_source, nearby_numbers, nearby_text, source_chunks};
use crate::corpus::Chunk;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::eval::gold::article_number;

/// Most neighbouring chunks on each side.
pub const MAX_AROUND: u32 = 5;

/// Arguments of `read`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Instance name; without it, the loaded instance that holds `source`.
    #[serde(default)]
    pub instance: Option<String>,
    /// Source id.
    pub source: String,
    /// Printed page.
    #[serde(default)]
    pub page: Option<u32>,
    /// Article: a number (`10`, main text) or a label (`제10조`, `제10조의2`, `10`), as JSON.
    #[serde(default)]
    pub article: Option<Box<RawValue>>,
    /// Heading (or section id) of the chunks.
    #[serde(default)]
    pub heading: Option<String>,
    /// Chunk id (as `search` with `detailed` reports it).
    #[serde(default)]
    pub chunk: Option<u32>,
    /// Neighbouring chunks to add on each side (0..=5).
    #[serde(default)]
    pub around: Option<u32>,
}

/// A neighbouring chunk.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part {
    /// Chunk id.
    pub chunk: u32,
    /// Printed page.
    pub page: Option<u32>,
    /// Article label.
    pub article: Option<String>,
    /// Section.
    pub section: Option<String>,
    /// Heading.
    pub heading: Option<String>,
    /// Text.
    pub text: String,
}

/// The result of `read`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// Instance name.
    pub instance: String,
    /// Source id.
    pub source: String,
    /// Source title.
    pub title: String,
    /// Printed page shared by the location's chunks.
    pub page: Option<u32>,
    /// Article shared by the location's chunks.
    pub article: Option<String>,
    /// Section shared by the location's chunks.
    pub section: Option<String>,
    /// Heading shared by the location's chunks.
    pub heading: Option<String>,
    /// Reference date of the source.
    pub date: Option<String>,
    /// Link to the source.
    pub link: Option<String>,
    /// The location's chunks' text, in order, joined by newlines.
    pub text: String,
    /// The location's chunk ids.
    pub chunks: Vec<u32>,
    /// Up to `around` chunks before the location.
    pub before: Vec<Part>,
    /// Up to `around` chunks after the location.
    pub after: Vec<Part>,
    /// Whether text was cut to the output cap.
    pub truncated: bool,
}

fn same<T: Clone + PartialEq>(items: &[&Chunk], f: impl Fn(&Chunk) -> &Option<T>) -> Option<T> {
    let first = f(items.first()?).clone();
    items.iter().all(|c| *f(c) == first).then_some(first).flatten()
}

fn distinct<T: Clone + PartialEq>(chunks: &[(u32, Chunk)], f: impl Fn(&Chunk) -> Option<T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for (_, c) in chunks {
        if let Some(v) = f(c)
            && !out.contains(&v)
        {
            out.push(v);
        }
    }
    out
}

/// Which chunks of the source (positions in `chunks`) the arguments name.
fn select(a: &Args, chunks: &[(u32, Chunk)]) -> Result<Vec<usize>> {
    let given = [a.page.is_some(), a.article.is_some(), a.heading.is_some(), a.chunk.is_some()];
    if given.iter().filter(|g| **g).count() > 1 {
        return Err(Error::invalid("location", "give at most one of page, article, heading, chunk"));
    }
    let pick = |f: &dyn Fn(&Chunk, u32) -> bool| -> Vec<usize> {
        chunks.iter().enumerate().filter(|(_, (id, c))| f(c, *id)).map(|(i, _)| i).collect()
    };
    let src = &a.source;
    let found = if let Some(p) = a.page {
        let f = pick(&|c, _| c.location.page == Some(p));
        if f.is_empty() {
            let pages = distinct(chunks, |c| c.location.page);
            return Err(Error::invalid(
                "page",
                format!("no page {p} in {src}; {}", nearby_numbers(p, &pages)),
            ));
        }
        f
    } else if let Some(art) = &a.article {
        let main = |c: &Chunk| !c.location.section.as_deref().is_some_and(|s| s.starts_with("부칙"));
        let raw = art.get();
        let (label, number) = if raw.starts_with('"') {
            let l: String = serde_json::from_str(raw).unwrap_or_default();
            let l = l.trim().to_string();
            let n = l.parse::<u32>().ok().or_else(|| article_number(&l));
            (Some(l).filter(|l| !l.is_empty()), n)
        } else {
            (None, raw.parse::<u32>().ok())
        };
        if label.is_none() && number.is_none() {
            return Err(Error::invalid("article", "a label such as 제10조 or a number such as 10"));
        }
        let exact = |c: &Chunk, _| label.is_some() && c.location.article == label && main(c);
        let mut f = pick(&exact);
        if f.is_empty()
            && let Some(n) = number
        {
            f = pick(&|c, _| main(c) && c.location.article.as_deref().and_then(article_number) == Some(n));
        }
        if f.is_empty() {
            let labels = distinct(chunks, |c| c.location.article.clone());
            let wanted = label.unwrap_or_else(|| format!("제{}조", number.unwrap_or(0)));
            // A numbered article's neighbours by number (제131조 → 128, 129, 130), not by spelling.
            let near = match number {
                Some(n) => {
                    nearby_numbers(n, &labels.iter().filter_map(|l| article_number(l)).collect::<Vec<_>>())
                }
                None => nearby_text(&wanted, &labels),
            };
            return Err(Error::invalid("article", format!("no article {wanted} in {src}; {near}")));
        }
        f
    } else if let Some(h) = &a.heading {
        let f = pick(&|c, _| {
            c.location.heading.as_deref() == Some(h) || c.location.section.as_deref() == Some(h)
        });
        if f.is_empty() {
            let mut names = distinct(chunks, |c| c.location.heading.clone());
            names.extend(distinct(chunks, |c| c.location.section.clone()));
            return Err(Error::invalid(
                "heading",
                format!("no heading {} in {src}; {}", crate::error::shown(h, 120), nearby_text(h, &names)),
            ));
        }
        f
    } else if let Some(id) = a.chunk {
        let f = pick(&|_, c| c == id);
        if f.is_empty() {
            let ids: Vec<u32> = chunks.iter().map(|(i, _)| *i).collect();
            return Err(Error::invalid(
                "chunk",
                format!("no chunk {id} in {src}; {}", nearby_numbers(id, &ids)),
            ));
        }
        f
    } else {
        (0..chunks.len()).collect()
    };
    Ok(found)
}

/// Run `read`.
pub fn run(engine: &Engine, a: &Args) -> Result<Output> {
    let around = a.around.unwrap_or(0);
    super::in_range("around", around as u64, 0, MAX_AROUND as u64)?;
    let found = find_source(engine, a.instance.as_deref(), &a.source)?;
    let (source, chunks) = (found.source, source_chunks(found.index, found.sid)?);
    let picked = select(a, &chunks)?;
    let items: Vec<&Chunk> = picked.iter().map(|&i| &chunks[i].1).collect();
    let mut budget = Budget::default();
    let joined = items.iter().map(|c| c.text.as_str()).collect::<Vec<_>>().join("\n");
    let text = budget.take(joined).unwrap_or_default();
    let part = |i: usize, budget: &mut Budget| -> Option<Part> {
        let (id, c) = &chunks[i];
        Some(Part {
            chunk: *id,
            page: c.location.page,
            article: c.location.article.clone(),
            section: c.location.section.clone(),
            heading: c.location.heading.clone(),
            text: budget.take(c.text.clone())?,
        })
    };
    let (first, last) = (picked.first().copied().unwrap_or(0), picked.last().copied().unwrap_or(0));
    let n = around as usize;
    let before: Vec<Part> = (first.saturating_sub(n)..first).filter_map(|i| part(i, &mut budget)).collect();
    let after_end = (last + 1 + n).min(chunks.len());
    let after: Vec<Part> = (last + 1..after_end).filter_map(|i| part(i, &mut budget)).collect();
    Ok(Output {
        instance: found.instance,
        source: source.id,
        title: source.title,
        page: same(&items, |c| &c.location.page),
        article: same(&items, |c| &c.location.article),
        section: same(&items, |c| &c.location.section),
        heading: same(&items, |c| &c.location.heading),
        date: source.date,
        link: source.link,
        text,
        chunks: picked.iter().map(|&i| chunks[i].0).collect(),
        before,
        after,
        truncated: budget.truncated,
    })
}
