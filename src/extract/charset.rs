//! Bodies to text: which character encoding a publisher's bytes are in.
//!
//! The order is the one XML and HTTP agree on in practice: a byte-order mark wins; then the
//! charset of the HTTP Content-Type; then the XML declaration (or, for HTML, a `<meta charset>`);
//! then UTF-8. Labels are read the WHATWG way, so `ISO-8859-1` and `US-ASCII` mean
//! windows-1252, the encoding such feeds really are in (curly quotes at 0x93/0x94). Bytes that
//! are not valid in the chosen encoding become U+FFFD and are reported, never a panic.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// A decoded body: the text, the encoding used, and a note when bytes were bad.
#[derive(Debug)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static str,
    /// Set when some bytes were not valid in the encoding (they became U+FFFD).
    pub bad_bytes: bool,
}

/// The `charset` parameter of a Content-Type value, if any (quotes and spaces tolerated).
pub fn http_charset(content_type: &str) -> Option<String> {
    for part in content_type.split(';').skip(1) {
        let Some((k, v)) = part.split_once(['=', ':']) else {
            continue;
        };
        if k.trim().eq_ignore_ascii_case("charset") {
            let v = v.trim().trim_matches(['"', '\'']).trim();
            if !v.is_empty() {
                return Some(v.to_string());
            }
        }
    }
    None
}

/// The `encoding` of an XML declaration at the start of `head` (ASCII-compatible bytes).
fn xml_decl_encoding(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(512)];
    let s = String::from_utf8_lossy(head);
    let s = s.trim_start();
    if !s.starts_with("<?xml") {
        return None;
    }
    let decl = &s[..s.find("?>")?];
    let at = decl.find("encoding")?;
    let rest = decl[at + "encoding".len()..]
        .trim_start()
        .strip_prefix('=')?;
    let rest = rest.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let rest = &rest[1..];
    Some(rest[..rest.find(quote)?].trim().to_string())
}

/// The charset a `<meta charset>` or `<meta http-equiv content="...charset=">` names in the
/// first kilobytes of an HTML page.
fn html_meta_charset(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(4096)];
    let s = String::from_utf8_lossy(head).to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = s[from..].find("<meta") {
        let start = from + i;
        let end = s[start..].find('>').map_or(s.len(), |e| start + e);
        let tag = &s[start..end];
        if let Some(at) = tag.find("charset") {
            let rest = tag[at + "charset".len()..].trim_start();
            if let Some(rest) = rest.strip_prefix('=') {
                let v: String = rest
                    .trim_start()
                    .trim_start_matches(['"', '\''])
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || "-_:.".contains(*c))
                    .collect();
                if !v.is_empty() {
                    return Some(v);
                }
            }
        }
        from = end;
    }
    None
}

fn label(l: &str) -> Option<&'static Encoding> {
    let e = Encoding::for_label(l.trim().as_bytes())?;
    // A body said to be UTF-16 without a BOM is read as the declaration's byte order guess
    // below; "utf-16" alone maps to UTF-16LE in WHATWG, which is what Windows servers send.
    Some(e)
}

