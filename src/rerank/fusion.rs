//! Reciprocal rank fusion of groundgate's ranking with rankings a host supplies, by stable chunk
//! references.
//!
//! A [`ChunkRef`] names one chunk as `instance:chunk:check` — the instance name, the chunk id in
//! that instance's index, and the CRC32 of the chunk's text (8 hex digits), e.g.
//! `rnd:1742:9f0c21ab`. Chunk ids are positions in one build of an index; the check makes a
//! reference kept across a rebuild (where the id may now point at other text) an error
//! ([`ChunkRef::verify`]) instead of a wrong chunk. Hosts get references from groundgate itself
//! (every chunk's reference is `ChunkRef::of(instance, id, text)`), embed those chunks with their
//! own model, and hand back their ranking as a list of references.
//!
//! [`rrf`] scores each chunk `Σ 1 / (k + rankₗ)` over the lists `l` that hold it (ranks 1-based;
//! k = 60 by default, as in Cormack et al. 2009); ties go to the better best rank, then to the
//! earlier position in the first list (groundgate's), then to the reference.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::corpus::Chunk;
use crate::error::{Error, Result};
use crate::index::Index;
use crate::index::format::crc32;
use crate::search::Scored;

/// Default RRF constant.
pub const DEFAULT_K: u32 = 60;
/// Longest ranked list accepted.
pub const MAX_LIST: usize = 1_000;

/// A stable reference to one chunk of one instance (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkRef {
    /// Instance name.
    pub instance: String,
    /// Chunk id in that instance's index.
    pub chunk: u32,
    /// CRC32 of the chunk's text.
    pub check: u32,
}

impl ChunkRef {
    /// The reference of chunk `chunk` of `instance` whose text is `text`.
    pub fn of(instance: &str, chunk: u32, text: &str) -> ChunkRef {
        ChunkRef { instance: instance.to_string(), chunk, check: crc32(text.as_bytes()) }
    }

    /// The chunk this reference names in `index` (the index of `self.instance`), or an
    /// `invalid_argument` error when the id is out of range or the text changed since the
    /// reference was made.
    pub fn verify<D: AsRef<[u8]> + Clone>(&self, index: &Index<D>) -> Result<Chunk> {
        if self.chunk >= index.chunk_count() {
            return Err(Error::invalid(
                "ref",
                format!(
                    "{self}: instance {} has {} chunks; the reference is stale or from another index",
                    self.instance,
                    index.chunk_count()
                ),
            ));
        }
        let chunk = index.chunk(self.chunk)?;
        let got = crc32(chunk.text.as_bytes());
        if got != self.check {
            return Err(Error::invalid(
                "ref",
                format!(
                    "{self}: stale reference — chunk {} of {} now has check {got:08x}; the index was \
                     rebuilt, so take fresh references from it",
                    self.chunk, self.instance
                ),
            ));
        }
        Ok(chunk)
    }
}

impl fmt::Display for ChunkRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{:08x}", self.instance, self.chunk, self.check)
    }
}

impl FromStr for ChunkRef {
    type Err = Error;

    fn from_str(s: &str) -> Result<ChunkRef> {
        let bad = |why: &str| {
            Error::invalid("ref", format!("{s:?}: {why}; write instance:chunk:check, e.g. rnd:12:9f0c21ab"))
        };
        let mut it = s.split(':');
        let (Some(inst), Some(chunk), Some(check), None) = (it.next(), it.next(), it.next(), it.next())
        else {
            return Err(bad("not three fields"));
        };
        if !crate::engine::valid_name(inst) {
            return Err(bad("bad instance name"));
        }
        let chunk = chunk.parse().map_err(|_| bad("chunk is not a number"))?;
        if check.len() != 8 {
            return Err(bad("check is not 8 hex digits"));
        }
        let check = u32::from_str_radix(check, 16).map_err(|_| bad("check is not 8 hex digits"))?;
        Ok(ChunkRef { instance: inst.to_string(), chunk, check })
    }
}

