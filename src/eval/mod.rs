//! Evaluation tools: threshold calibration ([`calibrate`]) and router evaluation ([`route`]). Anchor audit and budget curves come
//! next (ARCHITECTURE.md, "Where this is going").

pub mod calibrate;
pub mod route;
