//! Index files as the CLI reads them: the path in every message, a file that does not begin as an
//! index refused from its first bytes (a 3 GB file that is no index is not read whole first), and
//! every checksum checked before the file is used (`index::format::verify`: a bit flipped in the stored
//! text would otherwise be served as evidence under a correct citation). Native verification costs
//! about a millisecond per megabyte, once per command.

use std::io::Read;
use std::path::Path;

use groundgate::index::MAGIC;

/// The bytes of the index file at `path`, or a message naming the path: it cannot be read, it does
/// not begin as an index does, or it fails verification (in the library's own words).
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let os = |e: std::io::Error| crate::files::io_error(path, &e);
    let mut file = std::fs::File::open(path).map_err(os)?;
    let mut bytes = Vec::new();
    (&mut file).take(MAGIC.len() as u64).read_to_end(&mut bytes).map_err(os)?;
    if bytes[..] != MAGIC {
        return Err(match groundgate::Index::open(&bytes[..]) {
            Err(e) => at(&e),
            Ok(_) => at(&"not a groundgate index"),
        });
    }
    file.read_to_end(&mut bytes).map_err(os)?;
    groundgate::index::format::verify(&bytes).map_err(|e| at(&e))?;
    Ok(bytes)
}
