//! Evaluation tools: labelled prompts and their gold locations ([`gold`]), threshold calibration
//! ([`calibrate`]) and router evaluation ([`route`]).

pub mod calibrate;
pub mod gold;
pub mod route;
