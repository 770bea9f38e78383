//! Publisher text made plain: entities decoded, markup removed, whitespace collapsed.

/// Plain text of a title or summary that may hold markup or entities.
pub fn plain(s: &str) -> String {
    let text = if s.contains('<') || s.contains('&') {
        let frag = scraper::Html::parse_fragment(s);
        frag.root_element().text().collect::<String>()
    } else {
        s.to_string()
    };
    collapse(&text)
}

/// Collapses runs of whitespace (Unicode, including no-break spaces) to one space and trims.
pub fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(|c: char| c.is_whitespace()) {
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_entities_become_plain_text() {
        assert_eq!(
            plain("<b>Budget</b> &amp; the\n  <i>cess</i>"),
            "Budget & the cess"
        );
        assert_eq!(plain("ಮಳೆ&nbsp;ಎಚ್ಚರಿಕೆ"), "ಮಳೆ ಎಚ್ಚರಿಕೆ");
        assert_eq!(plain("  plain   words "), "plain words");
        assert_eq!(plain("a &lt;script&gt; tag"), "a <script> tag");
    }
}
