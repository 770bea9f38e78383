//! A forgiving XML reader for publisher bodies, on quick-xml.
//!
//! Newsroom XML is often not well-formed: undeclared HTML entities (`&nbsp;`), mismatched
//! or missing end tags, stray ampersands, bodies cut off mid-element. This walks the text once
//! and reports elements (with namespaces resolved and `xml:base` applied), text and the first
//! error to a [`Handler`], carrying on past damage where it can, so everything before the
//! damage (and often after it) is read.
//!
//! Entities: the five XML ones, character references, and the fixed HTML named-entity table
//! (`&nbsp;`, `&eacute;` ...) are decoded. A DOCTYPE is skipped whole: no entity is ever
//! expanded from a DTD (an undefined `&name;` stays as those characters), so an entity bomb
//! costs nothing.

use std::collections::BTreeMap;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use url::Url;

/// A resolved element name: namespace URI (or, for an undeclared prefix, the prefix itself;
/// empty for none) and local name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub ns: String,
    pub local: String,
}

/// One attribute, its name resolved like an element's (unprefixed attributes have no ns).
#[derive(Debug, Clone)]
pub struct Attr {
    pub name: Name,
    pub value: String,
}

/// What the walker reports.
pub trait Handler {
    /// An element starts. `base` is the base URL in effect inside it (after its `xml:base`).
    fn start(&mut self, name: &Name, attrs: &[Attr], base: &Url);
    /// The element named ends (also for mismatched end tags that close it).
    fn end(&mut self, name: &Name);
    /// Character data (entities decoded, CDATA as is).
    fn text(&mut self, text: &str);
    /// Raw markup inside an element whose content the handler collects as markup (Atom
    /// `type="xhtml"`): called instead of `start`/`end` while [`Handler::raw_depth`] > 0.
    fn raw(&mut self, _markup: &str) {}
    /// Whether the handler wants the current element's children as raw markup.
    fn wants_raw(&self) -> bool {
        false
    }
}

/// Deepest nesting followed, inline XHTML included: the walk stops at an element deeper than
/// this, keeps what came before, and reports the depth as the body's error.
pub const MAX_DEPTH: usize = 512;

struct Frame {
    qname: String,
    name: Name,
    /// Namespace declarations made on this element (prefix, uri); "" is the default.
    ns_decls: Vec<(String, String)>,
    base: Url,
    /// Inside an element whose children arrive as raw markup.
    raw: bool,
    /// The element that asked for raw children (its own text still arrives as text).
    raw_root: bool,
}

/// Walks `text` (the decoded body), reporting to `h`. Returns the first error, if any,
/// as a sentence naming the line.
pub fn walk(text: &str, base: &Url, h: &mut impl Handler) -> Option<String> {
    let mut reader = Reader::from_str(text);
    {
        let c = reader.config_mut();
        c.expand_empty_elements = true;
        c.check_end_names = false;
        c.allow_unmatched_ends = true;
        c.allow_dangling_amp = true;
        c.trim_text(false);
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut first_error: Option<String> = None;
    let mut errors = 0usize;
    let mut entities = EntityCache::default();
    loop {
        let before = reader.buffer_position();
        let ev = reader.read_event();
        let ev = match ev {
            Ok(ev) => ev,
            Err(e) => {
                let at = (reader.error_position() as usize).min(text.len());
                if first_error.is_none() {
                    first_error = Some(format!("broken XML at line {}: {e}", line_of(text, at)));
                }
                errors += 1;
                if errors > 50 || reader.buffer_position() <= before {
                    break;
                }
                continue;
            }
        };
        let raw_mode = stack.last().is_some_and(|f| f.raw);
        let raw_text = stack.last().is_some_and(|f| f.raw && !f.raw_root);
        match ev {
            Event::Start(e) => {
                // Raw (inline XHTML) children count too: a walk's work grows with its depth.
                if stack.len() >= MAX_DEPTH {
                    if first_error.is_none() {
                        first_error = Some(format!(
                            "XML nested deeper than {MAX_DEPTH} elements at line {}",
                            line_of(text, before as usize)
                        ));
                    }
                    break;
                }
                if raw_mode {
                    h.raw(&format!("<{}>", e.as_ref_str()));
                    let qname = e.name().0.to_string();
                    let parent = stack.last().expect("raw mode has a frame");
                    let f = Frame {
                        qname,
                        name: Name {
                            ns: String::new(),
                            local: String::new(),
                        },
                        ns_decls: Vec::new(),
                        base: parent.base.clone(),
                        raw: true,
                        raw_root: false,
                    };
                    stack.push(f);
                    continue;
                }
                let (frame, attrs) = open(&e, &stack, base, &mut entities);
                h.start(&frame.name, &attrs, &frame.base);
                let mut frame = frame;
                frame.raw = h.wants_raw();
                frame.raw_root = frame.raw;
                stack.push(frame);
            }
            Event::End(e) => {
                let qname = e.name().0;
                // Close up to the matching open element; an end tag nothing opened is ignored.
                let Some(pos) = stack.iter().rposition(|f| f.qname == qname) else {
                    if raw_mode {
                        h.raw(&format!("</{qname}>"));
                    }
                    continue;
                };
                while stack.len() > pos {
                    let f = stack.pop().expect("len > pos");
                    let parent_raw = stack.last().is_some_and(|p| p.raw);
                    if parent_raw {
                        h.raw(&format!("</{}>", f.qname));
                    } else {
                        h.end(&f.name);
                    }
                }
            }
            Event::Text(t) => {
                let s = t.xml10_content();
                if raw_text {
                    h.raw(&escape(&s));
                } else {
                    h.text(&s);
                }
            }
            Event::CData(t) => {
                let s = t.xml10_content();
                if raw_text {
                    h.raw(&escape(&s));
                } else {
                    h.text(&s);
                }
            }
            Event::GeneralRef(r) => {
                let name = r.into_inner();
                let s = entities.resolve(&name);
                if raw_text {
                    h.raw(&escape(&s));
                } else {
                    h.text(&s);
                }
            }
            // A DTD is skipped whole: its entity definitions are never read.
            Event::DocType(_) => {}
            Event::Eof => {
                if let (Some(open), None) = (stack.last(), &first_error) {
                    first_error = Some(format!(
                        "body ends inside <{}> at line {}: cut off or not closed",
                        open.qname,
                        line_of(text, text.len())
                    ));
                }
                break;
            }
            Event::Empty(_) | Event::Comment(_) | Event::Decl(_) | Event::PI(_) => {}
        }
    }
    first_error
}

trait AsRefStr {
    fn as_ref_str(&self) -> String;
}

impl AsRefStr for BytesStart<'_> {
    fn as_ref_str(&self) -> String {
        let name = self.name().0.to_string();
        let attrs = self.attributes_raw();
        format!("{name}{attrs}")
    }
}

