//! `groundgate info`: what an index holds, and whether its checksums hold.

use std::path::Path;

use groundgate::Index;
use groundgate::corpus::Citation;
use groundgate::index::format;

pub fn run(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = crate::index_file::read(path)?;
    let index = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let m = index.meta();
    crate::out(format_args!("{} — {}\n", m.name, m.title))?;
    if !m.description.is_empty() {
        crate::out(format_args!("{}\n", m.description))?;
    }
    crate::out(format_args!("generator     {}\n", m.generator))?;
    crate::out(format_args!("chunks        {}\n", m.chunks))?;
    crate::out(format_args!("sources       {}\n", m.sources))?;
    crate::out(format_args!("terms         {}\n", index.term_count()))?;
    crate::out(format_args!("avg length    {:.1} terms\n", m.avg_len()))?;
    crate::out(format_args!("analyzer      {:?}\n", m.analyzer))?;
    crate::out(format_args!("bm25          k1 {} b {}\n", m.bm25.k1, m.bm25.b))?;
    crate::out(format_args!("sufficiency   {}\n", m.sufficiency))?;
    crate::out(format_args!("anchors       {}\n", index.anchors()?.len()))?;
    crate::out(format_args!("glossary      {}\n", index.glossary()?.len()))?;
    if index.korean_prompts() {
        crate::out(format_args!(
            "prompts       in Korean (a prompt without Hangul is not about these documents)\n"
        ))?;
    }
    crate::out(format_args!("sections:\n"))?;
    for s in format::read_table(&bytes)? {
        crate::out(format_args!("  {:<10} {:>9} bytes  crc {:08x}\n", s.id.name(), s.len, s.crc))?;
    }
    index.verify()?;
    crate::out(format_args!("checksums     ok ({} bytes)\n", bytes.len()))?;
    Ok(())
}

/// `groundgate chunks`: every chunk with its citation, one JSON line each.
pub fn chunks(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;

    #[derive(serde::Serialize)]
    struct Line<'a> {
        chunk: u32,
        /// The stable reference a host hands back for RRF fusion (`instance:chunk:crc32`).
        #[serde(rename = "ref")]
        reference: groundgate::rerank::ChunkRef,
        #[serde(flatten)]
        cite: &'a Citation,
        text: &'a str,
    }

    let bytes = crate::index_file::read(path)?;
    let index = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for id in 0..index.chunk_count() {
        let chunk = index.chunk(id)?;
        let cite = Citation::new(index.source_head(chunk.source)?, chunk.location);
        let reference = groundgate::rerank::ChunkRef::of(&index.meta().name, id, &chunk.text);
        writeln!(
            out,
            "{}",
            serde_json::to_string(&Line { chunk: id, reference, cite: &cite, text: &chunk.text })?
        )?;
    }
    out.flush()?;
    Ok(())
}
