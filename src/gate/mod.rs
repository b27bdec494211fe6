//! Gates: whether to open an instance's index for a prompt ([`anchor`]), and whether what it found
//! is good enough to inject ([`sufficiency`]).

pub mod anchor;
pub mod router;
pub mod sufficiency;

pub use anchor::AnchorSet;
pub use sufficiency::Sufficiency;