fn open(
    e: &BytesStart<'_>,
    stack: &[Frame],
    doc_base: &Url,
    entities: &mut EntityCache,
) -> (Frame, Vec<Attr>) {
    let qname = e.name().0.to_string();
    let mut raw_attrs: Vec<(String, String)> = Vec::new();
    let mut attrs_iter = e.attributes();
    attrs_iter.with_checks(false);
    for a in attrs_iter.flatten() {
        let key = a.key.0.to_string();
        let value = entities.decode(&a.value);
        raw_attrs.push((key, value));
    }
    let mut ns_decls = Vec::new();
    for (k, v) in &raw_attrs {
        if k == "xmlns" {
            ns_decls.push((String::new(), v.trim().to_string()));
        } else if let Some(p) = k.strip_prefix("xmlns:") {
            ns_decls.push((p.to_string(), v.trim().to_string()));
        }
    }
    let lookup = |prefix: &str| -> Option<String> {
        for (p, u) in ns_decls.iter().rev() {
            if p == prefix {
                return Some(u.clone());
            }
        }
        for f in stack.iter().rev() {
            for (p, u) in f.ns_decls.iter().rev() {
                if p == prefix {
                    return Some(u.clone());
                }
            }
        }
        None
    };
    let resolve = |q: &str, is_attr: bool| -> Name {
        match q.split_once(':') {
            Some((p, l)) => Name {
                ns: lookup(p).unwrap_or_else(|| p.to_ascii_lowercase()),
                local: l.to_string(),
            },
            None if is_attr => Name {
                ns: String::new(),
                local: q.to_string(),
            },
            None => Name {
                ns: lookup("").unwrap_or_default(),
                local: q.to_string(),
            },
        }
    };
    let name = resolve(&qname, false);
    let parent_base = stack.last().map_or(doc_base, |f| &f.base);
    let mut base = parent_base.clone();
    let mut attrs = Vec::new();
    for (k, v) in raw_attrs {
        if k == "xmlns" || k.starts_with("xmlns:") {
            continue;
        }
        if k == "xml:base"
            && let Ok(u) = parent_base.join(v.trim())
            && matches!(u.scheme(), "http" | "https")
        {
            base = u;
        }
        attrs.push(Attr {
            name: resolve(&k, true),
            value: v,
        });
    }
    (
        Frame {
            qname,
            name,
            ns_decls,
            base,
            raw: false,
            raw_root: false,
        },
        attrs,
    )
}

fn line_of(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text[..at].bytes().filter(|b| *b == b'\n').count() + 1
}

/// Escapes text for re-use as markup.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// Entity decoding without a DTD: XML's five, character references, the HTML table.
#[derive(Default)]
struct EntityCache {
    html: BTreeMap<String, Option<String>>,
}