impl Serialize for ChunkRef {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ChunkRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<ChunkRef, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One fused item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fused {
    /// The chunk.
    #[serde(rename = "ref")]
    pub reference: ChunkRef,
    /// `Σ 1/(k + rank)`, rounded to 6 decimals.
    pub score: f64,
    /// Its 1-based rank in each list (`None` where a list does not hold it).
    pub ranks: Vec<Option<u32>>,
}

/// Fuse ranked `lists` (best first) by reciprocal rank with constant `k`. A reference repeated
/// within one list, or one chunk named with two different checks, is an `invalid_argument` error.
pub fn rrf(lists: &[Vec<ChunkRef>], k: u32) -> Result<Vec<Fused>> {
    let mut at: HashMap<(&str, u32), usize> = HashMap::new();
    let mut items: Vec<(ChunkRef, Vec<Option<u32>>)> = Vec::new();
    for (l, list) in lists.iter().enumerate() {
        if list.len() > MAX_LIST {
            return Err(Error::invalid("ranking", format!("{} references, at most {MAX_LIST}", list.len())));
        }
        for (i, r) in list.iter().enumerate() {
            let slot = *at.entry((r.instance.as_str(), r.chunk)).or_insert_with(|| {
                items.push((r.clone(), vec![None; lists.len()]));
                items.len() - 1
            });
            let (known, ranks) = &mut items[slot];
            if known.check != r.check {
                return Err(Error::invalid(
                    "ref",
                    format!("{r} and {known} name the same chunk with different text"),
                ));
            }
            if ranks[l].is_some() {
                return Err(Error::invalid("ranking", format!("{r} appears twice in list {}", l + 1)));
            }
            ranks[l] = Some(i as u32 + 1);
        }
    }
    Ok(fuse_ranks(items, k))
}

fn fuse_ranks(items: Vec<(ChunkRef, Vec<Option<u32>>)>, k: u32) -> Vec<Fused> {
    // Best first: higher score, then better best rank, then earlier in the first list, then the
    // reference — a total order (references are unique). Kept sorted by binary insertion, as
    // `search::top_k` does: no sort routine in the wasm.
    let before = |a: &(f64, u32, u32, Fused), b: &(f64, u32, u32, Fused)| {
        b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.3.reference.cmp(&b.3.reference))
    };
    let mut out: Vec<(f64, u32, u32, Fused)> = Vec::with_capacity(items.len());
    for (reference, ranks) in items {
        let score: f64 = ranks.iter().flatten().map(|&r| 1.0 / (k as f64 + r as f64)).sum();
        let best = ranks.iter().flatten().copied().min().unwrap_or(u32::MAX);
        let first = ranks.first().copied().flatten().unwrap_or(u32::MAX);
        let score6 = (score * 1e6).round() / 1e6;
        let item = (score, best, first, Fused { reference, score: score6, ranks });
        let at = out.partition_point(|x| before(x, &item).is_lt());
        out.insert(at, item);
    }
    out.into_iter().map(|x| x.3).collect()
}

