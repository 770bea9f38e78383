//! Publisher text made plain: entities decoded, markup removed, whitespace collapsed.

/// Plain text of a title or summary that may hold markup or entities.
pub fn plain(s: &str) -> String {
    if s.contains('<') || s.contains('&') {
        html_to_text(s)
    } else {
        collapse(s)
    }
}

/// Plain text of an HTML fragment: tags removed (and the contents of `script` and `style`),
/// entities decoded, whitespace collapsed.
///
/// A fragment the simple scan cannot read and that nests deeper than [`MAX_HTML_DEPTH`] is
/// read only up to where it does: the HTML parser's work grows with depth times elements, so
/// the rest of such a fragment is never handed to it.
pub fn html_to_text(s: &str) -> String {
    if let Some(text) = simple_html_to_text(s) {
        return text;
    }
    let s = match html_nesting_cut(s, MAX_HTML_DEPTH) {
        Some(cut) => &s[..cut.at],
        None => s,
    };
    full_html_to_text(s)
}

/// The same by the full HTML parser alone.
fn full_html_to_text(s: &str) -> String {
    let frag = scraper::Html::parse_fragment(s);
    let mut out = String::with_capacity(s.len());
    for node in frag.root_element().descendants() {
        if let scraper::Node::Text(t) = node.value() {
            let hidden = node.ancestors().any(|a| {
                a.value()
                    .as_element()
                    .is_some_and(|e| matches!(e.name(), "script" | "style" | "template"))
            });
            if !hidden {
                out.push_str(t);
            }
        }
    }
    collapse(&out)
}

/// Tags the simple scan reads: ones an HTML parser in a fragment's body keeps its text in
/// place around, in document order.
const SIMPLE_TAGS: &[&str] = &[
    "a",
    "abbr",
    "address",
    "article",
    "aside",
    "b",
    "bdi",
    "bdo",
    "big",
    "blockquote",
    "br",
    "center",
    "cite",
    "code",
    "dd",
    "del",
    "dfn",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "font",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "main",
    "mark",
    "nav",
    "ol",
    "p",
    "q",
    "s",
    "samp",
    "section",
    "small",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "time",
    "tt",
    "u",
    "ul",
    "var",
    "wbr",
];

/// The simple scan's reading of a fragment (`None` where it hands the fragment to the
/// parser) and the full parser's, for the agreement test and the differential fuzzer.
#[doc(hidden)]
pub fn html_to_text_both_ways(s: &str) -> (Option<String>, String) {
    (simple_html_to_text(s), full_html_to_text(s))
}

