//! Fuzz the index decoder and search: any bytes → open → verify → search → read every hit.
//! Nothing may panic; errors are fine. Seed corpus: a real index (./build.sh fuzz copies one in).
#![no_main]

use groundgate::{Index, search};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(index) = Index::open(data) else { return };
    let _ = index.verify();
    for q in ["대한민국 주권", "국회의원 선거", "python list", "제1조"] {
        let _ = search::search(&index, q, 10);
    }
    let _ = index.anchors();
    let _ = index.glossary();
    for c in 0..index.chunk_count().min(64) {
        let _ = index.chunk(c);
    }
    for s in 0..index.source_count().min(64) {
        let _ = index.source(s);
    }
});
