//! `sources {instance?, offset?}`: every source of one or all instances — id, title, kind, date,
//! link, number of links and chunks, and the locations it has (page range, articles, headings).
//! A list longer than the output cap comes in pages: `next_offset` says where the next one starts.

use serde::{Deserialize, Serialize};

use super::cap::{Budget, MAX_LIST};
use crate::engine::Engine;
use crate::error::{Error, Result};

/// Arguments of `sources`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Instance name (default: all).
    #[serde(default)]
    pub instance: Option<String>,
    /// Sources to skip first, in the listed order (instances as loaded, each one's sources in
    /// order): the previous page's `next_offset`.
    #[serde(default)]
    pub offset: Option<u32>,
}

/// One source and its locations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// Instance name.
    pub instance: String,
    /// Source id.
    pub source: String,
    /// Title.
    pub title: String,
    /// Kind (statute, manual, help, faq …).
    pub kind: String,
    /// Reference date.
    pub date: Option<String>,
    /// Link.
    pub link: Option<String>,
    /// Number of links (open them with `links`).
    pub links: usize,
    /// Number of chunks.
    pub chunks: u32,
    /// First and last printed page.
    pub pages: Option<[u32; 2]>,
    /// Article labels in order (at most 50).
    pub articles: Vec<String>,
    /// How many more articles there are.
    pub articles_more: usize,
    /// Distinct headings in order (at most 50).
    pub headings: Vec<String>,
    /// How many more headings there are.
    pub headings_more: usize,
}

/// The result of `sources`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// Every source.
    pub sources: Vec<Entry>,
    /// Whether lists or entries were cut to the output cap.
    pub truncated: bool,
    /// Sources of the covered instances after this page, left out by the output cap (0 when none).
    pub sources_more: usize,
    /// The `offset` that lists them (`None` when none is left).
    pub next_offset: Option<usize>,
}

#[derive(Default)]
struct Acc {
    chunks: u32,
    pages: Option<[u32; 2]>,
    articles: Vec<String>,
    headings: Vec<String>,
}

fn push_new(list: &mut Vec<String>, v: &Option<String>) {
    if let Some(v) = v
        && list.last() != Some(v)
        && !list.contains(v)
    {
        list.push(v.clone());
    }
}

/// Run `sources`. An `offset` past the last source is an error (the list has no such page).
pub fn run(engine: &Engine, a: &Args) -> Result<Output> {
    let names = super::instances(engine, a.instance.as_deref())?;
    let mut total = 0;
    for name in &names {
        total += engine.index(name)?.source_count() as usize;
    }
    let offset = a.offset.unwrap_or(0) as usize;
    if offset > 0 && offset >= total {
        return Err(Error::invalid(
            "offset",
            format!(
                "{offset} is past the last source: the covered instances have {total} (offsets 0–{})",
                total - 1
            ),
        ));
    }
    let mut budget = Budget::default();
    let mut out = Vec::new();
    // Sources seen so far in the listed order; once one did not fit, the rest are left.
    let (mut at, mut full) = (0, false);
    for name in names {
        let index = engine.index(&name)?;
        let count = index.source_count() as usize;
        if full || at + count <= offset {
            at += count;
            continue;
        }
        let mut acc: Vec<Acc> = (0..count).map(|_| Acc::default()).collect();
        for c in 0..index.chunk_count() {
            let chunk = index.chunk(c)?;
            let Some(s) = acc.get_mut(chunk.source as usize) else { continue };
            s.chunks += 1;
            if let Some(p) = chunk.location.page {
                s.pages = Some(s.pages.map_or([p, p], |[a, b]| [a.min(p), b.max(p)]));
            }
            push_new(&mut s.articles, &chunk.location.article);
            push_new(&mut s.headings, &chunk.location.heading);
        }
        for (n, mut s) in acc.into_iter().enumerate() {
            at += 1;
            if at <= offset {
                continue;
            }
            let src = index.source_head(n as u32)?;
            let articles_more = s.articles.len().saturating_sub(MAX_LIST);
            let headings_more = s.headings.len().saturating_sub(MAX_LIST);
            s.articles.truncate(MAX_LIST);
            s.headings.truncate(MAX_LIST);
            if articles_more + headings_more > 0 {
                budget.mark();
            }
            // The cap counts titles and list entries as the text of this result.
            let text = [src.title.as_str()]
                .into_iter()
                .chain(s.articles.iter().map(String::as_str))
                .chain(s.headings.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            if budget.take(text).is_none() {
                full = true;
                break;
            }
            out.push(Entry {
                instance: name.clone(),
                source: src.id,
                title: src.title,
                kind: src.kind,
                date: src.date,
                link: src.link,
                links: index.link_count(n as u32)?,
                chunks: s.chunks,
                pages: s.pages,
                articles: s.articles,
                articles_more,
                headings: s.headings,
                headings_more,
            });
        }
    }
    // The listed sources are the ones from `offset` on, in order.
    let listed_to = offset + out.len();
    let sources_more = total - listed_to;
    let next_offset = (sources_more > 0).then_some(listed_to);
    Ok(Output { sources: out, truncated: budget.truncated, sources_more, next_offset })
}
