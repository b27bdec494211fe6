//! Evaluation tools: labelled prompts and their gold locations ([`gold`]), fitting and measuring
//! the gate's judges ([`calibrate`]), the anchor and relevance audit ([`audit`]), the budget curve
//! ([`curve`]) and router evaluation ([`route`]); SVG charts of them (`chart`, feature `chart`, on
//! with the CLI).

pub mod audit;
pub mod calibrate;
#[cfg(feature = "chart")]
pub mod chart;
pub mod curve;
pub mod gold;
pub mod route;
