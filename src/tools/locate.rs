//! Shared lookups: a source by id (in a named instance, or in whichever loaded instance holds
//! it), the chunks of a source, and "nearby valid ones" for errors.

use std::sync::Arc;

use crate::corpus::{Chunk, Source};
use crate::engine::Engine;
use crate::error::{Error, Result, shown};
use crate::index::Index;

/// An instance's index, as the engine holds it.
pub type Idx = Index<Arc<[u8]>>;

/// The number of source `id` in `index`; an unknown id is an error naming some that exist.
pub fn source_id(index: &Idx, instance: &str, id: &str) -> Result<(u32, Source)> {
    let mut all = Vec::new();
    for n in 0..index.source_count() {
        let s = index.source_head(n)?;
        if s.id == id {
            return Ok((n, index.source(n)?));
        }
        all.push(s.id);
    }
    Err(Error::invalid(
        "source",
        format!("no source {} in {instance}; {}", shown(id, 120), nearby_text(id, &all)),
    ))
}

/// Where a source was found: its instance's name and index, its number there, and the source.
pub struct Found<'e> {
    /// Instance name.
    pub instance: String,
    /// The instance's index.
    pub index: &'e Idx,
    /// The source's number in the index.
    pub sid: u32,
    /// The source.
    pub source: Source,
}

/// Source `id` in `instance`, or — when no instance is named — in the one loaded instance that
/// holds a source of that id. Several holders are an error naming them (the caller must choose);
/// none is an error naming nearby ids across every instance.
pub fn find_source<'e>(engine: &'e Engine, instance: Option<&str>, id: &str) -> Result<Found<'e>> {
    if let Some(name) = instance {
        let index = engine.index(name)?;
        let (sid, source) = source_id(index, name, id)?;
        return Ok(Found { instance: name.to_string(), index, sid, source });
    }
    let mut found: Vec<Found<'e>> = Vec::new();
    let mut all = Vec::new();
    for name in engine.instance_names() {
        let index = engine.index(&name)?;
        for n in 0..index.source_count() {
            let s = index.source_head(n)?;
            if s.id == id {
                found.push(Found { instance: name.clone(), index, sid: n, source: index.source(n)? });
            } else {
                all.push(s.id);
            }
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        0 if engine.instance_names().is_empty() => {
            Err(Error::invalid("source", format!("no source {}: no instance is loaded", shown(id, 120))))
        }
        0 => Err(Error::invalid(
            "source",
            format!("no source {} in any loaded instance; {}", shown(id, 120), nearby_text(id, &all)),
        )),
        _ => {
            let names: Vec<&str> = found.iter().map(|f| f.instance.as_str()).collect();
            Err(Error::invalid(
                "instance",
                format!("source {} is in several instances ({}): name one", shown(id, 120), names.join(", ")),
            ))
        }
    }
}

/// Every chunk of source `sid`, in chunk order, with its id.
pub fn source_chunks(index: &Idx, sid: u32) -> Result<Vec<(u32, Chunk)>> {
    let mut out = Vec::new();
    for c in 0..index.chunk_count() {
        let chunk = index.chunk(c)?;
        if chunk.source == sid {
            out.push((c, chunk));
        }
    }
    Ok(out)
}

/// How many valid names or numbers an error lists.
const NEARBY: usize = 8;

/// The positions of the `NEARBY` smallest keys (ties: earlier first), best first — a few linear
/// scans rather than a sort (no sorting code in the wasm for an error message).
fn smallest<K: PartialOrd + Copy>(keys: &[K]) -> Vec<usize> {
    let mut taken = vec![false; keys.len()];
    let mut out = Vec::new();
    while out.len() < NEARBY {
        let mut best: Option<usize> = None;
        for (i, k) in keys.iter().enumerate() {
            if !taken[i] && best.is_none_or(|b| *k < keys[b]) {
                best = Some(i);
            }
        }
        let Some(b) = best else { break };
        taken[b] = true;
        out.push(b);
    }
    out
}

/// Up to 8 distinct entries of `valid` closest to `wanted` (by edit distance on characters, then
/// order), as text for an error message.
pub fn nearby_text(wanted: &str, valid: &[String]) -> String {
    let mut distinct: Vec<&String> = Vec::new();
    for v in valid {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    if distinct.is_empty() {
        return "there are none".into();
    }
    let w: Vec<char> = wanted.chars().collect();
    let keys: Vec<usize> = distinct.iter().map(|v| distance(&w, &v.chars().collect::<Vec<_>>())).collect();
    let names: Vec<&str> = smallest(&keys).into_iter().map(|i| distinct[i].as_str()).collect();
    format!("nearby: {}", names.join(", "))
}

/// Levenshtein distance over characters, capped at 64 characters per side.
pub(crate) fn distance(a: &[char], b: &[char]) -> usize {
    let (a, b) = (&a[..a.len().min(64)], &b[..b.len().min(64)]);
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Up to 8 distinct numbers of `valid` closest to `wanted`, in increasing order.
pub fn nearby_numbers(wanted: u32, valid: &[u32]) -> String {
    let mut distinct: Vec<u32> = Vec::new();
    for &v in valid {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    if distinct.is_empty() {
        return "there are none".into();
    }
    let keys: Vec<(u32, u32)> = distinct.iter().map(|&n| (n.abs_diff(wanted), n)).collect();
    let picked: Vec<u32> = smallest(&keys).into_iter().map(|i| distinct[i]).collect();
    // In increasing order: the picked numbers' ranks among themselves.
    let ranks: Vec<u32> = smallest(&picked).into_iter().map(|i| picked[i]).collect();
    let s: Vec<String> = ranks.iter().map(u32::to_string).collect();
    format!("nearby: {}", s.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearby_lists_the_closest() {
        let v: Vec<String> =
            ["manual_body", "manual_case", "constitution"].iter().map(|s| s.to_string()).collect();
        assert_eq!(nearby_text("manual_bod", &v), "nearby: manual_body, manual_case, constitution");
        assert_eq!(nearby_numbers(240, &[1, 238, 239, 241, 300]), "nearby: 1, 238, 239, 241, 300");
        assert_eq!(nearby_numbers(5, &[]), "there are none");
    }
}
