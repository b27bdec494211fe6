//! Opens index bytes: cheap checks at open, bounds-checked access after.
//!
//! [`Index::open`] reads the header and section table, decodes the small `meta` section, checks the
//! CRC of the term dictionary (lookups decode it through checked paths: `get_checked` in the vendored
//! FST, so a crafted dictionary with valid CRCs is an error, not a panic) and
//! checks that every fixed-width section has the size the counts imply. Nothing else is read until
//! asked for; [`Index::verify`] checks every CRC. Every later access is bounds-checked and returns
//! [`Error::Corrupt`] rather than panicking.

use std::ops::Deref;
use std::sync::Arc;

use bincode::Options;
use tantivy_fst::raw::Fst;

use super::format::{self, Section, SectionId, read_u32};
use super::records::{self, CHUNK_LEN, NO_PAGE, SOURCE_LEN};
use super::strings::Strings;
use super::{IndexMeta, parts, postings, text};
use crate::corpus::{Chunk, Location, Source};
use crate::decimal::Decimal;
use crate::error::{Error, Result};
use crate::search::bm25;

/// What is wrong with a term dictionary the FST reader refused, in one line. tantivy-fst's own
/// messages are paragraphs about "the 'fst' crate", and printing them links `io::Error`'s text
/// into the browser wasm; reading from memory, only `Format`, `Version` and `WrongType` occur.
fn fst_error(e: &tantivy_fst::Error) -> String {
    use tantivy_fst::raw::Error as Raw;
    match e {
        tantivy_fst::Error::Fst(Raw::Version { expected, got }) => {
            format!("FST format version {got}, this build reads {expected}")
        }
        tantivy_fst::Error::Fst(Raw::WrongType { expected, got }) => {
            format!("FST type {got}, want {expected}")
        }
        _ => "not a well-formed FST (a node, transition or output out of range)".to_string(),
    }
}

/// What is wrong with a bincode section, in one line. bincode's own `Display` would print its
/// `Io` case through `io::Error`, whose every kind's text (~1.3 KB) then ships in the browser wasm;
/// reading from memory, `Io` only ever means the bytes ended early.
fn bincode_error(e: &bincode::ErrorKind) -> String {
    use bincode::ErrorKind as K;
    match e {
        K::Io(_) => "the bytes end early".to_string(),
        K::InvalidUtf8Encoding(_) => "a string is not UTF-8".to_string(),
        K::InvalidBoolEncoding(b) => format!("{b} is not a boolean (0 or 1)"),
        K::InvalidCharEncoding => "a character is not a Unicode scalar value".to_string(),
        K::InvalidTagEncoding(t) => format!("{t} is not a variant tag"),
        K::SizeLimit => "a length is over the size limit".to_string(),
        K::Custom(why) => why.clone(),
        _ => "not the encoding this build writes".to_string(),
    }
}

/// A sub-range of shared bytes (what the FST reader holds).
#[derive(Clone)]
pub struct SubSlice<D> {
    data: D,
    start: usize,
    end: usize,
}

impl<D: AsRef<[u8]>> Deref for SubSlice<D> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // Range checked against the data length when the SubSlice was made.
        self.data.as_ref().get(self.start..self.end).unwrap_or(&[])
    }
}

/// What the dictionary knows about one term.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TermInfo {
    /// Term ordinal.
    pub ordinal: u32,
    /// Number of chunks containing the term.
    pub df: u32,
    /// Inverse document frequency: [`bm25::idf`] of the document frequency, computed at lookup
    /// (format v4; the same function the writer used to store, so the same bits) or stored at
    /// build time (v1–v3).
    pub idf: f32,
    start: usize,
    end: usize,
}

/// A checked `guarded_names` section (see [`Index::outside_name`]).
#[derive(Debug, Clone)]
struct Guarded {
    section: Section,
    start: usize,
    own: Vec<(u32, u32)>,
    names: Vec<(u32, u32)>,
}

/// An open index over bytes `D` — `&[u8]` (borrowed, zero-copy), `Arc<[u8]>` or `Vec<u8>` (owned).
pub struct Index<D = Arc<[u8]>> {
    data: D,
    sections: Vec<Section>,
    meta: IndexMeta,
    terms: Fst<SubSlice<D>>,
    n_terms: u32,
    version: u32,
    norms: Vec<f32>,
    background: Option<Section>,
    /// The byte ranges of the `names` section's names in it (empty when the section is absent).
    names: Vec<(u32, u32)>,
    /// The `guarded_names` section, checked: where its guarded part starts, the own names' ranges
    /// and the guarded names' ranges (relative to that start); `None` when the section is absent.
    guarded: Option<Guarded>,
    /// The `weights` section, checked at open; `None` when absent (every chunk weighs 1).
    weights: Option<Section>,
    /// How the text section is laid out (its header, read at open; a ranked table parsed).
    text: text::Layout,
    /// The `prompt_language` section says `ko` ([`script`](crate::gate::script)).
    korean_prompts: bool,
    /// Decoded postings with their tf parts, kept after first use ([`Index::tf_parts`]).
    parts: parts::Parts,
}