/// Fuse groundgate's `ours` (one instance's BM25 results, best first) with the host's `theirs`
/// (references into any instances, best first). References to other instances are left out —
/// they belong to other instances' fusions — but keep their place: a host's rank counts its
/// whole list. Each reference to `instance` is verified against `index`. The result is in fused
/// order; its `score` field is the RRF score.
pub fn fuse_instance<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    instance: &str,
    ours: &[Scored],
    theirs: &[ChunkRef],
    k: u32,
) -> Result<Vec<Fused>> {
    if theirs.len() > MAX_LIST {
        return Err(Error::invalid("ranking", format!("{} references, at most {MAX_LIST}", theirs.len())));
    }
    let mut mine = Vec::with_capacity(ours.len());
    for s in ours {
        mine.push(ChunkRef::of(instance, s.chunk, &index.chunk(s.chunk)?.text));
    }
    let mut items: Vec<(ChunkRef, Vec<Option<u32>>)> =
        mine.into_iter().enumerate().map(|(i, r)| (r, vec![Some(i as u32 + 1), None])).collect();
    for (i, r) in theirs.iter().enumerate() {
        if r.instance != instance {
            continue;
        }
        r.verify(index)?;
        // A linear lookup: lists are short, and it keeps a hash map out of the wasm.
        let slot = match items.iter().position(|(x, _)| x.chunk == r.chunk) {
            Some(slot) => slot,
            None => {
                items.push((r.clone(), vec![None, None]));
                items.len() - 1
            }
        };
        if items[slot].1[1].is_some() {
            return Err(Error::invalid("ranking", format!("{r} appears twice in the supplied list")));
        }
        items[slot].1[1] = Some(i as u32 + 1);
    }
    Ok(fuse_ranks(items, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> ChunkRef {
        s.parse().unwrap()
    }

    #[test]
    fn references_round_trip_and_reject_garbage() {
        let a = ChunkRef::of("rnd", 12, "연구개발비");
        let s = a.to_string();
        assert_eq!(s.len(), "rnd:12:".len() + 8);
        assert_eq!(r(&s), a);
        assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{s}\""));
        assert_eq!(serde_json::from_str::<ChunkRef>(&format!("\"{s}\"")).unwrap(), a);
        for bad in [
            "",
            "rnd",
            "rnd:1",
            "rnd:x:00000000",
            "rnd:1:0000000",
            "rnd:1:0000000g",
            "r d:1:00000000",
            "a:1:00000000:9",
        ] {
            let e = bad.parse::<ChunkRef>().unwrap_err();
            assert_eq!(e.code(), "invalid_argument", "{bad}");
        }
        assert!(serde_json::from_str::<ChunkRef>("\"rnd:1\"").is_err());
    }

    #[test]
    fn rrf_follows_the_formula() {
        let (a, b, c) = (r("x:1:00000001"), r("x:2:00000002"), r("x:3:00000003"));
        let got = rrf(&[vec![a.clone(), b.clone()], vec![b.clone(), c.clone()]], 60).unwrap();
        let order: Vec<&ChunkRef> = got.iter().map(|f| &f.reference).collect();
        assert_eq!(order, [&b, &a, &c]);
        assert_eq!(got[0].score, ((1.0 / 62.0 + 1.0 / 61.0) * 1e6f64).round() / 1e6);
        assert_eq!(got[0].ranks, [Some(2), Some(1)]);
        // a and c tie at 1/61: the first list's item wins.
        assert_eq!(got[1].ranks, [Some(1), None]);
        // k changes the scores, not the rules.
        assert_eq!(rrf(&[vec![a.clone()]], 0).unwrap()[0].score, 1.0);
    }

    #[test]
    fn rrf_rejects_duplicates_and_conflicting_checks() {
        let a = r("x:1:00000001");
        assert!(rrf(&[vec![a.clone(), a.clone()]], 60).is_err());
        let e = rrf(&[vec![a], vec![r("x:1:00000002")]], 60).unwrap_err();
        assert!(e.to_string().contains("different text"), "{e}");
    }

    #[test]
    fn fusion_with_an_index_verifies_references() {
        let bytes = crate::test_index::of_texts(&["감리원 교육", "감리원 자격", "계약 체결"]);
        let idx = Index::open(&bytes[..]).unwrap();
        let ours = [Scored { chunk: 0, score: 2.0 }, Scored { chunk: 1, score: 1.0 }];
        let theirs = vec![
            ChunkRef::of("other", 7, "x"),
            ChunkRef::of("t", 2, "계약 체결"),
            ChunkRef::of("t", 1, "감리원 자격"),
        ];
        let got = fuse_instance(&idx, "t", &ours, &theirs, 60).unwrap();
        let order: Vec<u32> = got.iter().map(|f| f.reference.chunk).collect();
        // 1: 1/62 + 1/63; 0: 1/61; 2: 1/62 (rank 2 in the host's whole list).
        assert_eq!(order, [1, 0, 2]);
        assert_eq!(got[2].ranks, [None, Some(2)]);
        let stale = [ChunkRef::of("t", 2, "옛 본문")];
        let e = fuse_instance(&idx, "t", &ours, &stale, 60).unwrap_err();
        assert!(e.to_string().contains("stale"), "{e}");
        let out_of_range = [ChunkRef::of("t", 9, "x")];
        assert_eq!(
            fuse_instance(&idx, "t", &ours, &out_of_range, 60).unwrap_err().code(),
            "invalid_argument"
        );
        let twice = [ChunkRef::of("t", 2, "계약 체결"), ChunkRef::of("t", 2, "계약 체결")];
        assert!(fuse_instance(&idx, "t", &ours, &twice, 60).is_err());
    }
}