/// The encoding a body is in, by BOM, HTTP charset, declaration, and a UTF-16 sniff.
pub fn detect(body: &[u8], content_type: Option<&str>, html: bool) -> (&'static Encoding, usize) {
    if let Some((enc, bom)) = Encoding::for_bom(body) {
        return (enc, bom);
    }
    // UTF-16 without a BOM: `<` as 00 3C or 3C 00.
    if body.len() >= 4 {
        match &body[..4] {
            [0, b'<', 0, _] => return (UTF_16BE, 0),
            [b'<', 0, _, 0] => return (UTF_16LE, 0),
            _ => {}
        }
    }
    if let Some(e) = content_type.and_then(http_charset).and_then(|l| label(&l)) {
        // A UTF-16 label on bytes that are plainly ASCII-compatible is a mislabel.
        if !(e == UTF_16LE || e == UTF_16BE) {
            return (e, 0);
        }
    }
    let declared = if html {
        html_meta_charset(body)
    } else {
        xml_decl_encoding(body)
    };
    if let Some(e) = declared.and_then(|l| label(&l))
        && !(e == UTF_16LE || e == UTF_16BE)
    {
        return (e, 0);
    }
    if std::str::from_utf8(body).is_ok() {
        return (UTF_8, 0);
    }
    // Undeclared and not UTF-8: what such feeds are nearly always in.
    if content_type.and_then(http_charset).is_none() && declared_none(body, html) {
        let valid_prefix = match std::str::from_utf8(body) {
            Ok(_) => body.len(),
            Err(e) => e.valid_up_to(),
        };
        // Mostly UTF-8 with a few bad bytes (a truncated or damaged body) stays UTF-8.
        if valid_prefix + 4 >= body.len() || has_multibyte_utf8(&body[..valid_prefix]) {
            return (UTF_8, 0);
        }
        return (WINDOWS_1252, 0);
    }
    (UTF_8, 0)
}

fn declared_none(body: &[u8], html: bool) -> bool {
    if html {
        html_meta_charset(body).is_none()
    } else {
        xml_decl_encoding(body).is_none()
    }
}

fn has_multibyte_utf8(s: &[u8]) -> bool {
    s.iter().any(|b| *b >= 0x80)
}

/// Decodes a body as [`detect`] says.
pub fn decode(body: &[u8], content_type: Option<&str>, html: bool) -> Decoded {
    let (enc, bom) = detect(body, content_type, html);
    let (text, bad) = enc.decode_without_bom_handling(&body[bom..]);
    Decoded {
        text: text.into_owned(),
        encoding: enc.name(),
        bad_bytes: bad,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_parameter_is_found_however_written() {
        assert_eq!(
            http_charset("text/xml; charset=\"utf-8\"").as_deref(),
            Some("utf-8")
        );
        assert_eq!(
            http_charset("text/xml;charset = us-ascii").as_deref(),
            Some("us-ascii")
        );
        assert_eq!(http_charset("text/xml").as_deref(), None);
    }

    #[test]
    fn latin1_label_reads_as_windows_1252() {
        let body = b"<?xml version='1.0' encoding='ISO-8859-1'?><t>\x93quoted\x94 caf\xe9</t>";
        let d = decode(body, None, false);
        assert_eq!(d.encoding, "windows-1252");
        assert!(d.text.contains("\u{201c}quoted\u{201d} caf\u{e9}"));
    }

    #[test]
    fn http_charset_beats_the_declaration_and_bom_beats_both() {
        let body = "<?xml version='1.0' encoding='utf-8'?><t>é</t>".as_bytes();
        let d = decode(body, Some("text/xml; charset=iso-8859-1"), false);
        assert_eq!(d.encoding, "windows-1252");
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice("<t>ಕನ್ನಡ</t>".as_bytes());
        let d = decode(&bom, Some("text/xml; charset=iso-8859-1"), false);
        assert_eq!(d.text, "<t>ಕನ್ನಡ</t>");
    }

    #[test]
    fn utf16_with_and_without_bom() {
        let s = "<?xml version=\"1.0\" encoding=\"utf-16\"?><t>ಸುದ್ದಿ</t>";
        let mut le = vec![0xFF, 0xFE];
        le.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(&le, None, false).text, s);
        let be: Vec<u8> = s.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&be, None, false).text, s);
    }

    #[test]
    fn undeclared_non_utf8_is_windows_1252_and_bad_utf8_is_flagged() {
        let d = decode(b"<t>caf\xe9 \x96 menu and more text here</t>", None, false);
        assert_eq!(d.encoding, "windows-1252");
        assert!(d.text.contains("café – menu"));
        let d = decode(
            b"<?xml version='1.0' encoding='utf-8'?><t>bad \xff byte</t>",
            None,
            false,
        );
        assert!(d.bad_bytes);
        assert!(d.text.contains('\u{fffd}'));
    }
}