/// The same for the fragments feeds mostly carry (plain tags and the common entities), without
/// building a DOM: `None` for anything an HTML parser would read differently from a simple
/// scan (comments, `script`/`style`, an unclosed tag, an entity outside the short list), which
/// then goes to the full parser. Five times faster on a newsroom feed's summaries.
fn simple_html_to_text(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    let mut plain_from = 0;
    while i < b.len() {
        match b[i] {
            b'<' => {
                let next = *b.get(i + 1)?;
                if next == b'!' || next == b'?' {
                    return None; // comments, doctypes, processing instructions
                }
                if !(next.is_ascii_alphabetic() || next == b'/') {
                    i += 1;
                    continue; // a lone '<' is text
                }
                let end = i + s[i..].find('>')?;
                let name: String = s[i + 1..end]
                    .trim_start_matches('/')
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
                    .to_ascii_lowercase();
                // Only tags whose text a parser keeps in place, in order (not tables, which
                // move stray text before them, nor `pre`, which drops a newline, nor
                // `script` and its kin, whose contents are not text).
                if !SIMPLE_TAGS.contains(&name.as_str()) || s[i..end].contains(['"', '\'']) {
                    return None;
                }
                out.push_str(&s[plain_from..i]);
                i = end + 1;
                plain_from = i;
            }
            b'&' => {
                let rest = &s[i + 1..];
                let Some(first) = rest.bytes().next() else {
                    i += 1;
                    continue;
                };
                if !(first.is_ascii_alphanumeric() || first == b'#') {
                    i += 1;
                    continue; // "AT& T": text
                }
                let semi = rest.find(';').filter(|n| *n <= 10)?;
                let name = &rest[..semi];
                let ch: char = match name {
                    "amp" => '&',
                    "lt" => '<',
                    "gt" => '>',
                    "quot" => '"',
                    "apos" => '\'',
                    "nbsp" => '\u{a0}',
                    "ndash" => '\u{2013}',
                    "mdash" => '\u{2014}',
                    "lsquo" => '\u{2018}',
                    "rsquo" => '\u{2019}',
                    "ldquo" => '\u{201c}',
                    "rdquo" => '\u{201d}',
                    "hellip" => '\u{2026}',
                    // Digits only: `from_str_radix` and `parse` would also take a sign.
                    n if (n.starts_with("#x") || n.starts_with("#X"))
                        && n.len() > 2
                        && n[2..].bytes().all(|c| c.is_ascii_hexdigit()) =>
                    {
                        u32::from_str_radix(&n[2..], 16)
                            .ok()
                            .and_then(char::from_u32)
                            .filter(|c| *c != '\0' && !('\u{80}'..='\u{9f}').contains(c))?
                    }
                    n if n.starts_with('#')
                        && n.len() > 1
                        && n[1..].bytes().all(|c| c.is_ascii_digit()) =>
                    {
                        n[1..]
                            .parse::<u32>()
                            .ok()
                            .and_then(char::from_u32)
                            .filter(|c| *c != '\0' && !('\u{80}'..='\u{9f}').contains(c))?
                    }
                    _ => return None,
                };
                out.push_str(&s[plain_from..i]);
                out.push(ch);
                i += 1 + semi + 1;
                plain_from = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&s[plain_from..]);
    Some(collapse(&out))
}

/// Deepest nesting of HTML elements read (home pages and fragments alike). Real pages nest a
/// few dozen deep; the HTML parser's checks of its open elements make its work grow with
/// depth times elements, so a body nested deeper is read only up to where it goes past this.
pub const MAX_HTML_DEPTH: usize = 256;

/// Where an HTML text first nests deeper than `limit` elements.
#[derive(Debug, Clone, PartialEq)]
pub struct NestingCut {
    /// Byte offset of the start tag that goes past the limit.
    pub at: usize,
    /// Line of that tag (1-based).
    pub line: usize,
    /// Whether an `<a>` was open there (a headline link cut short).
    pub in_link: bool,
}

/// Elements that never have content.
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
    "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
];
/// Elements whose content is text up to their end tag.
const RAW_TEXT: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
];
/// Start tags that close an open `<p>`.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
];