/// A chunk's citation as string ids ([`Index::citation_ids`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CitationIds {
    /// Printed page.
    pub page: Option<u32>,
    /// The string ids of the source's id and title, the chunk's article, section and heading, and
    /// the source's date and link, in that order ([`NONE`](super::strings::NONE): absent).
    pub strings: [u32; 7],
}

/// Bytes per term-info record in format `version`: postings offset and document frequency, plus
/// the stored idf before v4.
fn term_info_len(version: u32) -> usize {
    if version >= records::PLANES_SINCE { 8 } else { 12 }
}

impl<D: AsRef<[u8]> + Clone> Index<D> {
    /// Open an index. O(sections) plus one CRC pass over the term dictionary.
    pub fn open(data: D) -> Result<Index<D>> {
        let bytes = data.as_ref();
        let sections = format::read_table(bytes)?;
        let find = |id: SectionId| sections.iter().find(|s| s.id == id).copied();
        let sec = |id| find(id).ok_or_else(|| Error::corrupt(id.name(), "required section missing"));
        let slice = |s: Section| bytes.get(s.offset..s.offset + s.len).unwrap_or(&[]);

        let meta_s = sec(SectionId::Meta)?;
        format::check_crc(bytes, &meta_s)?;
        let meta: IndexMeta = bincode::DefaultOptions::new()
            .with_fixint_encoding()
            .with_limit(1 << 20)
            .allow_trailing_bytes()
            .deserialize(slice(meta_s))
            .map_err(|e| Error::corrupt("meta", bincode_error(&e)))?;

        let terms_s = sec(SectionId::Terms)?;
        format::check_crc(bytes, &terms_s)?;
        let sub = SubSlice { data: data.clone(), start: terms_s.offset, end: terms_s.offset + terms_s.len };
        let terms = Fst::new(sub).map_err(|e| Error::corrupt("terms", fst_error(&e)))?;
        let n_terms = u32::try_from(terms.len()).map_err(|_| Error::corrupt("terms", "too many terms"))?;

        let expect = |id: SectionId, want: u64| -> Result<()> {
            let got = sec(id)?.len as u64;
            if got != want {
                return Err(Error::corrupt(id.name(), format!("{got} bytes, expected {want}")));
            }
            Ok(())
        };
        let version = format::version(bytes);
        expect(SectionId::TermInfo, term_info_len(version) as u64 * n_terms as u64)?;
        expect(SectionId::DocLens, 2 * meta.chunks as u64)?;
        expect(SectionId::Chunks, CHUNK_LEN as u64 * meta.chunks as u64)?;
        expect(SectionId::Sources, SOURCE_LEN as u64 * meta.sources as u64)?;
        for (id, width) in [(SectionId::Anchors, 4), (SectionId::Glossary, 8)] {
            if sec(id)?.len % width != 0 {
                return Err(Error::corrupt(id.name(), format!("length not a multiple of {width}")));
            }
        }
        Strings::new(slice(sec(SectionId::Strings)?))?;
        if !(meta.bm25.k1.is_finite() && meta.bm25.b.is_finite() && meta.sufficiency.is_finite()) {
            return Err(Error::corrupt("meta", "non-finite scoring parameter"));
        }
        // The writer clamps k1 and b ([`Bm25Params::clamped`]); outside that, scores are 0,
        // negative or infinite and a search answers wrongly instead of failing.
        if meta.bm25.clamped() != meta.bm25 {
            return Err(Error::corrupt("meta", "BM25 k1 or b outside the writer's range (k1 0–3, b 0–1)"));
        }
        // The optional background levels: one byte a term, trusted after their CRC.
        let background = find(SectionId::Background);
        if let Some(s) = background {
            format::check_crc(bytes, &s)?;
            if s.len as u64 != n_terms as u64 {
                return Err(Error::corrupt("background", format!("{} bytes for {n_terms} terms", s.len)));
            }
        }
        // The optional names outside the documents: checked whole (CRC, order, UTF-8) once here.
        let mut names = Vec::new();
        if let Some(s) = find(SectionId::Names) {
            format::check_crc(bytes, &s)?;
            names = crate::gate::names::ranges(slice(s)).map_err(|e| Error::corrupt("names", e))?;
        }
        let guarded = match find(SectionId::GuardedNames) {
            Some(s) => {
                format::check_crc(bytes, &s)?;
                let (start, own, names) = crate::gate::names::guarded_ranges(slice(s))
                    .map_err(|e| Error::corrupt("guarded_names", e))?;
                Some(Guarded { section: s, start, own, names })
            }
            None => None,
        };
        let weights = find(SectionId::Weights);
        if let Some(s) = weights {
            format::check_crc(bytes, &s)?;
            super::weights::check(slice(s), meta.chunks).map_err(|e| Error::corrupt("weights", e))?;
        }
        let mut korean_prompts = false;
        if let Some(s) = find(SectionId::PromptLanguage) {
            format::check_crc(bytes, &s)?;
            if slice(s) != b"ko" {
                return Err(Error::corrupt("prompt_language", "not a language the gate can tell (ko)"));
            }
            korean_prompts = true;
        }
        // One pass over the chunk lengths (2 bytes a chunk, size checked above).
        let (p, avg) = (meta.bm25, meta.avg_len());
        let norms = slice(sec(SectionId::DocLens)?)
            .chunks_exact(2)
            .map(|x| bm25::length_norm(p, u16::from_le_bytes([x[0], x[1]]) as f32, avg))
            .collect::<Vec<f32>>();
        let text = text::Layout::of(slice(sec(SectionId::Text)?), version)?;
        Ok(Index {
            data,
            sections,
            meta,
            terms,
            n_terms,
            version,
            norms,
            background,
            names,
            guarded,
            weights,
            text,
            korean_prompts,
            parts: parts::Parts::default(),
        })
    }

