//! Sentence splitting, shared by the chunker (cut chunks at sentences) and the budget (cut
//! evidence at sentences).

/// Split `text` into sentence-sized pieces that concatenate back to `text`.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let end_here = match c {
            '.' | '?' | '!' | '。' | '？' | '！' => it.peek().is_none_or(|&(_, n)| n.is_whitespace()),
            '\n' => it.peek().is_some_and(|&(_, n)| n == '\n'),
            _ => false,
        };
        if end_here {
            let mut end = i + c.len_utf8();
            while let Some(&(j, n)) = it.peek() {
                if n.is_whitespace() {
                    end = j + n.len_utf8();
                    it.next();
                } else {
                    break;
                }
            }
            out.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_concatenate_back() {
        let t = "첫 문장이다. 둘째 문장? 셋째!\n\n넷째 v1.2 문장";
        let s = sentences(t);
        assert_eq!(s.concat(), t);
        assert_eq!(s.len(), 4);
    }
}
