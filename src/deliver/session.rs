//! Session dedup: do not inject the same chunk twice in one session within a time window.
//!
//! A sister report found 22.4 % of context re-sent within 30 minutes. The engine records every
//! injected chunk per session id; a chunk injected less than `window_ms` ago is skipped and its
//! budget goes to the next-best chunk. The documents repeat themselves (a manual quotes the same
//! decree on two pages; help pages share their "related topics" lines), so another chunk can hold
//! a line the session has already been shown: a chunk shown counts as seen whole, and its long
//! lines ([`long_line`]) are left out of a later hit's text ([`without_seen_lines`]); a hit with
//! nothing left is skipped like a shown chunk. A session keeps those lines as hashes
//! ([`line_hash`]), recorded with their chunks; a stored state holds only the chunks, and the
//! engine hashes their lines again when it reads one back. Memory is bounded: entries older than
//! the window are dropped on every write, and at most [`MAX_SESSIONS`] sessions holding
//! [`MAX_ENTRIES`] entries together are kept (the least recently used goes first).
//!
//! A host that runs one process per prompt (a Claude Code hook) keeps this state on disk between
//! processes: [`Sessions::export`] gives one session's shown chunks as a [`SessionState`] and
//! [`Sessions::import`] merges it back, dropping what expired. On disk and across the wasm boundary
//! the state is a few lines of text ([`SessionState::to_text`], [`SessionState::parse`]): a header
//! line `groundgate-session 1`, then one `INSTANCE CHUNK AT_MS` line per shown chunk. A hand-written
//! line format instead of serde keeps the binding at a few hundred bytes of wasm (serde derives for
//! these two types cost 4.4 KB gzipped, measured).

use crate::{Error, Result};

/// Whether something shown at `t` still counts at `now`: less than `window_ms` apart, either way.
/// A time ahead of `now` by the window or more (a host that passed microseconds as `now_ms` once)
/// is as stale as one behind: it would otherwise hide that session's evidence for ever.
pub(crate) fn fresh(now: u64, t: u64, window_ms: u64) -> bool {
    now.abs_diff(t) < window_ms
}

/// Most sessions remembered at once.
pub const MAX_SESSIONS: usize = 10_000;

/// Most entries (shown chunks and shown lines) all sessions hold together: ~60 MB at most.
/// [`MAX_SESSIONS`] × [`MAX_SHOWN`] alone would allow 10⁸, more than a wasm32 memory holds, and a
/// host importing states within both limits would run it out of memory.
pub const MAX_ENTRIES: usize = 1_000_000;

#[derive(Debug, Clone, Default)]
struct Session {
    last_ms: u64,
    /// (instance, chunk, time injected), sorted by instance then chunk, each pair once: binary
    /// search in sorted vectors instead of `BTreeMap`s keeps the B-tree code out of the browser
    /// wasm (7.7 KB gzipped; docs/peer-bench.md, web size).
    injected: Vec<(String, u32, u64)>,
    /// (hash of a long line of a shown chunk, time shown), sorted by hash, each hash once.
    lines: Vec<(u64, u64)>,
}

impl Session {
    /// Entries held: shown chunks and shown lines.
    fn size(&self) -> usize {
        self.injected.len() + self.lines.len()
    }

    /// Where (instance, chunk) is, or would go.
    fn find(&self, instance: &str, chunk: u32) -> std::result::Result<usize, usize> {
        self.injected.binary_search_by(|(i, c, _)| (i.as_str(), *c).cmp(&(instance, chunk)))
    }

    /// Merge `(hash, time)` pairs: each hash once, with its latest time; expired ones dropped.
    fn add_lines(&mut self, lines: impl Iterator<Item = (u64, u64)>, now_ms: u64, window_ms: u64) {
        self.lines.retain(|&(_, t)| fresh(now_ms, t, window_ms));
        for (h, t) in lines.filter(|&(_, t)| fresh(now_ms, t, window_ms)) {
            match self.lines.binary_search_by(|&(x, _)| x.cmp(&h)) {
                Ok(at) => self.lines[at].1 = self.lines[at].1.max(t),
                Err(at) => self.lines.insert(at, (h, t)),
            }
        }
    }