    /// The file's format version.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Check every section's CRC32 (reads the whole file once).
    pub fn verify(&self) -> Result<()> {
        format::verify(self.data.as_ref())
    }

    /// Settings and statistics.
    pub fn meta(&self) -> &IndexMeta {
        &self.meta
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// Number of chunks.
    pub fn chunk_count(&self) -> u32 {
        self.meta.chunks
    }

    /// Number of sources.
    pub fn source_count(&self) -> u32 {
        self.meta.sources
    }

    /// Number of distinct terms.
    pub fn term_count(&self) -> u32 {
        self.n_terms
    }

    fn section(&self, id: SectionId) -> &[u8] {
        self.sections
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| self.data.as_ref().get(s.offset..s.offset + s.len))
            .unwrap_or(&[])
    }

    fn strings(&self) -> Result<Strings<'_>> {
        Strings::new(self.section(SectionId::Strings))
    }

    /// Look a term up in the dictionary.
    pub fn term(&self, term: &str) -> Result<Option<TermInfo>> {
        // Checked decoding: a CRC proves no accident, not a well-formed FST (crafted files).
        let found =
            self.terms.get_checked(term.as_bytes()).map_err(|e| Error::corrupt("terms", fst_error(&e)))?;
        let Some(ord) = found else { return Ok(None) };
        let ord = u32::try_from(ord.value()).map_err(|_| Error::corrupt("terms", "ordinal overflow"))?;
        if ord >= self.n_terms {
            return Err(Error::corrupt("terms", format!("ordinal {ord} ≥ term count {}", self.n_terms)));
        }
        let info = self.section(SectionId::TermInfo);
        let post_len = self.section(SectionId::Postings).len();
        let (start, df, idf, end) = if self.version >= records::PLANES_SINCE {
            let [start, df] = records::read_planes::<2>(info, ord, "term_info")?;
            let end = if ord + 1 < self.n_terms {
                records::read_planes::<2>(info, ord + 1, "term_info")?[0] as usize
            } else {
                post_len
            };
            (start, df, bm25::idf(self.meta.chunks, df), end)
        } else {
            let [start, df, idf] = records::read::<3>(info, ord, "term_info")?;
            let end = if ord + 1 < self.n_terms {
                (ord as usize + 1).checked_mul(12).and_then(|at| read_u32(info, at)).unwrap_or(u32::MAX)
                    as usize
            } else {
                post_len
            };
            // A stored idf is what [`bm25::idf`] gives: positive, at most a term in one chunk's
            // (the same formula; 1 of slack for another platform's logarithm). Else scores are
            // negative or infinite and a search answers wrongly instead of failing.
            let idf = f32::from_bits(idf);
            if !(0.0..=bm25::idf(self.meta.chunks, 1) + 1.0).contains(&idf) {
                return Err(Error::corrupt(
                    "term_info",
                    format!("term {ord}: idf {}", Decimal(f64::from(idf))),
                ));
            }
            (start, df, idf, end)
        };
        if start as usize > end || end > post_len {
            return Err(Error::corrupt("term_info", format!("postings of term {ord} span {start}..{end}")));
        }
        if !idf.is_finite() || df == 0 || df > self.meta.chunks {
            return Err(Error::corrupt(
                "term_info",
                format!("term {ord}: df {df}, idf {}", Decimal(f64::from(idf))),
            ));
        }
        Ok(Some(TermInfo { ordinal: ord, df, idf, start: start as usize, end }))
    }

    /// Decode a term's postings, calling `f(chunk, tf)` in chunk order.
    pub fn postings(&self, info: &TermInfo, f: impl FnMut(u32, u32)) -> Result<()> {
        let bytes = self.section(SectionId::Postings).get(info.start..info.end).unwrap_or(&[]);
        postings::decode(bytes, info.df as usize, self.meta.chunks, f)
    }

    /// A term's postings a block at a time (see [`postings::decode_blocks`]).
    pub fn postings_blocks(&self, info: &TermInfo, mut f: impl FnMut(&[u32], &[u32])) -> Result<()> {
        self.blocks_upto(info, u32::MAX, &mut f)
    }

    /// [`Index::postings_blocks`] up to the block that passes chunk `upto`.
    fn blocks_upto(&self, info: &TermInfo, upto: u32, f: &mut dyn FnMut(&[u32], &[u32])) -> Result<()> {
        // The list and what follows it in the section: the decoder's word reads may cross the
        // list's end (`start ≤ end ≤ section length`, checked by `term`).
        let data = self.section(SectionId::Postings).get(info.start..).unwrap_or(&[]);
        let len = info.end.saturating_sub(info.start).min(data.len());
        postings::decode_blocks_in(data, len, info.df as usize, self.meta.chunks, upto, f)
    }

    /// The term's postings as (chunk, [`bm25::tf_part`]) pairs in chunk order, from the lists this
    /// index keeps after first use ([`parts`]); `None` when the list is not kept (too short, or the
    /// budget spent): decode it with [`Index::postings_blocks`].
    pub fn tf_parts(&self, info: &TermInfo) -> Result<Option<Arc<Vec<parts::Part>>>> {
        if let Some(list) = self.kept_parts(info) {
            return Ok(Some(list));
        }
        // (`wants` refuses a list under MIN_DF.)
        if !self.parts.wants(info.df) {
            return Ok(None);
        }
        Ok(Some(self.parts.keep(info.ordinal, self.tf_parts_upto(info, u32::MAX)?)))
    }

    /// The term's (chunk, tf part) pairs decoded now, not kept: its blocks up to the one that passes
    /// chunk `upto` (`u32::MAX`: the whole list), each part as [`Index::tf_parts`] computes it.
    pub fn tf_parts_upto(&self, info: &TermInfo, upto: u32) -> Result<Vec<parts::Part>> {
        let (p, norms) = (self.meta.bm25, &self.norms[..]);
        let mut list = Vec::with_capacity(info.df as usize);
        let mut outside = None;
        self.blocks_upto(info, upto, &mut |docs, tfs| {
            if outside.is_none() {
                outside = parts::push_block(p, norms, docs, tfs, &mut list);
            }
        })?;
        match outside {
            Some(doc) => Err(parts::outside(doc)),
            None => Ok(list),
        }
    }

    /// The term's kept list if [`Index::tf_parts`] has kept it already (nothing decoded here): a
    /// list kept was decoded whole without error, its chunks checked.
    pub fn kept_parts(&self, info: &TermInfo) -> Option<Arc<Vec<parts::Part>>> {
        if info.df < parts::MIN_DF { None } else { self.parts.get(info.ordinal) }
    }

    /// Postings held by [`Index::tf_parts`]'s kept lists (8 bytes each).
    pub fn kept_postings(&self) -> usize {
        self.parts.held()
    }

    /// Length of chunk `id` in terms.
    pub fn doc_len(&self, id: u32) -> Result<u16> {
        let b = self.section(SectionId::DocLens);
        // Checked: `2 · id` wraps a 32-bit `usize` (wasm) for a large id.
        match (id as usize).checked_mul(2).and_then(|at| b.get(at..at.checked_add(2)?)) {
            Some(x) => Ok(u16::from_le_bytes([x[0], x[1]])),
            None => Err(parts::outside(id)),
        }
    }

    /// The chunk-length section: chunk `i`'s length in terms is the u16 LE at byte `2 i` (bounds
    /// are the caller's to check; [`Index::doc_len`] does).
    pub fn doc_lens_bytes(&self) -> &[u8] {
        self.section(SectionId::DocLens)
    }

    /// Per chunk, in chunk order: the BM25 length norm [`bm25::length_norm`] (computed at open;
    /// one entry per chunk).
    pub fn length_norms(&self) -> &[f32] {
        &self.norms
    }

    /// Per chunk, its source's weight in the search ranking (each > 0 and at most
    /// [`MAX_WEIGHT`](super::weights::MAX_WEIGHT)); `None` when every chunk weighs 1.
    pub fn chunk_weights(&self) -> Option<super::weights::Weights<'_>> {
        self.weights.map(|s| super::weights::Weights::checked(self.section(s.id)))
    }

    /// All chunk lengths, in chunk order (one pass over the section).
    pub fn doc_lens(&self) -> impl Iterator<Item = u16> + '_ {
        self.section(SectionId::DocLens).chunks_exact(2).map(|x| u16::from_le_bytes([x[0], x[1]]))
    }

    /// Chunk `id`.
    pub fn chunk(&self, id: u32) -> Result<Chunk> {
        self.chunk_with(id, true)
    }

    /// The nine fields of chunk `id`'s record (offset and length of its text, source, page,
    /// article, section, heading, start, end); an id past the chunks is the caller's error.
    fn chunk_fields(&self, id: u32) -> Result<[u32; 9]> {
        if id >= self.meta.chunks {
            return Err(Error::invalid("chunk", format!("chunk {id} ≥ chunk count {}", self.meta.chunks)));
        }
        records::read_in::<9>(self.version, self.section(SectionId::Chunks), id, "chunks")
    }

    /// Chunk `id`'s record names a source the index has.
    fn check_source(&self, id: u32, source: u32) -> Result<()> {
        if source >= self.meta.sources {
            return Err(Error::corrupt("chunks", format!("chunk {id} names source {source}")));
        }
        Ok(())
    }

    /// [`Index::chunk`] without decoding its text (`text` empty): for callers that take the text
    /// another way ([`Index::chunk_text_utf16`]). The same checks but the text's.
    pub fn chunk_record(&self, id: u32) -> Result<Chunk> {
        self.chunk_with(id, false)
    }

    /// The text of chunk `id` as UTF-16 code units appended to `out` (for JS strings): the same
    /// text and checks as [`Index::chunk`]'s, decoded straight from the stored code.
    pub fn chunk_text_utf16(&self, id: u32, out: &mut Vec<u16>) -> Result<()> {
        let [off, len, ..] = self.chunk_fields(id)?;
        text::read_utf16(self.section(SectionId::Text), &self.text, self.version, id, off, len, out)
    }

    fn chunk_with(&self, id: u32, with_text: bool) -> Result<Chunk> {
        let [off, len, source, page, article, section, heading, start, end] = self.chunk_fields(id)?;
        let text = if with_text {
            text::read(self.section(SectionId::Text), &self.text, self.version, id, off, len)?
        } else {
            String::new()
        };
        self.check_source(id, source)?;
        let s = self.strings()?;
        let own = |id| s.get(id).map(|o| o.map(str::to_string));
        Ok(Chunk {
            source,
            text,
            location: Location {
                page: (page != NO_PAGE).then_some(page),
                article: own(article)?,
                section: own(section)?,
                heading: own(heading)?,
            },
            start,
            end,
        })
    }

    /// The citation of chunk `id` ([`Citation`](crate::corpus::Citation)'s fields) as the index's
    /// string ids, for a host that copies each distinct string once (the wasm hit objects): the
    /// records [`Index::chunk_record`] and then [`Index::source_head`] read, with their checks in
    /// their order, so the same first error. `seen` holds the strings checked so far (id, text): a
    /// string in it is not checked again, and the caller finds every string of the result in it.
    pub fn citation_ids<'s>(&'s self, id: u32, seen: &mut Vec<(u32, &'s str)>) -> Result<CitationIds> {
        let [_, _, source, page, article, section, heading, _, _] = self.chunk_fields(id)?;
        self.check_source(id, source)?;
        let s = self.strings()?;
        // An absent string is an error where required (`required`'s own), else nothing to check.
        let mut check = |id: u32, required: Option<&'static str>| -> Result<()> {
            if id == super::strings::NONE {
                return required.map_or(Ok(()), |what| s.required(id, what).map(drop));
            }
            if !seen.iter().any(|e| e.0 == id)
                && let Some(text) = s.get(id)?
            {
                seen.push((id, text));
            }
            Ok(())
        };
        for x in [article, section, heading] {
            check(x, None)?;
        }
        let [sid, title, kind, date, link, links] =
            records::read_in::<6>(self.version, self.section(SectionId::Sources), source, "sources")?;
        check(sid, Some("source id"))?;
        check(title, Some("source title"))?;
        check(kind, Some("source kind"))?;
        for x in [date, link, links] {
            check(x, None)?;
        }
        Ok(CitationIds {
            page: (page != NO_PAGE).then_some(page),
            strings: [sid, title, article, section, heading, date, link],
        })
    }

    /// Where chunk `id` stands, as raw record fields — source number, page, and the string ids of
    /// its article, section and heading — without decoding its text or strings. Two chunks with
    /// the same key have the same citation.
    pub fn chunk_key(&self, id: u32) -> Result<[u32; 5]> {
        let [_, _, source, page, article, section, heading, _, _] = self.chunk_fields(id)?;
        self.check_source(id, source)?;
        Ok([source, page, article, section, heading])
    }

    /// How common term `ordinal` is in general text (a [`background`](crate::gate::background)
    /// level, 0 = not in the general word lists); `None` when the index has no such section.
    pub fn background_level(&self, ordinal: u32) -> Option<u8> {
        let s = self.background?;
        let i = ordinal as usize;
        if i < s.len { self.data.as_ref().get(s.offset + i).copied() } else { None }
    }

    /// Is `word` ([`words_of`](crate::text::words_of)) a name (a country, a programming language)
    /// the documents never mention
    /// (section `names`; `false` without it)?
    pub fn is_outside_name(&self, word: &str) -> bool {
        !self.names.is_empty()
            && crate::gate::names::contains(self.section(SectionId::Names), &self.names, word)
    }

    /// The first of a prompt's `words` ([`names::forms`](crate::gate::names::forms)) that names
    /// something the documents are not about: a name of the `names` section, or one of the
    /// `guarded_names` section's guarded names when no word is one of its own names (a prompt
    /// naming Rust is not about the Python FAQ; one naming Rust and Python may be).
    pub fn outside_name<'w>(&self, words: &'w [String]) -> Option<&'w str> {
        if let Some(w) = words.iter().find(|w| self.is_outside_name(w)) {
            return Some(w);
        }
        let g = self.guarded.as_ref()?;
        let bytes = self.data.as_ref().get(g.section.offset..g.section.offset + g.section.len)?;
        let (own, guarded) = bytes.split_at(g.start);
        let contains = crate::gate::names::contains;
        if words.iter().any(|w| contains(own, &g.own, w)) {
            return None;
        }
        words.iter().find(|w| contains(guarded, &g.names, w)).map(String::as_str)
    }

    /// Do the documents' readers write their prompts in Korean (section `prompt_language`:
    /// a prompt without a Hangul syllable is then not about them; [`script`](crate::gate::script))?
    pub fn korean_prompts(&self) -> bool {
        self.korean_prompts
    }

    /// The names (countries, programming languages) the documents never mention (section
    /// `names`), in order.
    pub fn outside_names(&self) -> impl Iterator<Item = &str> {
        let bytes = self.section(SectionId::Names);
        self.names
            .iter()
            .filter_map(move |&(a, b)| std::str::from_utf8(bytes.get(a as usize..b as usize)?).ok())
    }

    /// The gate model stored by `groundgate calibrate --write`, if any (its CRC is checked first;
    /// a model with non-finite weights or thresholds outside 0..=1 is corrupt).
    pub fn gate_model(&self) -> Result<Option<crate::gate::GateModel>> {
        let Some(s) = self.sections.iter().find(|s| s.id == SectionId::Gate).copied() else {
            return Ok(None);
        };
        format::check_crc(self.data.as_ref(), &s)?;
        // Two judges of (features + bias + threshold) f64s: a model fitted for another feature set
        // (an older build) is refused by name rather than misread.
        let want = 2 * (crate::gate::features::COUNT + 2) * 8;
        if s.len != want {
            return Err(Error::corrupt(
                "gate",
                format!(
                    "a stored model of {} bytes; this build's gate has {} features ({want} bytes): re-run \
                     `groundgate calibrate --write`",
                    s.len,
                    crate::gate::features::COUNT
                ),
            ));
        }
        let m: crate::gate::GateModel = bincode::DefaultOptions::new()
            .with_fixint_encoding()
            .with_limit(1 << 16)
            .reject_trailing_bytes()
            .deserialize(self.section(SectionId::Gate))
            .map_err(|e| Error::corrupt("gate", bincode_error(&e)))?;
        m.check().map_err(|e| Error::corrupt("gate", e))?;
        Ok(Some(m))
    }

    /// Source `id`.
    pub fn source(&self, id: u32) -> Result<Source> {
        self.source_with(id, true)
    }

    /// [`Index::source`] without its links (`links` empty): what a citation needs. A crafted
    /// file can give every source one string of millions of links; split for each source a search
    /// hit or a listing touches, it cost gigabytes.
    pub fn source_head(&self, id: u32) -> Result<Source> {
        self.source_with(id, false)
    }

    /// How many links source `id` has (its links counted, not split into strings).
    pub fn link_count(&self, id: u32) -> Result<usize> {
        let [.., links] =
            records::read_in::<6>(self.version, self.section(SectionId::Sources), id, "sources")?;
        Ok(self.strings()?.get(links)?.map_or(0, |l| l.split('\n').count()))
    }

    fn source_with(&self, id: u32, with_links: bool) -> Result<Source> {
        if id >= self.meta.sources {
            return Err(Error::invalid(
                "source",
                format!("source {id} ≥ source count {}", self.meta.sources),
            ));
        }
        let [sid, title, kind, date, link, links] =
            records::read_in::<6>(self.version, self.section(SectionId::Sources), id, "sources")?;
        let s = self.strings()?;
        Ok(Source {
            id: s.required(sid, "source id")?.to_string(),
            title: s.required(title, "source title")?.to_string(),
            kind: s.required(kind, "source kind")?.to_string(),
            date: s.get(date)?.map(str::to_string),
            link: s.get(link)?.map(str::to_string),
            links: match s.get(links)? {
                Some(l) if with_links => l.split('\n').map(str::to_string).collect(),
                _ => Vec::new(),
            },
        })
    }

    /// The anchor words. The writer lists each once: an anchor listed twice is corruption (a
    /// crafted file could otherwise list a few anchors millions of times, each analysed).
    pub fn anchors(&self) -> Result<Vec<String>> {
        let s = self.strings()?;
        let ids: Vec<u32> = self
            .section(SectionId::Anchors)
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let mut distinct = ids.clone();
        crate::sort::sort(&mut distinct);
        if distinct.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::corrupt("anchors", "an anchor listed twice"));
        }
        ids.into_iter().map(|id| s.required(id, "anchor").map(str::to_string)).collect()
    }

    /// Glossary entries: (term, chunk id).
    pub fn glossary(&self) -> Result<Vec<(String, u32)>> {
        let s = self.strings()?;
        let mut out = Vec::new();
        for b in self.section(SectionId::Glossary).chunks_exact(8) {
            let term = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let chunk = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
            if chunk >= self.meta.chunks {
                return Err(Error::corrupt("glossary", format!("chunk {chunk} out of range")));
            }
            out.push((s.required(term, "glossary term")?.to_string(), chunk));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::search::bm25;

    /// [`super::Index::citation_ids`] gives the citation that [`super::Index::chunk_record`] and
    /// [`super::Index::source_head`] give, and the same first error on crafted string and record
    /// sections (checksums made valid), whatever strings earlier hits checked.
    #[test]
    fn citation_ids_cite_as_the_records_do() {
        use crate::corpus::{Chunk, Citation, Location, Source};
        use crate::index::format::SectionId;
        use crate::index::{Index, IndexBuilder, forge};
        let mut b = IndexBuilder::new("t", crate::text::AnalyzerSettings::default());
        let source = |id: &str, date: Option<&str>| Source {
            id: id.into(),
            title: format!("{id} 제목"),
            kind: "manual".into(),
            date: date.map(str::to_string),
            link: date.map(|_| format!("https://example.org/{id}")),
            links: vec!["a.pdf".into(), "b.hwp".into()],
        };
        let s0 = b.add_source(source("가", Some("2026-01"))).unwrap();
        let s1 = b.add_source(source("나", None)).unwrap();
        for (i, s) in [s0, s1, s0, s0, s1].into_iter().enumerate() {
            let location = Location {
                page: (i % 2 == 0).then_some(i as u32 + 3),
                article: (i == 1).then(|| "제3조".to_string()),
                section: None,
                heading: Some(if i < 3 { "개요".into() } else { format!("절 {i}") }),
            };
            b.add_chunk(Chunk { source: s, text: format!("본문 {i}"), location, ..Default::default() })
                .unwrap();
        }
        let good = b.build().unwrap();
        fn cite<'s>(
            idx: &'s Index<&[u8]>,
            c: u32,
            seen: &mut Vec<(u32, &'s str)>,
        ) -> Result<Citation, String> {
            let ids = idx.citation_ids(c, seen).map_err(|e| e.to_string())?;
            let text = |id: u32| seen.iter().find(|e| e.0 == id).map(|e| e.1.to_string());
            let [sid, title, article, section, heading, date, link] = ids.strings;
            Ok(Citation {
                source: text(sid).unwrap(),
                title: text(title).unwrap(),
                page: ids.page,
                article: text(article),
                section: text(section),
                heading: text(heading),
                date: text(date),
                link: text(link),
            })
        }
        let want = |idx: &Index<&[u8]>, c: u32| -> Result<Citation, String> {
            let chunk = idx.chunk_record(c).map_err(|e| e.to_string())?;
            let source = idx.source_head(chunk.source).map_err(|e| e.to_string())?;
            Ok(Citation::new(source, chunk.location))
        };
        let mut g = crate::test_bits::Bits(7);
        let mut refused = 0;
        for round in 0..400 {
            let bytes = if round == 0 {
                good.clone()
            } else {
                let id = [SectionId::Strings, SectionId::Sources, SectionId::Chunks][round % 3] as u32;
                forge::mutate_section(&good, id, |data| {
                    for _ in 0..1 + g.next() % 3 {
                        if !data.is_empty() {
                            let at = (g.next() % data.len() as u64) as usize;
                            data[at] = [0xFF, 0x00, 0x80, g.next() as u8][(g.next() % 4) as usize];
                        }
                    }
                })
                .unwrap()
            };
            let Ok(idx) = Index::open(&bytes[..]) else { continue };
            let mut seen = Vec::new();
            for c in [0, 1, 2, 3, 4, 0, 9] {
                let (got, want) = (cite(&idx, c, &mut seen), want(&idx, c));
                refused += got.is_err() as usize;
                assert_eq!(got, want, "round {round} chunk {c}");
            }
        }
        assert!(refused > 50, "{refused}");
    }

    #[test]
    fn refused_sections_are_named_in_one_line() {
        use tantivy_fst::raw::Error as Raw;
        let fst = |e| super::fst_error(&tantivy_fst::Error::Fst(e));
        assert_eq!(fst(Raw::Format), "not a well-formed FST (a node, transition or output out of range)");
        assert_eq!(fst(Raw::Version { expected: 2, got: 7 }), "FST format version 7, this build reads 2");
        assert_eq!(fst(Raw::WrongType { expected: 0, got: 3 }), "FST type 3, want 0");
        // What the readers really meet: bytes that end early, and a section that is no FST.
        let short = bincode::deserialize::<(u64, String)>(&[1, 0, 0]).unwrap_err();
        assert_eq!(super::bincode_error(&short), "the bytes end early");
        let bad_utf8 = bincode::deserialize::<String>(&[1, 0, 0, 0, 0, 0, 0, 0, 0xff]).unwrap_err();
        assert_eq!(super::bincode_error(&bad_utf8), "a string is not UTF-8");
        let custom = bincode::ErrorKind::Custom("invalid length 3".into());
        assert_eq!(super::bincode_error(&custom), "invalid length 3");
        let junk = tantivy_fst::raw::Fst::new(vec![0u8; 40]).err().unwrap();
        assert!(!super::fst_error(&junk).contains('\n'));
    }

    /// Format v4 computes the idf at lookup with [`bm25::idf`] (`libm`'s logarithm: the same bits
    /// natively and in wasm); v1–v3 writers stored `f64::ln` of the platform (glibc here). Both give
    /// the same f32 bits for every document frequency of every collection up to 3,000 chunks and of
    /// a few larger ones, so v3 and v4 files of one collection score alike.
    #[test]
    fn idf_has_the_bits_that_older_versions_stored() {
        let stored_idf = |n: u32, df: u32| {
            let (n, df) = (n as f64, df as f64);
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
        };
        let sizes = (1..=3000).chain([2126, 20_183, 65_535, 100_000]);
        for n in sizes {
            for df in 0..=n {
                assert_eq!(bm25::idf(n, df).to_bits(), stored_idf(n, df).to_bits(), "n {n}, df {df}");
            }
        }
    }
}
