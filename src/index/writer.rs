//! Builds index bytes from sources, chunks, anchors and a glossary.
//!
//! Deterministic: the same calls in the same order give the same bytes (terms are sorted, strings
//! are numbered in order of first use, no clocks or hash orders reach the output).

use std::collections::BTreeMap;

use super::format::{self, SectionId};
use super::records::{self, NO_PAGE};
use super::strings::StringsWriter;
use super::{IndexMeta, postings};
use crate::corpus::{Chunk, Source};
use crate::error::{Error, Result};
use crate::search::Bm25Params;
use crate::text::{Analyzer, AnalyzerSettings};

/// Terms longer than this many bytes are not indexed (base64 blobs, URLs run together).
pub const MAX_TERM_BYTES: usize = 96;

/// Collects an instance's content and writes its index.
pub struct IndexBuilder {
    meta: IndexMeta,
    sources: Vec<Source>,
    /// The sources' ids, for the check of a new one (a linear scan made many sources quadratic).
    source_ids: std::collections::BTreeSet<String>,
    chunks: Vec<Chunk>,
    /// Per chunk: text indexed with it but not stored (titles, keywords); empty for most.
    context: Vec<String>,
    anchors: Vec<String>,
    glossary: Vec<(String, u32)>,
    codec: super::text::TextCodec,
    background: Option<BTreeMap<String, u8>>,
    names: Option<Vec<crate::gate::names::Name>>,
    /// Per source (by id), its weight in the search ranking; sources past the end weigh 1.
    weights: Vec<f32>,
    prompt_language: Option<String>,
}

impl IndexBuilder {
    /// A builder for instance `name` with these analyzer settings and default BM25 parameters.
    pub fn new(name: &str, analyzer: AnalyzerSettings) -> Self {
        IndexBuilder {
            meta: IndexMeta {
                name: name.to_string(),
                title: name.to_string(),
                description: String::new(),
                analyzer,
                bm25: Bm25Params::default(),
                sufficiency: crate::search::DEFAULT_SUFFICIENCY,
                chunks: 0,
                sources: 0,
                total_terms: 0,
                generator: concat!("groundgate ", env!("CARGO_PKG_VERSION")).to_string(),
                content_crc: 0,
            },
            sources: Vec::new(),
            source_ids: Default::default(),
            chunks: Vec::new(),
            context: Vec::new(),
            anchors: Vec::new(),
            glossary: Vec::new(),
            codec: Default::default(),
            background: None,
            names: None,
            weights: Vec::new(),
            prompt_language: None,
        }
    }

    /// How to store the chunk text (default: LZ4 blocks).
    pub fn text_codec(&mut self, codec: super::text::TextCodec) -> &mut Self {
        self.codec = codec;
        self
    }

    /// Store how common each term is in general text (section `background`, read by the gate's
    /// specificity feature): `levels` maps terms to [`background`](crate::gate::background)
    /// levels; terms it lacks get 0 (not in the general word lists).
    pub fn background(&mut self, levels: BTreeMap<String, u8>) -> &mut Self {
        self.background = Some(levels);
        self
    }

    /// Store which of `names` (countries, programming languages) the documents never mention, of
    /// the kinds they do not talk about (section `names`: [`names`](crate::gate::names), a rule
    /// above the gate's judges), and of a kind they are about, its own name and its unmentioned
    /// names (section `guarded_names`).
    pub fn outside_names(&mut self, names: Vec<crate::gate::names::Name>) -> &mut Self {
        self.names = Some(names);
        self
    }

    /// Store the language the documents' readers write their prompts in (section
    /// `prompt_language`: [`script`](crate::gate::script), a rule above the gate's judges).
    /// Errors: a language the gate cannot tell ([`LANGUAGES`](crate::gate::script::LANGUAGES)).
    pub fn prompt_language(&mut self, language: &str) -> Result<&mut Self> {
        if !crate::gate::script::LANGUAGES.contains(&language) {
            return Err(Error::invalid(
                "prompt_language",
                format!("{language:?}; the gate can tell only {:?}", crate::gate::script::LANGUAGES),
            ));
        }
        self.prompt_language = Some(language.to_string());
        Ok(self)
    }

    /// Set the title and description.
    pub fn describe(&mut self, title: &str, description: &str) -> &mut Self {
        self.meta.title = title.to_string();
        self.meta.description = description.to_string();
        self
    }

    /// Set the BM25 parameters (clamped to their documented ranges).
    pub fn bm25(&mut self, params: Bm25Params) -> &mut Self {
        self.meta.bm25 = params.clamped();
        self
    }

    /// Set the sufficiency threshold (minimum top score).
    pub fn sufficiency(&mut self, threshold: f32) -> &mut Self {
        self.meta.sufficiency = threshold;
        self
    }

    /// Add a source; returns its id. A title longer than [`MAX_LABEL_CHARS`] is cut to it.
    pub fn add_source(&mut self, mut source: Source) -> Result<u32> {
        crate::corpus::clip_label(&mut source.title);
        if !self.source_ids.insert(source.id.clone()) {
            return Err(Error::input(&source.id, "source id used twice in one index"));
        }
        self.sources.push(source);
        Ok(self.sources.len() as u32 - 1)
    }