    /// The time stored for (instance, chunk), inserted as `at_ms` when it has none.
    fn time(&mut self, instance: &str, chunk: u32, at_ms: u64) -> &mut u64 {
        let at = self.find(instance, chunk).unwrap_or_else(|at| {
            self.injected.insert(at, (instance.to_string(), chunk, at_ms));
            at
        });
        &mut self.injected[at].2
    }
}

/// Most shown chunks one [`SessionState`] may carry.
pub const MAX_SHOWN: usize = 10_000;

/// One chunk a session was shown, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Instance name.
    pub instance: String,
    /// Chunk id within the instance's index.
    pub chunk: u32,
    /// When it was injected (ms, the engine's clock).
    pub at_ms: u64,
}

/// What one session has been shown, in a form a host can store between processes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionState {
    /// Session id (1–256 bytes).
    pub session: String,
    /// Shown chunks, ordered by instance then chunk.
    pub shown: Vec<Shown>,
}

/// First line of a stored session state.
pub const HEADER: &str = "groundgate-session 1";

impl SessionState {
    /// The stored form: [`HEADER`], then `INSTANCE CHUNK AT_MS` lines (the session id is the
    /// host's key and is not stored).
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(HEADER.len() + 1 + self.shown.len() * 24);
        out.push_str(HEADER);
        out.push('\n');
        for s in &self.shown {
            out.push_str(&format!("{} {} {}\n", s.instance, s.chunk, s.at_ms));
        }
        out
    }

    /// Read the stored form for `session`; a wrong header, a malformed line or more than
    /// [`MAX_SHOWN`] lines is an `invalid_argument` error naming the line.
    pub fn parse(session: &str, text: &str) -> Result<SessionState> {
        check_id(session)?;
        let mut lines = text.lines();
        if lines.next().map(str::trim_end) != Some(HEADER) {
            return Err(Error::invalid("session state", format!("must start with {HEADER:?}")));
        }
        let mut shown = Vec::new();
        for (n, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            if shown.len() == MAX_SHOWN {
                return Err(Error::invalid("session state", format!("more than {MAX_SHOWN} shown chunks")));
            }
            let bad = || {
                Error::invalid(
                    "session state",
                    format!("line {}: {line:?}; want INSTANCE CHUNK AT_MS", n + 2),
                )
            };
            let mut f = line.split_ascii_whitespace();
            let (Some(instance), Some(chunk), Some(at), None) = (f.next(), f.next(), f.next(), f.next())
            else {
                return Err(bad());
            };
            let chunk = chunk.parse().map_err(|_| bad())?;
            let at_ms = at.parse().map_err(|_| bad())?;
            shown.push(Shown { instance: instance.to_string(), chunk, at_ms });
        }
        Ok(SessionState { session: session.to_string(), shown })
    }
}

/// A line this long or longer (in characters, trimmed) is not shown twice in a session; shorter
/// ones — table cells, list numbers, a heading's words — are the structure of a passage, and stay.
pub const MIN_LINE_CHARS: usize = 20;

/// `piece` trimmed, when it is a line a session does not show twice: at least [`MIN_LINE_CHARS`]
/// long.
pub fn long_line(piece: &str) -> Option<&str> {
    let line = piece.trim();
    (line.chars().count() >= MIN_LINE_CHARS).then_some(line)
}

/// A line's 64-bit FNV-1a hash: what a session keeps of the lines it was shown (the same on
/// every platform).
pub fn line_hash(line: &str) -> u64 {
    line.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The hashes ([`line_hash`]) of `text`'s long lines ([`long_line`]).
pub fn line_hashes(text: &str) -> impl Iterator<Item = u64> + '_ {
    text.split('\n').filter_map(long_line).map(line_hash)
}

/// `text` without its long lines whose hash `seen` (sorted) holds; the text itself, byte for byte,
/// when none is there.
pub fn without_seen_lines(text: &str, seen: &[u64]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut kept = false;
    for piece in text.split('\n') {
        if long_line(piece).is_none_or(|line| seen.binary_search(&line_hash(line)).is_err()) {
            if kept {
                out.push('\n');
            }
            out.push_str(piece);
            kept = true;
        }
    }
    out
}

