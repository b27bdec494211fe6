//! `groundgate build`: manifest → index file, with a progress bar and a closing summary.

use std::path::Path;
use std::time::Instant;

use groundgate::deliver::log::count;
use groundgate::ingest::manifest::Manifest;
use groundgate::ingest::{Existing, check_out};
use indicatif::{ProgressBar, ProgressStyle};

pub fn run(
    manifest: &Path,
    out: &Path,
    quiet: bool,
    text: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    let started = Instant::now();
    // The index is written beside `out` and renamed over it: only over nothing, an empty file or
    // an index (`ingest::check_out`), before the build's work.
    let head;
    let existing = match std::fs::symlink_metadata(out) {
        Err(_) => Existing::Missing,
        Ok(m) if m.is_file() => {
            head = read_head(out).map_err(|e| crate::files::io_error(out, &e))?;
            Existing::File(&head)
        }
        Ok(_) => Existing::Other,
    };
    check_out(&out.display().to_string(), existing)?;
    let mut m = Manifest::load(manifest)?;
    match text {
        Some("plain") => m.text = groundgate::index::TextCodec::Plain,
        Some("lz4") => m.text = groundgate::index::TextCodec::Lz4,
        Some("hangul") => m.text = groundgate::index::TextCodec::Hangul,
        Some(_) => m.text = groundgate::index::TextCodec::Ranked,
        None => {}
    }
    let base = manifest.parent().unwrap_or(Path::new("."));
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(0) };
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} files {elapsed}")?
            .progress_chars("=> "),
    );
    bar.set_prefix(format!("building {}", m.name));
    let (bytes, stats) = m.build(base, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| crate::files::io_error(dir, &e))?;
    }
    let tmp = out.with_extension("ggi.tmp");
    std::fs::write(&tmp, &bytes).map_err(|e| crate::files::io_error(&tmp, &e))?;
    std::fs::rename(&tmp, out).map_err(|e| crate::files::io_error(out, &e))?;
    crate::out(format_args!(
        "{}: {}, {}, {} terms, {} bytes ({:.2} × the {} bytes of text), {:.2} s → {}\n",
        m.name,
        count(stats.documents, "document"),
        count(stats.chunks, "chunk"),
        stats.terms,
        stats.bytes,
        stats.bytes as f64 / stats.text_bytes.max(1) as f64,
        stats.text_bytes,
        started.elapsed().as_secs_f64(),
        out.display()
    ))?;
    if let Some(note) = stats.note(&m.name) {
        eprintln!("{note}");
    }
    Ok(())
}

/// The first eight bytes of the file at `path` (fewer when it is shorter).
fn read_head(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(8);
    std::fs::File::open(path)?.take(8).read_to_end(&mut head)?;
    Ok(head)
}