    /// Weigh the chunks of an added source by `weight` in the search ranking (default 1; section
    /// `weights`: [`weights`](super::weights)). Errors: an unknown source, a weight not above 0
    /// and at most [`MAX_WEIGHT`](super::weights::MAX_WEIGHT).
    pub fn source_weight(&mut self, source: u32, weight: f32) -> Result<&mut Self> {
        let Some(id) = self.sources.get(source as usize).map(|s| s.id.clone()) else {
            return Err(Error::invalid("source", format!("source {source} not added")));
        };
        if !super::weights::allowed(weight) {
            return Err(Error::invalid(
                "source_weights",
                format!(
                    "{id}: weight {weight}; use a number above 0 and at most {}",
                    super::weights::MAX_WEIGHT
                ),
            ));
        }
        if self.weights.len() <= source as usize {
            self.weights.resize(source as usize + 1, 1.0);
        }
        self.weights[source as usize] = weight;
        Ok(self)
    }

    /// Add a chunk of an already added source; returns its id.
    pub fn add_chunk(&mut self, chunk: Chunk) -> Result<u32> {
        self.add_chunk_with_context(chunk, String::new())
    }

    /// Add a chunk with `context`: text indexed with the chunk (its terms count for it in search)
    /// but not stored as its text — a page title or the page's keywords repeated into each chunk.
    /// Its section, heading and article labels longer than [`MAX_LABEL_CHARS`] are cut to it.
    pub fn add_chunk_with_context(&mut self, mut chunk: Chunk, context: String) -> Result<u32> {
        if chunk.source as usize >= self.sources.len() {
            return Err(Error::invalid("chunk.source", format!("source {} not added", chunk.source)));
        }
        if chunk.location.page == Some(NO_PAGE) {
            let id = &self.sources[chunk.source as usize].id;
            return Err(Error::input(id, format!("page {NO_PAGE} is past the last page an index can cite")));
        }
        chunk.location.clip_labels();
        self.chunks.push(chunk);
        self.context.push(context);
        Ok(self.chunks.len() as u32 - 1)
    }

    /// Add an anchor word (matched through the analyzer at ask time).
    pub fn add_anchor(&mut self, word: &str) {
        let w = word.trim();
        if !w.is_empty() && !self.anchors.iter().any(|a| a == w) {
            self.anchors.push(w.to_string());
        }
    }

    /// Record that chunk `chunk` defines glossary term `term`.
    pub fn add_glossary_term(&mut self, term: &str, chunk: u32) {
        self.glossary.push((term.to_string(), chunk));
    }

    /// Number of chunks so far.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Number of sources so far.
    pub fn source_count(&self) -> usize {
        self.sources.len()
    }

    /// The text that is indexed for a chunk: its heading (when the text does not already start
    /// with it), its text, and its context (see [`add_chunk_with_context`](Self::add_chunk_with_context)).
    pub fn indexed_text(chunk: &Chunk, context: &str) -> String {
        let mut out = match &chunk.location.heading {
            Some(h) if !chunk.text.starts_with(crate::corpus::uncut_label(h)) => {
                format!("{h}\n{}", chunk.text)
            }
            _ => chunk.text.clone(),
        };
        if !context.is_empty() {
            out.push('\n');
            out.push_str(context);
        }
        out
    }