/// A cheap scan of HTML for how deep its elements nest, the way a browser would count them
/// (void elements, end tags a list item or a table cell may omit, `script`/`style` contents
/// and comments are taken into account); `None` when it never goes deeper than `limit`.
/// Linear in the text, and it holds at most `limit` names.
pub fn html_nesting_cut(s: &str, limit: usize) -> Option<NestingCut> {
    let b = s.as_bytes();
    let mut stack: Vec<&str> = Vec::new();
    let mut foreign = 0usize; // open <svg> and <math>, where `/>` closes an element
    let mut i = 0;
    let tag_end = |from: usize| -> Option<usize> {
        // The '>' that ends a tag, skipping quoted attribute values.
        let mut j = from;
        while j < b.len() {
            match b[j] {
                b'>' => return Some(j),
                b'=' => {
                    j += 1;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if let Some(&q @ (b'"' | b'\'')) = b.get(j) {
                        j += 1 + b[j + 1..].iter().position(|c| *c == q)?;
                    }
                    j += 1;
                }
                _ => j += 1,
            }
        }
        None
    };
    while let Some(off) = memchr_lt(&b[i..]) {
        let at = i + off;
        let rest = &b[at + 1..];
        if rest.starts_with(b"!--") {
            let end = find(&b[at + 4..], b"-->")?;
            i = at + 4 + end + 3;
            continue;
        }
        match rest.first() {
            Some(b'!' | b'?') => {
                i = at + 1 + rest.iter().position(|c| *c == b'>')? + 1;
            }
            Some(b'/') => {
                let name = tag_name(&s[at + 2..]);
                if !name.is_empty()
                    && let Some(pos) = stack.iter().rposition(|n| n.eq_ignore_ascii_case(name))
                {
                    let closed = stack[pos..].iter().filter(|n| is_foreign_root(n)).count();
                    foreign = foreign.saturating_sub(closed);
                    stack.truncate(pos);
                }
                i = tag_end(at + 2)? + 1;
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let name = tag_name(&s[at + 1..]);
                let end = tag_end(at + 1 + name.len())?;
                i = end + 1;
                let lower = name.to_ascii_lowercase();
                let lower = lower.as_str();
                if lower == "plaintext" {
                    return None; // the rest is text
                }
                if VOID.contains(&lower) || (foreign > 0 && b[end - 1] == b'/') {
                    continue;
                }
                if RAW_TEXT.contains(&lower) {
                    // Its text runs to its end tag (or to the end of the text).
                    let mut j = i;
                    loop {
                        let k = find(&b[j..], b"</")?;
                        let n = tag_name(&s[j + k + 2..]);
                        if n.eq_ignore_ascii_case(lower) {
                            i = j + k;
                            break;
                        }
                        j += k + 2;
                    }
                    continue;
                }
                // End tags a page may leave out.
                let top_in = |stack: &Vec<&str>, names: &[&str]| {
                    stack
                        .last()
                        .is_some_and(|t| names.iter().any(|n| t.eq_ignore_ascii_case(n)))
                };
                let implied: &[&[&str]] = match lower {
                    "li" => &[&["li"]],
                    "dd" | "dt" => &[&["dd", "dt"]],
                    "option" | "optgroup" => &[&["option"]],
                    "td" | "th" => &[&["td", "th"]],
                    "tr" => &[&["td", "th"], &["tr"]],
                    "thead" | "tbody" | "tfoot" => {
                        &[&["td", "th"], &["tr"], &["thead", "tbody", "tfoot"]]
                    }
                    "a" => &[&["a"]],
                    _ => &[],
                };
                for names in implied {
                    if top_in(&stack, names) {
                        stack.pop();
                    }
                }
                if CLOSES_P.contains(&lower) && top_in(&stack, &["p"]) {
                    stack.pop();
                }
                if is_foreign_root(lower) {
                    foreign += 1;
                }
                stack.push(name);
                if stack.len() > limit {
                    return Some(NestingCut {
                        at,
                        line: b[..at].iter().filter(|c| **c == b'\n').count() + 1,
                        in_link: stack.iter().any(|n| n.eq_ignore_ascii_case("a")),
                    });
                }
            }
            _ => i = at + 1, // a lone '<' is text
        }
    }
    None
}

fn is_foreign_root(name: &str) -> bool {
    name.eq_ignore_ascii_case("svg") || name.eq_ignore_ascii_case("math")
}

/// The tag name at the start of `s` (up to whitespace, `/` or `>`).
fn tag_name(s: &str) -> &str {
    let end = s
        .bytes()
        .position(|c| c.is_ascii_whitespace() || c == b'/' || c == b'>')
        .unwrap_or(s.len());
    // The name ends at an ASCII byte, so this is a character boundary.
    &s[..end]
}

