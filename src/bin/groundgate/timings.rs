//! `--timings`: per-call wall time of the engine calls in a `--jsonl` run (parsing and writing
//! lines excluded, serializing the result included — what a host pays per call), summarised on
//! stderr as one JSON line `{"timings": {"calls", "median_us", "p95_us", "total_ms"}}`.

use std::time::{Duration, Instant};

/// Durations of the calls made so far.
#[derive(Default)]
pub struct Timings {
    calls: Vec<Duration>,
}

impl Timings {
    /// Time `f` and record it.
    pub fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let out = f();
        self.calls.push(t.elapsed());
        out
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let mut us: Vec<f64> = self.calls.iter().map(|d| d.as_secs_f64() * 1e6).collect();
        us.sort_by(f64::total_cmp);
        let pick = |q: f64| us.get(((us.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
        serde_json::json!({ "timings": {
            "calls": us.len(),
            "median_us": (pick(0.5) * 10.0).round() / 10.0,
            "p95_us": (pick(0.95) * 10.0).round() / 10.0,
            "total_ms": (us.iter().sum::<f64>() / 100.0).round() / 10.0,
        }})
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_calls_and_orders_quantiles() {
        let mut t = Timings::default();
        for n in 0..20u64 {
            t.time(|| std::thread::sleep(Duration::from_micros(n * 50)));
        }
        let v: serde_json::Value = serde_json::from_str(&t.summary()).unwrap();
        assert_eq!(v["timings"]["calls"], 20);
        assert!(v["timings"]["p95_us"].as_f64().unwrap() >= v["timings"]["median_us"].as_f64().unwrap());
        assert!(v["timings"]["median_us"].as_f64().unwrap() >= 450.0);
    }
}