impl EntityCache {
    fn resolve(&mut self, name: &str) -> String {
        match name {
            "amp" => return "&".into(),
            "lt" => return "<".into(),
            "gt" => return ">".into(),
            "quot" => return "\"".into(),
            "apos" => return "'".into(),
            _ => {}
        }
        if let Some(num) = name.strip_prefix('#') {
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => num.parse::<u32>().ok(),
            };
            return match code {
                // Windows-1252 code points written as references (&#150;) mean their glyphs.
                Some(c @ 0x80..=0x9f) => {
                    let b = [c as u8];
                    encoding_rs::WINDOWS_1252
                        .decode_without_bom_handling(&b)
                        .0
                        .into_owned()
                }
                Some(0) => String::new(),
                Some(c) => char::from_u32(c).map(String::from).unwrap_or_default(),
                None => format!("&{name};"),
            };
        }
        if name.len() > 32 || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return format!("&{name};");
        }
        self.html
            .entry(name.to_string())
            .or_insert_with(|| html_entity(name))
            .clone()
            .unwrap_or_else(|| format!("&{name};"))
    }

    /// Decodes references in an attribute value.
    fn decode(&mut self, raw: &str) -> String {
        if !raw.contains('&') {
            return raw.to_string();
        }
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            match after.find(';') {
                Some(j) if j <= 33 && j > 0 => {
                    out.push_str(&self.resolve(&after[..j]));
                    rest = &after[j + 1..];
                }
                _ => {
                    out.push('&');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// The HTML named entity `name` (from the HTML standard's fixed table), if it is one.
fn html_entity(name: &str) -> Option<String> {
    let src = format!("&{name};");
    let frag = scraper::Html::parse_fragment(&src);
    let text: String = frag.root_element().text().collect();
    // A full match decodes to one or two characters and leaves no semicolon behind.
    (text != src && text.chars().count() <= 2 && !text.contains(';')).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Log(Vec<String>);
    impl Handler for Log {
        fn start(&mut self, n: &Name, a: &[Attr], base: &Url) {
            let attrs: Vec<String> = a
                .iter()
                .map(|a| format!("{}={}", a.name.local, a.value))
                .collect();
            self.0.push(format!(
                "<{}|{} {} @{}>",
                n.ns,
                n.local,
                attrs.join(","),
                base
            ));
        }
        fn end(&mut self, n: &Name) {
            self.0.push(format!("</{}>", n.local));
        }
        fn text(&mut self, t: &str) {
            if !t.is_empty() {
                self.0.push(t.to_string());
            }
        }
    }

    fn run(s: &str) -> (Vec<String>, Option<String>) {
        let mut log = Log::default();
        let base = Url::parse("https://example.com/feed/").unwrap();
        let e = walk(s, &base, &mut log);
        (log.0, e)
    }

    #[test]
    fn namespaces_and_base_resolve() {
        let (log, e) = run(
            r#"<feed xmlns="http://www.w3.org/2005/Atom" xml:base="/x/"><dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">A</dc:creator></feed>"#,
        );
        assert!(e.is_none());
        assert_eq!(
            log[0],
            "<http://www.w3.org/2005/Atom|feed base=/x/ @https://example.com/x/>"
        );
        assert_eq!(
            log[1],
            "<http://purl.org/dc/elements/1.1/|creator  @https://example.com/x/>"
        );
    }

    #[test]
    fn html_entities_decode_and_dtd_entities_never_expand() {
        let (log, _) = run(
            "<!DOCTYPE r [<!ENTITY a \"AAAAAAAAAA\"><!ENTITY b \"&a;&a;&a;&a;\">]><r>x&nbsp;y &b; &#8217; &#150;</r>",
        );
        let text: String = log
            .iter()
            .filter(|l| !l.starts_with('<'))
            .cloned()
            .collect();
        assert_eq!(text, "x\u{a0}y &b; \u{2019} \u{2013}");
    }

    #[test]
    fn mismatched_and_missing_end_tags_are_forgiven() {
        let (log, _) = run("<a><b>one<c>two</b><d>three</d></a>");
        assert_eq!(
            log,
            [
                "<|a  @https://example.com/feed/>",
                "<|b  @https://example.com/feed/>",
                "one",
                "<|c  @https://example.com/feed/>",
                "two",
                "</c>",
                "</b>",
                "<|d  @https://example.com/feed/>",
                "three",
                "</d>",
                "</a>"
            ]
        );
    }

    #[test]
    fn truncation_is_an_error_naming_the_line() {
        let (log, e) = run("<a>\n<b>one</b>\n<c attr=\"x");
        assert!(log.contains(&"one".to_string()));
        assert!(e.unwrap().contains("line 3"), "error names the line");
    }
}
