//! Delivery: character budgets and their sharing ([`budget`]), the cited `context` block
//! ([`context`]), session dedup ([`session`]), the decision log with its funnel ([`log`]) and the
//! agent's delivery rules ([`rules`]).

pub mod budget;
pub mod context;
pub mod log;
pub mod rules;
pub mod session;

pub use context::Format;
pub use log::{DecisionLog, Funnel, FunnelReport, InstanceLog, Outcome};
pub use session::{SessionState, Sessions, Shown};
