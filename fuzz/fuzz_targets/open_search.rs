//! Fuzz the index decoders: any bytes, with every checksum recomputed (`index::forge`: CRC32 is
//! public, so a crafted file passes them) → open → verify → search → read every hit, chunk, source,
//! anchor, glossary entry and the gate model → ask → the pull tools. Nothing may panic; errors are fine. Seed corpus:
//! real indexes (./build.sh fuzz copies them in). Without the checksum fix, nearly every mutation
//! stops at the CRC check and the decoders behind it are never reached.
#![no_main]

use std::sync::Arc;

use groundgate::index::forge::fix_checksums;
use groundgate::{AskOptions, Engine, Index, InstanceOptions, search, tools};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    fix_checksums(&mut bytes);
    let Ok(index) = Index::open(bytes.as_slice()) else { return };
    let _ = index.verify();
    // Twice: the first pass decodes common terms' postings and keeps them (`Index::tf_parts`),
    // the second scores from the kept lists; each hit read as the wasm hit objects read it too
    // (`citation_ids`, `chunk_text_utf16`).
    for _ in 0..2 {
        for q in ["대한민국 주권", "국회의원 선거", "python list", "제1조", "tuple immutable"] {
            if let Ok(hits) = search::search(&index, q, 10) {
                for h in hits {
                    let _ = index.chunk(h.chunk);
                }
            }
            if let Ok(scored) = search::search_scored(&index, q, 10) {
                let (mut seen, mut units) = (Vec::new(), Vec::new());
                for s in scored {
                    let _ = index.citation_ids(s.chunk, &mut seen);
                    let _ = index.chunk_text_utf16(s.chunk, &mut units);
                }
            }
        }
    }
    let _ = index.anchors();
    let _ = index.glossary();
    let _ = index.gate_model();
    for c in 0..index.chunk_count().min(64) {
        let _ = index.chunk(c);
        let _ = index.chunk_key(c);
    }
    for s in 0..index.source_count().min(64) {
        let _ = index.source(s);
    }
    let Ok(mut engine) = Engine::new(Default::default()) else { return };
    if engine.add_instance("f", Arc::<[u8]>::from(bytes.as_slice()), InstanceOptions::default()).is_ok() {
        let _ = engine.ask("대한민국의 주권은 누구에게 있나요?", &AskOptions::default());
        let _ = engine.ask("#f Why are tuples immutable in python?", &AskOptions::default());
        // The pull tools read what `ask` does not: every source's locations, its links, whole
        // locations with their neighbours, and an exact phrase over the candidates' texts.
        let calls = [
            ("search", json!({"query": "대한민국 주권 python", "k": 50, "detailed": true})),
            ("grep", json!({"text": "대한민국", "limit": 50, "detailed": true})),
            ("grep", json!({"text": "the", "limit": 50})),
            ("sources", json!({})),
            ("read", json!({"instance": "f", "source": "constitution", "article": 1, "around": 5})),
            ("read", json!({"instance": "f", "source": "constitution", "page": 1})),
            ("read", json!({"instance": "f", "source": "constitution", "chunk": 3, "around": 5})),
            ("links", json!({"instance": "f", "source": "constitution"})),
        ];
        for (name, args) in calls {
            let _ = tools::call_json(&engine, name, &args);
        }
        // Every listed source opened whole, and its links.
        if let Ok(s) = tools::call(&engine, "sources", &json!({})) {
            for src in s["sources"].as_array().into_iter().flatten().take(16) {
                let id = &src["source"];
                let _ = tools::call_json(&engine, "read", &json!({"instance": "f", "source": id}));
                let _ = tools::call_json(&engine, "links", &json!({"instance": "f", "source": id}));
            }
        }
    }
});