fn memchr_lt(b: &[u8]) -> Option<usize> {
    b.iter().position(|c| *c == b'<')
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Plain text of an element that RSS leaves undeclared: HTML if it looks like HTML (a known
/// tag closed, or a character or known named reference, and no unknown tags), else the text
/// as written. Feed readers have guessed this way since RSS 0.91; "5 < 6" stays as written.
pub fn guess(s: &str) -> String {
    if looks_like_html(s) {
        html_to_text(s)
    } else {
        collapse(s)
    }
}

/// HTML elements whose presence makes undeclared text HTML.
const HTML_ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "big",
    "blockquote",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "command",
    "datagrid",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "event-source",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "i",
    "img",
    "input",
    "ins",
    "kbd",
    "keygen",
    "label",
    "legend",
    "li",
    "m",
    "map",
    "mark",
    "menu",
    "meter",
    "multicol",
    "nav",
    "nextid",
    "noscript",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "pre",
    "progress",
    "q",
    "s",
    "samp",
    "section",
    "select",
    "small",
    "sound",
    "source",
    "spacer",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "tr",
    "tt",
    "u",
    "ul",
    "var",
    "video",
];

/// Whether undeclared text is HTML (see [`guess`]).
pub fn looks_like_html(s: &str) -> bool {
    let b = s.as_bytes();
    let mut has_close = false;
    let mut has_ref = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'<' => {
                let close = b.get(i + 1) == Some(&b'/');
                let start = i + 1 + usize::from(close);
                let end = b[start..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(b.len(), |p| start + p);
                if end > start {
                    let tag = s[start..end].to_ascii_lowercase();
                    if !HTML_ELEMENTS.contains(&tag.as_str()) {
                        return false;
                    }
                    if close && b.get(end) == Some(&b'>') {
                        has_close = true;
                    }
                }
                i = end.max(i + 1);
            }
            b'&' => {
                let start = i + 1;
                let num = b.get(start) == Some(&b'#');
                let s0 = start + usize::from(num);
                let end = b[s0..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(b.len(), |p| s0 + p);
                if end > s0 && b.get(end) == Some(&b';') {
                    if !num && html_entity_known(&s[s0..end]).is_none() {
                        return false;
                    }
                    has_ref = true;
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    has_close || has_ref
}

fn html_entity_known(name: &str) -> Option<()> {
    let src = format!("&{name};");
    let frag = scraper::Html::parse_fragment(&src);
    let text: String = frag.root_element().text().collect();
    (text != src && !text.contains(';')).then_some(())
}

/// Collapses runs of whitespace (Unicode, including no-break spaces, tabs and newlines) to
/// one space and trims, and removes what must never reach a headline, category or author
/// (see [`hidden`]). Every text the readers keep passes through here.
pub fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(|c: char| c.is_whitespace()) {
        if word.is_empty() {
            continue;
        }
        let clean;
        let word = if word.chars().any(hidden) {
            clean = word.chars().filter(|c| !hidden(*c)).collect::<String>();
            if clean.is_empty() {
                continue;
            }
            clean.as_str()
        } else {
            word
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Characters removed from publisher text: controls (C0, DEL and C1; the whitespace ones
/// become spaces first), and invisible format characters that reorder or hide text — the
/// bidirectional marks, embeddings, overrides and isolates, word joiners and invisible
/// operators, the byte-order mark, interlinear annotation marks and tag characters. ZWJ and
/// ZWNJ (U+200D, U+200C) stay: Kannada and other Indic scripts need them.
pub fn hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e007f}')
}

/// Cuts text to at most `max` characters, at a character boundary, marking the cut with `…`.
pub fn cap(mut s: String, max: usize) -> String {
    if let Some((i, _)) = s.char_indices().nth(max) {
        s.truncate(i);
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simple_scan_agrees_with_the_html_parser() {
        let cases = [
            "<p>A summary with <b>markup</b> &amp; more</p>",
            "Budget &amp; the cess &#8211; and &#x2019;s",
            "5 &lt; 6 and a lone < sign",
            "AT&T and R&D",
            "<a href=x>link</a> text<br/>next",
            "ಮಳೆ&nbsp;ಎಚ್ಚರಿಕೆ <i>ಕರಾವಳಿ</i>",
            "<script>alert(1)</script>kept",
            "<!-- hidden -->shown",
            "&unknownentity; stays",
            "&amp",
            "<a title=\"x>y\">t</a>",
            "&#128; &#0; &#x80;",
            // Controls: the parser drops a NUL, the scan once kept it.
            "a\0b <b>c\0</b>",
            "\0",
            "bell\x07 esc\x1b[31m del\x7f nel\u{85} c1\u{9b}x",
            "tab\tand\nnewline\r\nand\x0bvt\x0cff",
            "&#27;[2J &#7; &#1;x &#13;",
            "\u{202e}evil\u{202c} \u{2067}isolate\u{2069} \u{200f}rlm \u{feff}bom",
            "ಕ\u{200d}ನ\u{200c}ನಡ",
            // Text a parser moves or drops, and references with a sign.
            "<table><tr><td>a</td></tr>b</table>",
            "<pre>\nx</pre>",
            "<svg>a\0b</svg>",
            "&#x+41; &#+65; &#x; &#;",
        ];
        let mut scanned = 0;
        for c in cases {
            let (scan, full) = html_to_text_both_ways(c);
            assert_eq!(html_to_text(c), full, "{c:?}");
            if let Some(scan) = scan {
                assert_eq!(scan, full, "{c:?}");
                scanned += 1;
            }
            assert!(!full.contains(|ch: char| hidden(ch)), "{c:?}: {full:?}");
        }
        assert!(scanned >= 12, "the scan reads the common cases ({scanned})");
    }

    #[test]
    fn nesting_is_counted_as_a_browser_would() {
        let cut = |s: &str| html_nesting_cut(s, 3).map(|c| c.at);
        assert_eq!(cut("<div><div><div>x</div></div></div>"), None);
        assert_eq!(cut("<div><div><div><b>x"), Some(15));
        assert_eq!(cut("<div>\n<p>\n<div>\n<span>"), None, "a div closes the p");
        assert_eq!(cut("<ul><li>a<li>b<li>c<li>d</ul>"), None);
        assert_eq!(cut("<table><tr><td>a<td>b<tr><td>c<tbody><tr>"), None);
        assert_eq!(cut("<dl><dt>a<dd>b<dt>c<dd>d"), None);
        assert_eq!(cut("<a href=1>a<a href=2>b<a href=3>c<a href=4>d"), None);
        assert_eq!(cut("<br><img src=x><hr><input><p>"), None);
        assert_eq!(cut("<svg><path/><path/><path/><path/></svg>"), None);
        assert_eq!(
            cut("<div/><div/><div/><div/>"),
            Some(18),
            "`/>` opens an HTML div"
        );
        assert_eq!(
            cut("<script><div><div><div><div></script><style>"),
            None,
            "script is text"
        );
        assert_eq!(cut("<!-- <div><div><div><div> --><div>"), None);
        assert_eq!(cut("<div title='>'><div a=\"<b>\"><div><i>"), Some(33));
        let c = html_nesting_cut("<a href=x>\n<b>\n<i>\n<u>", 3).unwrap();
        assert_eq!((c.line, c.in_link), (4, true));
    }

    #[test]
    fn markup_and_entities_become_plain_text() {
        assert_eq!(
            plain("<b>Budget</b> &amp; the\n  <i>cess</i>"),
            "Budget & the cess"
        );
        assert_eq!(plain("ಮಳೆ&nbsp;ಎಚ್ಚರಿಕೆ"), "ಮಳೆ ಎಚ್ಚರಿಕೆ");
        assert_eq!(plain("  plain   words "), "plain words");
        assert_eq!(plain("a &lt;script&gt; tag"), "a <script> tag");
        assert_eq!(html_to_text("x<script>alert(1)</script>y"), "xy");
    }

    #[test]
    fn undeclared_text_is_html_only_when_it_looks_like_it() {
        assert_eq!(guess("5 < 6 and 7 > 3"), "5 < 6 and 7 > 3");
        assert_eq!(guess("<b>Bold</b> news"), "Bold news");
        assert_eq!(guess("AT&amp;T"), "AT&T");
        assert_eq!(
            guess("Use <thing> here</thing>"),
            "Use <thing> here</thing>"
        );
        assert_eq!(guess("R&D"), "R&D");
    }

    #[test]
    fn cap_cuts_at_characters() {
        assert_eq!(cap("ಕನ್ನಡ".into(), 2), "ಕನ…");
        assert_eq!(cap("abc".into(), 5), "abc");
    }
}
