//! Shared helpers: the excerpt index (built once) and the CLI binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use groundgate::ingest::manifest::Manifest;

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The index built from tests/data/excerpts.toml (built once per test run).
pub fn excerpt_index() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let m = Manifest::load(&data_dir().join("excerpts.toml")).expect("manifest");
        m.build(&data_dir(), |_, _| {}).expect("build").0
    })
}

/// Write the excerpt index to a temporary file and return its path.
pub fn excerpt_index_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("groundgate-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let p = dir.join(name);
    std::fs::write(&p, excerpt_index()).expect("write");
    p
}

/// Run the groundgate binary with `args`, feeding `stdin`.
pub fn groundgate(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_groundgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn groundgate");
    // A child may stop before it reads its input (a usage error): its output says why.
    if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

/// Run the groundgate binary with `args`, feeding raw `stdin` bytes.
pub fn groundgate_bytes(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_groundgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn groundgate");
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    // Written from a thread: the child answers while it reads, and a large input would fill both pipes.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}
