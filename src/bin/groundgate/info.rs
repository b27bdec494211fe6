//! `groundgate info`: what an index holds, and whether its checksums hold.

use std::path::Path;

use groundgate::Index;
use groundgate::corpus::Citation;
use groundgate::index::format;

pub fn run(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = crate::index_file::read(path)?;
    let index = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let m = index.meta();
    println!("{} — {}", m.name, m.title);
    if !m.description.is_empty() {
        println!("{}", m.description);
    }
    println!("generator     {}", m.generator);
    println!("chunks        {}", m.chunks);
    println!("sources       {}", m.sources);
    println!("terms         {}", index.term_count());
    println!("avg length    {:.1} terms", m.avg_len());
    println!("analyzer      {:?}", m.analyzer);
    println!("bm25          k1 {} b {}", m.bm25.k1, m.bm25.b);
    println!("sufficiency   {}", m.sufficiency);
    println!("anchors       {}", index.anchors()?.len());
    println!("glossary      {}", index.glossary()?.len());
    if index.korean_prompts() {
        println!("prompts       in Korean (a prompt without Hangul is not about these documents)");
    }
    println!("sections:");
    for s in format::read_table(&bytes)? {
        println!("  {:<10} {:>9} bytes  crc {:08x}", s.id.name(), s.len, s.crc);
    }
    index.verify()?;
    println!("checksums     ok ({} bytes)", bytes.len());
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
    Ok(())
}
