//! Evaluation tools: labelled prompts and their gold locations ([`gold`]), fitting and measuring
//! the gate's judges ([`calibrate`]), the anchor and relevance audit ([`audit`]), the budget curve
//! ([`curve`]) and router evaluation ([`route`]).

pub mod audit;
pub mod calibrate;
pub mod curve;
pub mod gold;
pub mod route;
