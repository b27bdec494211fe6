//! The output cap: a tool result carries at most [`MAX_OUTPUT_CHARS`] characters of text; what is
//! cut says so (`…[truncated]` at the end of a cut text, `truncated: true` on the result).

/// Most characters of text (the sum of every `text` field) in one tool result.
pub const MAX_OUTPUT_CHARS: usize = 8_000;

/// What ends a cut text.
pub const MARK: &str = "…[truncated]";

/// Most entries of a list (articles, headings) per source in `sources`.
pub const MAX_LIST: usize = 50;

/// A character budget shared by the texts of one result.
#[derive(Debug, Clone)]
pub struct Budget {
    left: usize,
    /// Whether anything was cut or dropped.
    pub truncated: bool,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(MAX_OUTPUT_CHARS)
    }
}

impl Budget {
    /// A budget of `chars` characters.
    pub fn new(chars: usize) -> Self {
        Budget { left: chars, truncated: false }
    }

    /// Whether anything is left for another item.
    pub fn exhausted(&self) -> bool {
        self.left == 0
    }

    /// Take `text`, cut to what is left (ending in [`MARK`] when cut). `None` when nothing is left
    /// (the item should be dropped; the budget is then marked truncated).
    pub fn take(&mut self, text: String) -> Option<String> {
        if self.left == 0 {
            self.truncated = true;
            return None;
        }
        let n = text.chars().count();
        if n <= self.left {
            self.left -= n;
            return Some(text);
        }
        self.truncated = true;
        let mark = MARK.chars().count();
        if self.left <= mark {
            // No room for any text before the mark: drop the item.
            self.left = 0;
            return None;
        }
        let keep = self.left - mark;
        self.left = 0;
        let mut cut: String = text.chars().take(keep).collect();
        cut.push_str(MARK);
        Some(cut)
    }

    /// Note that items were dropped for a reason other than text (e.g. a list cap).
    pub fn mark(&mut self) {
        self.truncated = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_with_a_mark_then_drops() {
        let mut b = Budget::new(30);
        assert_eq!(b.take("0123456789".into()).as_deref(), Some("0123456789"));
        assert!(!b.truncated);
        let cut = b.take("abcdefghijklmnopqrstuvwxyz".into()).unwrap();
        assert_eq!(cut.chars().count(), 20);
        assert_eq!(Budget::new(5).take("abcdefghijklmnopqrstuvwxyz".into()), None);
        assert!(cut.ends_with(MARK) && cut.starts_with('a'));
        assert!(b.truncated && b.exhausted());
        assert_eq!(b.take("x".into()), None);
    }
}