    /// Write the index bytes.
    pub fn build(mut self) -> Result<Vec<u8>> {
        if self.chunks.len() >= u32::MAX as usize / 2 {
            return Err(Error::invalid("chunks", "too many chunks for one index"));
        }
        let analyzer = Analyzer::new(self.meta.analyzer);
        let mut inverted: BTreeMap<String, (Vec<u32>, Vec<u32>)> = BTreeMap::new();
        let mut doc_lens = Vec::with_capacity(self.chunks.len() * 2);
        let mut total: u64 = 0;
        let mut crc = super::crc::Crc32::new();
        let mut names = self.names.as_deref().map(crate::gate::names::Outside::new);
        for (id, chunk) in self.chunks.iter().enumerate() {
            crc.update(chunk.text.as_bytes());
            let context = self.context.get(id).map_or("", String::as_str);
            let text = Self::indexed_text(chunk, context);
            if let Some(n) = names.as_mut() {
                n.see(&text);
            }
            let terms = analyzer.terms(&text);
            total += terms.len() as u64;
            doc_lens.extend_from_slice(&(terms.len().min(u16::MAX as usize) as u16).to_le_bytes());
            let mut tf: BTreeMap<String, u32> = BTreeMap::new();
            for t in terms.into_iter().filter(|t| t.len() <= MAX_TERM_BYTES) {
                *tf.entry(t).or_default() += 1;
            }
            for (t, n) in tf {
                let e = inverted.entry(t).or_default();
                e.0.push(id as u32);
                e.1.push(n);
            }
        }
        let mut fst = tantivy_fst::MapBuilder::memory();
        let mut term_info = Vec::with_capacity(inverted.len() * 8);
        let background: Option<Vec<u8>> = self
            .background
            .as_ref()
            .map(|levels| inverted.keys().map(|t| levels.get(t).copied().unwrap_or(0)).collect());
        let names = names.map(crate::gate::names::Outside::finish);
        let mut post = Vec::new();
        for (ord, (term, (docs, tfs))) in inverted.iter().enumerate() {
            fst.insert(term.as_bytes(), ord as u64)
                .map_err(|e| Error::input(term.as_str(), format!("term dictionary: {e}")))?;
            records::push(&mut term_info, &[post.len() as u32, docs.len() as u32]);
            postings::encode(docs, tfs, &mut post);
        }
        let fst = fst.into_inner().map_err(|e| Error::input("terms", e.to_string()))?;

        let mut strings = StringsWriter::default();
        let mut chunk_recs = Vec::with_capacity(self.chunks.len() * records::CHUNK_LEN);
        let mut text = Vec::new();
        let mut starts = Vec::with_capacity(self.chunks.len());
        let table = (self.codec == super::text::TextCodec::Ranked)
            .then(|| super::ranked::Ranked::of_texts(self.chunks.iter().map(|c| c.text.as_str())));
        let coder = table.as_ref().map(super::ranked::Ranked::coder);
        let mut coded = Vec::new();
        for c in &self.chunks {
            starts.push(text.len() as u32);
            let stored = match &coder {
                Some(coder) => {
                    coded.clear();
                    coder.code(&c.text, &mut coded);
                    std::borrow::Cow::Borrowed(coded.as_slice())
                }
                None => super::text::store(&c.text, self.codec),
            };
            let loc = &c.location;
            records::push(
                &mut chunk_recs,
                &[
                    text.len() as u32,
                    stored.len() as u32,
                    c.source,
                    loc.page.unwrap_or(NO_PAGE),
                    strings.intern_opt(loc.article.as_deref()),
                    strings.intern_opt(loc.section.as_deref()),
                    strings.intern_opt(loc.heading.as_deref()),
                    c.start,
                    c.end,
                ],
            );
            text.extend_from_slice(&stored);
        }
        let mut source_recs = Vec::with_capacity(self.sources.len() * records::SOURCE_LEN);
        for s in &self.sources {
            let links = s.links.join("\n");
            records::push(
                &mut source_recs,
                &[
                    strings.intern(&s.id),
                    strings.intern(&s.title),
                    strings.intern(&s.kind),
                    strings.intern_opt(s.date.as_deref()),
                    strings.intern_opt(s.link.as_deref()),
                    strings.intern_opt((!links.is_empty()).then_some(links.as_str())),
                ],
            );
        }
        let mut anchors = Vec::new();
        for a in &self.anchors {
            records::push(&mut anchors, &[strings.intern(a)]);
        }
        self.glossary.sort();
        let mut glossary = Vec::new();
        for (term, chunk) in &self.glossary {
            records::push(&mut glossary, &[strings.intern(term), *chunk]);
        }

        self.meta.chunks = self.chunks.len() as u32;
        self.meta.sources = self.sources.len() as u32;
        self.meta.total_terms = total;
        self.meta.content_crc = crc.finalize();
        let meta = bincode::serialize(&self.meta).map_err(|e| Error::input("meta", e.to_string()))?;
        let mut sections = vec![
            (SectionId::Meta, meta),
            (SectionId::Terms, fst),
            (SectionId::TermInfo, records::planes(&term_info, 2)),
            (SectionId::Postings, post),
            (SectionId::DocLens, doc_lens),
            (SectionId::Chunks, records::planes(&chunk_recs, 9)),
            (
                SectionId::Text,
                match &table {
                    Some(table) => super::text::encode_ranked(&text, table),
                    None => super::text::encode(&text, &starts, self.codec)?,
                },
            ),
            (SectionId::Strings, strings.finish()),
            (SectionId::Sources, records::planes(&source_recs, 6)),
            (SectionId::Anchors, anchors),
            (SectionId::Glossary, glossary),
        ];
        if let Some(b) = background {
            sections.push((SectionId::Background, b));
        }
        if let Some(n) = names {
            sections.push((SectionId::Names, crate::gate::names::encode(&n.outside)));
            if !n.own.is_empty() {
                sections
                    .push((SectionId::GuardedNames, crate::gate::names::encode_guarded(&n.own, &n.guarded)));
            }
        }
        let per_chunk: Vec<f32> =
            self.chunks.iter().map(|c| self.weights.get(c.source as usize).copied().unwrap_or(1.0)).collect();
        if let Some(w) =
            super::weights::encode(&per_chunk).map_err(|e| Error::invalid("source_weights", e))?
        {
            sections.push((SectionId::Weights, w));
        }
        if let Some(l) = &self.prompt_language {
            sections.push((SectionId::PromptLanguage, l.as_bytes().to_vec()));
        }
        Ok(format::write(&sections))
    }
}
