//! Fuzz the index decoders: any bytes, with every checksum recomputed (`index::forge`: CRC32 is
//! public, so a crafted file passes them) → open → verify → search → read every hit, chunk, source,
//! anchor, glossary entry and the gate model → ask → the pull tools. Nothing may panic; errors are fine. Seed corpus:
//! real indexes (./build.sh fuzz copies them in). Without the checksum fix, nearly every mutation
//! stops at the CRC check and the decoders behind it are never reached.
#![no_main]

use std::sync::Arc;

use groundgate::index::forge::fix_checksums;
use groundgate::{AskOptions, Engine, Index, InstanceOptions, search};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    fix_checksums(&mut bytes);
    let Ok(index) = Index::open(bytes.as_slice()) else { return };
    let _ = index.verify();
    for q in ["대한민국 주권", "국회의원 선거", "python list", "제1조", "tuple immutable"] {
        if let Ok(hits) = search::search(&index, q, 10) {
            for h in hits {
                let _ = index.chunk(h.chunk);
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
        for (name, args) in [
            ("search", serde_json::json!({"query": "대한민국 주권 python", "k": 50, "detailed": true})),
            ("grep", serde_json::json!({"text": "대한민국", "limit": 50, "detailed": true})),
            ("grep", serde_json::json!({"text": "the", "limit": 50})),
            ("sources", serde_json::json!({})),
            (
                "read",
                serde_json::json!({"instance": "f", "source": "constitution", "article": 1, "around": 5}),
            ),
            ("read", serde_json::json!({"instance": "f", "source": "constitution", "page": 1})),
            ("read", serde_json::json!({"instance": "f", "source": "constitution", "chunk": 3, "around": 5})),
            ("links", serde_json::json!({"instance": "f", "source": "constitution"})),
        ] {
            let _ = groundgate::tools::call_json(&engine, name, &args);
        }
        if let Ok(s) = groundgate::tools::call(&engine, "sources", &serde_json::json!({})) {
            // Open every listed source whole and at its first heading.
            for src in s["sources"].as_array().into_iter().flatten().take(16) {
                let id = src["source"].clone();
                let _ = groundgate::tools::call_json(
                    &engine,
                    "read",
                    &serde_json::json!({"instance": "f", "source": id}),
                );
                let _ = groundgate::tools::call_json(
                    &engine,
                    "links",
                    &serde_json::json!({"instance": "f", "source": id}),
                );
            }
        }
    }
});
