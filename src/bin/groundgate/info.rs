//! `groundgate info`: what an index holds, and whether its checksums hold.

use std::path::Path;

use groundgate::Index;
use groundgate::index::format;

pub fn run(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let index = Index::open(&bytes[..])?;
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
    println!("sections:");
    for s in format::read_table(&bytes)? {
        println!("  {:<10} {:>9} bytes  crc {:08x}", s.id.name(), s.len, s.crc);
    }
    index.verify()?;
    println!("checksums     ok ({} bytes)", bytes.len());
    Ok(())
}