/// Check a session id: 1–256 bytes.
pub fn check_id(session: &str) -> Result<()> {
    if session.is_empty() || session.len() > 256 {
        return Err(Error::invalid("session", "must be 1–256 bytes"));
    }
    Ok(())
}

/// What each session has been shown.
#[derive(Debug, Clone, Default)]
pub struct Sessions {
    /// (id, session), sorted by id, each id once.
    sessions: Vec<(String, Session)>,
    /// Entries all sessions hold together ([`Session::size`] summed), kept as they change.
    total: usize,
}

impl Sessions {
    /// Was `chunk` of `instance` injected in `session` less than `window_ms` from `now_ms` ([`fresh`])?
    pub fn seen(&self, session: &str, instance: &str, chunk: u32, now_ms: u64, window_ms: u64) -> bool {
        self.get(session)
            .and_then(|s| s.find(instance, chunk).ok().map(|at| s.injected[at].2))
            .is_some_and(|t| fresh(now_ms, t, window_ms))
    }

    /// Record that these chunks, whose long lines hash to `lines`, were injected in `session` at
    /// `now_ms`.
    pub fn record(
        &mut self,
        session: &str,
        items: &[(String, u32)],
        lines: &[u64],
        now_ms: u64,
        window_ms: u64,
    ) {
        let before = self.get(session).map_or(0, Session::size);
        let s = self.entry(session);
        s.last_ms = now_ms;
        s.injected.retain(|&(_, _, t)| fresh(now_ms, t, window_ms));
        for (instance, chunk) in items {
            *s.time(instance, *chunk, now_ms) = now_ms;
        }
        s.add_lines(lines.iter().map(|&h| (h, now_ms)), now_ms, window_ms);
        self.bound(session, before);
    }

    /// Add the hashes of lines `session` was shown, each with its time (a state read back: the
    /// lines of its chunks); later times win, expired ones are dropped.
    pub fn add_lines(&mut self, session: &str, lines: &[(u64, u64)], now_ms: u64, window_ms: u64) {
        if let Ok(at) = self.find(session) {
            let before = self.sessions[at].1.size();
            self.sessions[at].1.add_lines(lines.iter().copied(), now_ms, window_ms);
            self.bound(session, before);
        }
    }

    /// The hashes of the long lines `session` was shown less than `window_ms` from `now_ms`,
    /// sorted (empty for an unknown session).
    pub fn lines(&self, session: &str, now_ms: u64, window_ms: u64) -> Vec<u64> {
        self.get(session).map_or_else(Vec::new, |s| {
            s.lines.iter().filter(|&&(_, t)| fresh(now_ms, t, window_ms)).map(|&(h, _)| h).collect()
        })
    }

