//! Gates: what the gate knows about a prompt and an instance ([`features`]), the two judges over
//! those features — is the prompt about the instance, is the evidence enough to push — ([`model`],
//! their record in [`judge`]), anchor words as one of the features ([`anchor`]), the prompt's
//! phrasing as another ([`phrasing`]), the country names the documents never mention ([`names`]),
//! the question/sentence router ([`router`]), the small talk no index is asked about
//! ([`small_talk`]), and the prompt's script against the evidence's ([`script`]).

pub mod anchor;
pub mod background;
pub mod features;
pub mod judge;
pub mod model;
pub mod names;
pub mod phrasing;
pub mod router;
pub mod script;
pub mod small_talk;

pub use anchor::AnchorSet;
pub use features::Features;
pub use judge::Judgement;
pub use model::{GateModel, Logistic};
pub use phrasing::Phrasing;
