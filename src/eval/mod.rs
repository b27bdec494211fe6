//! Evaluation tools: threshold calibration ([`calibrate`]). Anchor audit and budget curves come
//! next (ARCHITECTURE.md, "Where this is going").

pub mod calibrate;