    /// One session's chunks shown less than `window_ms` from `now_ms` (empty for an unknown session).
    pub fn export(&self, session: &str, now_ms: u64, window_ms: u64) -> Result<SessionState> {
        check_id(session)?;
        let shown = self
            .get(session)
            .map(|s| {
                s.injected
                    .iter()
                    .filter(|&&(_, _, t)| fresh(now_ms, t, window_ms))
                    .map(|(instance, chunk, at_ms)| Shown {
                        instance: instance.clone(),
                        chunk: *chunk,
                        at_ms: *at_ms,
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(SessionState { session: session.to_string(), shown })
    }

    /// Merge a stored session state: each chunk keeps its latest time, entries not [`fresh`] are
    /// dropped (a window or more before or after `now_ms`), times a little after `now_ms` count as
    /// `now_ms`. Returns how many entries the session holds afterwards. Checks everything before
    /// changing anything.
    pub fn import(&mut self, state: &SessionState, now_ms: u64, window_ms: u64) -> Result<usize> {
        check_id(&state.session)?;
        if state.shown.len() > MAX_SHOWN {
            return Err(Error::invalid(
                "session state",
                format!("{} shown chunks, at most {MAX_SHOWN}", state.shown.len()),
            ));
        }
        if let Some(bad) = state.shown.iter().find(|s| s.instance.is_empty() || s.instance.len() > 64) {
            return Err(Error::invalid(
                "session state",
                format!("instance name {:?}: 1–64 bytes", bad.instance),
            ));
        }
        let live: Vec<&Shown> = state.shown.iter().filter(|s| fresh(now_ms, s.at_ms, window_ms)).collect();
        if live.is_empty() && self.get(&state.session).is_none() {
            return Ok(0);
        }
        let before = self.get(&state.session).map_or(0, Session::size);
        let s = self.entry(&state.session);
        s.injected.retain(|&(_, _, t)| fresh(now_ms, t, window_ms));
        for item in live {
            let at = item.at_ms.min(now_ms);
            let t = s.time(&item.instance, item.chunk, at);
            *t = (*t).max(at);
            s.last_ms = s.last_ms.max(at);
        }
        let kept = s.injected.len();
        self.bound(&state.session, before);
        Ok(kept)
    }

    /// After session `keep` changed from `before` entries: count it, then drop the least recently
    /// used sessions (the first in id order among equal times) other than `keep` while there are
    /// more than [`MAX_SESSIONS`] or they hold more than [`MAX_ENTRIES`] entries together.
    fn bound(&mut self, keep: &str, before: usize) {
        self.total = self.total - before + self.get(keep).map_or(0, Session::size);
        debug_assert_eq!(self.total, self.sessions.iter().map(|(_, s)| s.size()).sum::<usize>());
        while self.total > MAX_ENTRIES || self.sessions.len() > MAX_SESSIONS {
            let Some(oldest) = (0..self.sessions.len())
                .filter(|&i| self.sessions[i].0 != keep)
                .min_by_key(|&i| self.sessions[i].1.last_ms)
            else {
                break;
            };
            self.total -= self.sessions.remove(oldest).1.size();
        }
    }

    fn find(&self, session: &str) -> std::result::Result<usize, usize> {
        self.sessions.binary_search_by(|(id, _)| id.as_str().cmp(session))
    }

    fn get(&self, session: &str) -> Option<&Session> {
        self.find(session).ok().map(|at| &self.sessions[at].1)
    }

    /// The session, created when new (the caller then bounds the table: [`Sessions::bound`]).
    fn entry(&mut self, session: &str) -> &mut Session {
        let at = self.find(session).unwrap_or_else(|at| {
            self.sessions.insert(at, (session.to_string(), Session::default()));
            at
        });
        &mut self.sessions[at].1
    }

    /// Forget a session.
    pub fn clear(&mut self, session: &str) {
        if let Ok(at) = self.find(session) {
            self.total -= self.sessions.remove(at).1.size();
        }
    }

    /// Forget every session's chunks of `instance` (unloaded: another index may take its name and
    /// chunk numbers). The lines stay: text a session was shown, it was shown.
    pub fn forget_instance(&mut self, instance: &str) {
        for (_, s) in &mut self.sessions {
            s.injected.retain(|(i, _, _)| i != instance);
        }
        self.total = self.sessions.iter().map(|(_, s)| s.size()).sum();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_lines_are_left_out_and_the_rest_kept_byte_for_byte() {
        let text = "제16조(연구개발과제의 평가 등) ① 법 제12조 제2항\n대분류\n  단계평가 이후의 연구개발과제 수행계획  \r\n끝";
        let long: Vec<&str> = text.split('\n').filter_map(long_line).collect();
        assert_eq!(
            long,
            ["제16조(연구개발과제의 평가 등) ① 법 제12조 제2항", "단계평가 이후의 연구개발과제 수행계획"]
        );
        assert_eq!(without_seen_lines(text, &[]), text);
        let mut seen: Vec<u64> = ["대분류", "단계평가 이후의 연구개발과제 수행계획"].map(line_hash).to_vec();
        seen.sort();
        // A short line stays even when seen; the long one goes with its line break.
        assert_eq!(
            without_seen_lines(text, &seen),
            "제16조(연구개발과제의 평가 등) ① 법 제12조 제2항\n대분류\n끝"
        );
        let mut all: Vec<u64> = line_hashes(text).collect();
        all.sort();
        assert_eq!(all.len(), 2);
        assert_eq!(line_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(line_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(without_seen_lines("  단계평가 이후의 연구개발과제 수행계획", &all), "");
        assert_eq!(without_seen_lines("단계평가 이후의 연구개발과제 수행계획\n\n끝", &all), "\n끝");
        assert_eq!(without_seen_lines("\n끝\n", &all), "\n끝\n");
    }

    #[test]
    fn shown_lines_are_kept_sorted_with_their_chunks_window() {
        let mut s = Sessions::default();
        let w = 1_000;
        s.record("a", &[("rnd".into(), 1)], &[9, 3, 9], 100, w);
        s.record("a", &[("rnd".into(), 2)], &[5, 3], 600, w);
        assert_eq!(s.lines("a", 700, w), [3, 5, 9]);
        // Line 9 was shown at 100 only, 3 again at 600.
        assert_eq!(s.lines("a", 1_100, w), [3, 5]);
        assert!(s.lines("b", 700, w).is_empty());
        s.add_lines("b", &[(1, 700)], 700, w);
        assert!(s.lines("b", 700, w).is_empty(), "an unknown session gets no lines");
        s.add_lines("a", &[(7, 650), (5, 50)], 700, w);
        assert_eq!(s.lines("a", 700, w), [3, 5, 7, 9]);
    }

    #[test]
    fn window_and_isolation() {
        let mut s = Sessions::default();
        let w = 30 * 60 * 1000;
        s.record("a", &[("rnd".into(), 5)], &[], 1_000, w);
        assert!(s.seen("a", "rnd", 5, 1_000 + w - 1, w));
        assert!(!s.seen("a", "rnd", 5, 1_000 + w, w));
        assert!(!s.seen("b", "rnd", 5, 2_000, w));
        assert!(!s.seen("a", "constitution", 5, 2_000, w));
        s.clear("a");
        assert!(!s.seen("a", "rnd", 5, 2_000, w));
    }

    #[test]
    fn export_import_round_trip() {
        let w = 1_000;
        let mut a = Sessions::default();
        a.record("s", &[("rnd".into(), 5), ("pyfaq".into(), 2)], &[], 100, w);
        a.record("s", &[("rnd".into(), 7)], &[], 600, w);
        a.record("other", &[("rnd".into(), 1)], &[], 600, w);
        let state = a.export("s", 700, w).unwrap();
        assert_eq!(state.session, "s");
        let keys: Vec<(&str, u32, u64)> =
            state.shown.iter().map(|s| (s.instance.as_str(), s.chunk, s.at_ms)).collect();
        assert_eq!(keys, [("pyfaq", 2, 100), ("rnd", 5, 100), ("rnd", 7, 600)]);
        // Expired entries are not exported.
        assert_eq!(a.export("s", 1_100, w).unwrap().shown.len(), 1);
        assert!(a.export("nobody", 700, w).unwrap().shown.is_empty());

        let mut b = Sessions::default();
        assert_eq!(b.import(&state, 700, w).unwrap(), 3);
        assert!(b.seen("s", "rnd", 5, 700, w));
        assert!(b.seen("s", "pyfaq", 2, 700, w));
        assert!(!b.seen("other", "rnd", 1, 700, w));
        // Text round trip: what a host writes to disk reads back the same.
        let text = state.to_text();
        assert_eq!(text, "groundgate-session 1\npyfaq 2 100\nrnd 5 100\nrnd 7 600\n");
        assert_eq!(SessionState::parse("s", &text).unwrap(), state);
    }

    #[test]
    fn import_merges_drops_expired_and_clamps_the_near_future() {
        let w = 1_000;
        let mut s = Sessions::default();
        s.record("s", &[("rnd".into(), 5)], &[], 900, w);
        let state = SessionState {
            session: "s".into(),
            shown: vec![
                Shown { instance: "rnd".into(), chunk: 5, at_ms: 100 },
                Shown { instance: "rnd".into(), chunk: 6, at_ms: 0 },
                Shown { instance: "rnd".into(), chunk: 8, at_ms: 1_500 },
                Shown { instance: "rnd".into(), chunk: 9, at_ms: 9_999_999 },
            ],
        };
        assert_eq!(s.import(&state, 1_000, w).unwrap(), 2);
        // The later time wins; the expired entry is dropped; one a little ahead (another
        // process's clock) counts as now; one a window or more ahead is as stale as an old one.
        assert!(s.seen("s", "rnd", 5, 1_899, w));
        assert!(!s.seen("s", "rnd", 6, 1_000, w));
        assert!(s.seen("s", "rnd", 8, 1_999, w));
        assert!(!s.seen("s", "rnd", 8, 2_000, w));
        assert!(!s.seen("s", "rnd", 9, 1_000, w));
    }

    #[test]
    fn a_time_far_ahead_does_not_hide_evidence_for_ever() {
        // `ask` with now_ms in microseconds once, then in milliseconds again.
        let w = 1_800_000;
        let mut s = Sessions::default();
        let now = 1_764_900_000_000u64;
        s.record("s", &[("rnd".into(), 5)], &[], now * 1_000, w);
        assert!(s.seen("s", "rnd", 5, now * 1_000 + 1, w), "the same clock still sees it");
        assert!(!s.seen("s", "rnd", 5, now, w), "a sane clock does not");
        assert!(!s.seen("s", "rnd", 5, now + 86_400_000, w));
    }

    #[test]
    fn import_rejects_bad_state_and_changes_nothing() {
        let mut s = Sessions::default();
        let bad_id = SessionState { session: String::new(), shown: vec![] };
        assert_eq!(s.import(&bad_id, 0, 10).unwrap_err().code(), "invalid_argument");
        let long_id = SessionState { session: "x".repeat(257), shown: vec![] };
        assert_eq!(s.import(&long_id, 0, 10).unwrap_err().code(), "invalid_argument");
        let one = Shown { instance: "rnd".into(), chunk: 1, at_ms: 0 };
        let too_many = SessionState { session: "s".into(), shown: vec![one; MAX_SHOWN + 1] };
        assert_eq!(s.import(&too_many, 0, 10).unwrap_err().code(), "invalid_argument");
        let bad_name = SessionState {
            session: "s".into(),
            shown: vec![
                Shown { instance: "rnd".into(), chunk: 1, at_ms: 0 },
                Shown { instance: String::new(), chunk: 1, at_ms: 0 },
            ],
        };
        assert_eq!(s.import(&bad_name, 0, 10).unwrap_err().code(), "invalid_argument");
        assert!(!s.seen("s", "rnd", 1, 0, 10));
        assert!(s.sessions.is_empty());
        assert_eq!(s.export("", 0, 10).unwrap_err().code(), "invalid_argument");
        // The stored form is checked line by line.
        for bad in [
            "",
            "rnd 1 2\n",
            "groundgate-session 2\n",
            "groundgate-session 1\nrnd 1\n",
            "groundgate-session 1\nrnd x 2\n",
            "groundgate-session 1\nrnd 1 2 3\n",
            "groundgate-session 1\nrnd -1 2\n",
        ] {
            assert_eq!(SessionState::parse("s", bad).unwrap_err().code(), "invalid_argument", "{bad:?}");
        }
        let many = format!("{HEADER}\n{}", "rnd 1 2\n".repeat(MAX_SHOWN + 1));
        assert!(SessionState::parse("s", &many).is_err());
        assert!(SessionState::parse("", "groundgate-session 1\n").is_err());
        assert_eq!(SessionState::parse("s", "groundgate-session 1\r\n\nrnd 1 2\r\n").unwrap().shown.len(), 1);
    }

    #[test]
    fn bounded() {
        let mut s = Sessions::default();
        for i in 0..(MAX_SESSIONS + 5) {
            s.record(&format!("s{i}"), &[("x".into(), 1)], &[], i as u64, 10);
        }
        assert_eq!(s.sessions.len(), MAX_SESSIONS);
        assert!(s.get("s0").is_none() && s.get("s5").is_some());
        // The least recently used goes, not the first or last by id.
        s.record("s7", &[("x".into(), 2)], &[], 1_000_000, 10);
        s.record("new", &[("x".into(), 1)], &[], 1_000_001, 10);
        assert!(s.get("s7").is_some() && s.get("s5").is_none() && s.get("s6").is_some());
        assert!(s.sessions.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn all_sessions_together_hold_at_most_max_entries() {
        // States within every per-session limit, imported one after another (a host restoring
        // many sessions): the least recently used go once the total would pass MAX_ENTRIES.
        let w = 1_000_000;
        let full = |id: &str, t: u64| SessionState {
            session: id.to_string(),
            shown: (0..MAX_SHOWN as u32)
                .map(|c| Shown { instance: "rnd".into(), chunk: c, at_ms: t })
                .collect(),
        };
        let mut s = Sessions::default();
        let n = MAX_ENTRIES / MAX_SHOWN + 3;
        for i in 0..n {
            assert_eq!(
                s.import(&full(&format!("s{i:03}"), 500_000 + i as u64), 600_000, w).unwrap(),
                MAX_SHOWN
            );
        }
        assert_eq!(s.total, MAX_ENTRIES);
        assert!(s.get("s000").is_none() && s.get("s002").is_none() && s.get("s003").is_some());
        assert!(s.get(&format!("s{:03}", n - 1)).is_some(), "the session just imported stays");
        // Lines count too; the session being written is never the one dropped.
        let lines: Vec<(u64, u64)> = (0..5_000).map(|h| (h, 600_000)).collect();
        s.add_lines("s050", &lines, 600_000, w);
        assert!(s.get("s050").is_some() && s.get("s003").is_none());
        assert!(s.total <= MAX_ENTRIES, "{}", s.total);
    }

    /// The sorted vectors behave as the `BTreeMap`s they replaced: a reference model with maps,
    /// driven by the same pseudo-random record / import / clear / export calls.
    #[test]
    fn same_as_maps() {
        use std::collections::BTreeMap;
        type Model = BTreeMap<String, (u64, BTreeMap<(String, u32), u64>)>;
        fn model_export(m: &Model, session: &str, now: u64, w: u64) -> Vec<Shown> {
            m.get(session)
                .map(|(_, inj)| {
                    inj.iter()
                        .filter(|&(_, &t)| fresh(now, t, w))
                        .map(|((i, c), &t)| Shown { instance: i.clone(), chunk: *c, at_ms: t })
                        .collect()
                })
                .unwrap_or_default()
        }
        let (mut s, mut m) = (Sessions::default(), Model::new());
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let w = 50;
        for now in 0..4_000u64 {
            let id = format!("s{}", next(9));
            match next(10) {
                0..=5 => {
                    let items: Vec<(String, u32)> = (0..next(4))
                        .map(|_| (["a", "b", "c"][next(3) as usize].to_string(), next(20) as u32))
                        .collect();
                    s.record(&id, &items, &[], now, w);
                    let e = m.entry(id.clone()).or_default();
                    e.0 = now;
                    e.1.retain(|_, t| fresh(now, *t, w));
                    for (i, c) in items {
                        e.1.insert((i, c), now);
                    }
                }
                6 => {
                    let from = format!("s{}", next(9));
                    let state =
                        SessionState { session: id.clone(), shown: model_export(&m, &from, now + 5, w) };
                    let got = s.import(&state, now, w).unwrap();
                    let live: Vec<&Shown> = state.shown.iter().filter(|x| fresh(now, x.at_ms, w)).collect();
                    if !live.is_empty() || m.contains_key(&id) {
                        let e = m.entry(id.clone()).or_default();
                        e.1.retain(|_, t| fresh(now, *t, w));
                        for item in live {
                            let at = item.at_ms.min(now);
                            let slot = e.1.entry((item.instance.clone(), item.chunk)).or_insert(at);
                            *slot = (*slot).max(at);
                            e.0 = e.0.max(at);
                        }
                    }
                    assert_eq!(got, m.get(&id).map_or(0, |e| e.1.len()));
                }
                7 => {
                    s.clear(&id);
                    m.remove(&id);
                }
                _ => {}
            }
            let probe = format!("s{}", next(9));
            assert_eq!(s.export(&probe, now, w).unwrap().shown, model_export(&m, &probe, now, w));
            let (i, c) = (["a", "b", "c"][next(3) as usize], next(20) as u32);
            let want = m.get(&probe).and_then(|e| e.1.get(&(i.to_string(), c))).is_some_and(|&t| now - t < w);
            assert_eq!(s.seen(&probe, i, c, now, w), want);
        }
        assert_eq!(
            s.sessions.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
            m.keys().cloned().collect::<Vec<_>>()
        );
    }
}
