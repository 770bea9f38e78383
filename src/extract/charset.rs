//! Bodies to text: which character encoding a publisher's bytes are in.
//!
//! The order is the one XML and HTTP agree on in practice: a byte-order mark wins; then the
//! first bytes of an XML declaration in UTF-32, UTF-16 or EBCDIC (XML 1.0 appendix F); then
//! the charset of the HTTP Content-Type; then the XML declaration (or, for HTML, a
//! `<meta charset>`); then UTF-8. Labels are read the WHATWG way, so `ISO-8859-1` and
//! `US-ASCII` mean windows-1252, the encoding such feeds really are in (curly quotes at
//! 0x93/0x94). Beyond the WHATWG set (encoding_rs) this reads UTF-32 (UCS-4) in both byte
//! orders, EBCDIC (IBM037, IBM500), the DOS code pages IBM437 and IBM850 and Mac Greek from
//! exact tables (see [`codepages`]), and the labels `cp874` and `mac-cyrillic` as the WHATWG
//! encodings they are. Bytes that are not valid in the chosen encoding become U+FFFD and are
//! reported, never a panic.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_874, WINDOWS_1252, X_MAC_CYRILLIC};

#[path = "codepages.rs"]
pub mod codepages;

/// A single-byte code page outside the WHATWG set.
#[derive(Debug, PartialEq)]
pub struct CodePage {
    pub name: &'static str,
    /// Labels it is known by (lower case).
    labels: &'static [&'static str],
    map: &'static [u16; 256],
    /// EBCDIC: `<` is not 0x3C.
    ebcdic: bool,
}

const PAGES: &[CodePage] = &[
    CodePage {
        name: "IBM037",
        labels: &[
            "ibm037",
            "ibm-037",
            "ibm37",
            "cp037",
            "cp37",
            "037",
            "csibm037",
            "ebcdic-cp-us",
            "ebcdic-cp-ca",
            "ebcdic-cp-wt",
            "ebcdic-cp-nl",
            "ebcdic-us-37+euro",
        ],
        map: &codepages::CP037,
        ebcdic: true,
    },
    CodePage {
        name: "IBM500",
        labels: &[
            "ibm500",
            "ibm-500",
            "cp500",
            "500",
            "csibm500",
            "ebcdic-cp-be",
            "ebcdic-cp-ch",
            "ebcdic-international",
        ],
        map: &codepages::CP500,
        ebcdic: true,
    },
    CodePage {
        name: "IBM437",
        labels: &[
            "ibm437",
            "ibm-437",
            "cp437",
            "437",
            "cspc8codepage437",
            "oem-us",
            "dos-437",
        ],
        map: &codepages::CP437,
        ebcdic: false,
    },
    CodePage {
        name: "IBM850",
        labels: &[
            "ibm850",
            "ibm-850",
            "cp850",
            "850",
            "cspc850multilingual",
            "dos-850",
        ],
        map: &codepages::CP850,
        ebcdic: false,
    },
    CodePage {
        name: "x-mac-greek",
        labels: &[
            "x-mac-greek",
            "mac-greek",
            "macgreek",
            "mac_greek",
            "cp10006",
            "x-mac-greek-cp10006",
        ],
        map: &codepages::MAC_GREEK,
        ebcdic: false,
    },
];

/// An encoding a body can be in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Enc {
    /// One of the WHATWG set.
    Whatwg(&'static Encoding),
    /// UTF-32 (UCS-4).
    Utf32 { big_endian: bool },
    /// A single-byte code page outside the WHATWG set.
    Page(&'static CodePage),
}

impl Enc {
    pub fn name(self) -> &'static str {
        match self {
            Enc::Whatwg(e) => e.name(),
            Enc::Utf32 { big_endian: true } => "UTF-32BE",
            Enc::Utf32 { big_endian: false } => "UTF-32LE",
            Enc::Page(p) => p.name,
        }
    }

    /// Whether ASCII text (an XML declaration, `<html`) reads as ASCII bytes in it.
    fn ascii_compatible(self) -> bool {
        match self {
            Enc::Whatwg(e) => !(e == UTF_16LE || e == UTF_16BE),
            Enc::Utf32 { .. } => false,
            Enc::Page(p) => !p.ebcdic,
        }
    }
}

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
    xml_decl_in(&String::from_utf8_lossy(head))
}

/// The `encoding` of an XML declaration at the start of `s`.
fn xml_decl_in(s: &str) -> Option<String> {
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

/// The encoding a charset label names, WHATWG labels first, then the ones it leaves out.
pub fn label(l: &str) -> Option<Enc> {
    let l = l.trim().to_ascii_lowercase();
    // "utf-16" alone maps to UTF-16LE in WHATWG, which is what Windows servers send; a body
    // without a BOM is read by the byte order its first bytes show (see `detect`).
    if let Some(e) = Encoding::for_label(l.as_bytes()) {
        return Some(Enc::Whatwg(e));
    }
    match l.as_str() {
        "utf-32" | "utf32" | "ucs-4" | "ucs4" | "iso-10646-ucs-4" | "csucs4" | "utf-32be"
        | "ucs-4be" => Some(Enc::Utf32 { big_endian: true }),
        "utf-32le" | "ucs-4le" => Some(Enc::Utf32 { big_endian: false }),
        "cp874" | "874" | "ibm874" | "ibm-874" | "x-ibm874" => Some(Enc::Whatwg(WINDOWS_874)),
        "mac-cyrillic" | "maccyrillic" | "mac_cyrillic" | "cp10007" | "x-mac-ukrainian" => {
            Some(Enc::Whatwg(X_MAC_CYRILLIC))
        }
        _ => PAGES
            .iter()
            .find(|p| p.labels.contains(&l.as_str()))
            .map(Enc::Page),
    }
}

/// UTF-32 without a BOM: which byte order its first character shows, if it is UTF-32.
fn utf32_order(body: &[u8]) -> Option<bool> {
    match body.get(..4)? {
        [0, 0, 0, c] if *c != 0 => Some(true),
        [c, 0, 0, 0] if *c != 0 => Some(false),
        [0, 0, _, _] => Some(true),
        [_, _, 0, 0] => Some(false),
        _ => None,
    }
}

/// `<?xm` in EBCDIC.
const EBCDIC_XML: [u8; 4] = [0x4C, 0x6F, 0xA7, 0x94];

/// The encoding a body is in, by BOM, the first bytes, HTTP charset and declaration, and the
/// length of its BOM.
pub fn detect(body: &[u8], content_type: Option<&str>, html: bool) -> (Enc, usize) {
    // UTF-32's BOMs before UTF-16's: FF FE 00 00 starts with UTF-16LE's.
    match body.get(..4) {
        Some([0, 0, 0xFE, 0xFF]) => return (Enc::Utf32 { big_endian: true }, 4),
        Some([0xFF, 0xFE, 0, 0]) => return (Enc::Utf32 { big_endian: false }, 4),
        _ => {}
    }
    if let Some((enc, bom)) = Encoding::for_bom(body) {
        return (Enc::Whatwg(enc), bom);
    }
    let http = content_type.and_then(http_charset).and_then(|l| label(&l));
    // The first bytes of `<?xml` (or any `<`) in UTF-32, UTF-16 and EBCDIC.
    match body.get(..4) {
        Some([0, 0, 0, b'<']) => return (Enc::Utf32 { big_endian: true }, 0),
        Some([b'<', 0, 0, 0]) => return (Enc::Utf32 { big_endian: false }, 0),
        Some([0, b'<', 0, _]) => return (Enc::Whatwg(UTF_16BE), 0),
        Some([b'<', 0, _, 0]) => return (Enc::Whatwg(UTF_16LE), 0),
        Some(head) if head == EBCDIC_XML => {
            // The declaration's characters are the same in every EBCDIC page; it names which.
            let page = |e: Option<Enc>| e.filter(|e| matches!(e, Enc::Page(p) if p.ebcdic));
            let head = &body[..body.len().min(512)];
            let declared = xml_decl_in(&decode_page(&PAGES[0], head).0).and_then(|l| label(&l));
            let enc = page(http)
                .or(page(declared))
                .unwrap_or(Enc::Page(&PAGES[0]));
            return (enc, 0);
        }
        _ => {}
    }
    if let Some(e) = http {
        // A UTF-16 label on bytes that are plainly ASCII-compatible is a mislabel; a UTF-32
        // one is honoured when the bytes look like UTF-32, in the order they show.
        match e {
            Enc::Utf32 { .. } => {
                if let Some(big_endian) = utf32_order(body) {
                    return (Enc::Utf32 { big_endian }, 0);
                }
            }
            e if e.ascii_compatible() => return (e, 0),
            _ => {}
        }
    }
    let declared = if html {
        html_meta_charset(body)
    } else {
        xml_decl_encoding(body)
    };
    // The declaration was read as ASCII, so it names an ASCII-compatible encoding.
    if let Some(e) = declared.and_then(|l| label(&l))
        && e.ascii_compatible()
    {
        return (e, 0);
    }
    if std::str::from_utf8(body).is_ok() {
        return (Enc::Whatwg(UTF_8), 0);
    }
    // Undeclared and not UTF-8: what such feeds are nearly always in.
    if content_type.and_then(http_charset).is_none() && declared_none(body, html) {
        let valid_prefix = match std::str::from_utf8(body) {
            Ok(_) => body.len(),
            Err(e) => e.valid_up_to(),
        };
        // Mostly UTF-8 with a few bad bytes (a truncated or damaged body) stays UTF-8.
        if valid_prefix + 4 >= body.len() || has_multibyte_utf8(&body[..valid_prefix]) {
            return (Enc::Whatwg(UTF_8), 0);
        }
        return (Enc::Whatwg(WINDOWS_1252), 0);
    }
    (Enc::Whatwg(UTF_8), 0)
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

/// Bytes of a single-byte code page to text, and whether any byte was undefined.
fn decode_page(p: &CodePage, bytes: &[u8]) -> (String, bool) {
    let mut bad = false;
    let text = bytes
        .iter()
        .map(|b| {
            let c = char::from_u32(u32::from(p.map[usize::from(*b)])).unwrap_or('\u{fffd}');
            bad |= c == '\u{fffd}';
            c
        })
        .collect();
    (text, bad)
}

/// UTF-32 to text: a code unit that is no character, and a cut-off last one, become U+FFFD.
fn decode_utf32(bytes: &[u8], big_endian: bool) -> (String, bool) {
    let mut bad = false;
    let mut text = String::with_capacity(bytes.len() / 4);
    let mut units = bytes.chunks_exact(4);
    for u in &mut units {
        let u = [u[0], u[1], u[2], u[3]];
        let n = if big_endian {
            u32::from_be_bytes(u)
        } else {
            u32::from_le_bytes(u)
        };
        text.push(char::from_u32(n).unwrap_or_else(|| {
            bad = true;
            '\u{fffd}'
        }));
    }
    if !units.remainder().is_empty() {
        bad = true;
        text.push('\u{fffd}');
    }
    (text, bad)
}

/// Decodes a body as [`detect`] says.
pub fn decode(body: &[u8], content_type: Option<&str>, html: bool) -> Decoded {
    let (enc, bom) = detect(body, content_type, html);
    let bytes = &body[bom..];
    let (text, bad) = match enc {
        Enc::Whatwg(e) => {
            let (t, bad) = e.decode_without_bom_handling(bytes);
            (t.into_owned(), bad)
        }
        Enc::Utf32 { big_endian } => decode_utf32(bytes, big_endian),
        Enc::Page(p) => decode_page(p, bytes),
    };
    Decoded {
        text,
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

    #[test]
    fn labels_beyond_the_whatwg_set_are_known() {
        let name = |l: &str| label(l).map(Enc::name);
        for (l, n) in [
            ("437", "IBM437"),
            ("IBM437", "IBM437"),
            ("cp437", "IBM437"),
            ("850", "IBM850"),
            ("cp850", "IBM850"),
            ("cp037", "IBM037"),
            ("ebcdic-cp-us", "IBM037"),
            ("cp500", "IBM500"),
            ("cp874", "windows-874"),
            ("mac-cyrillic", "x-mac-cyrillic"),
            ("x-mac-cyrillic", "x-mac-cyrillic"),
            ("macgreek", "x-mac-greek"),
            ("x-mac-greek", "x-mac-greek"),
            ("UTF-32", "UTF-32BE"),
            ("ucs-4le", "UTF-32LE"),
            ("iso-8859-1", "windows-1252"),
        ] {
            assert_eq!(name(l), Some(n), "{l}");
        }
        assert_eq!(name("x-unknown"), None);
    }

    #[test]
    fn utf32_and_ebcdic_are_sniffed_and_mislabels_ignored() {
        let s = "<?xml version=\"1.0\"?><t>ಸುದ್ದಿ</t>";
        let be: Vec<u8> = s.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect();
        let le: Vec<u8> = s.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
        assert_eq!(decode(&be, None, false).text, s);
        assert_eq!(decode(&le, None, false).text, s);
        // A UTF-32 label on ASCII bytes, or an EBCDIC one, is a mislabel.
        for ct in ["text/xml; charset=utf-32", "text/xml; charset=cp037"] {
            assert_eq!(decode(s.as_bytes(), Some(ct), false).text, s, "{ct}");
        }
        // EBCDIC: the declaration names the page; IBM037 when it names none.
        let cp500: Vec<u8> = "<?xml version='1.0' encoding='ibm500'?><t>[x]</t>"
            .chars()
            .map(|c| {
                codepages::CP500
                    .iter()
                    .position(|u| u32::from(*u) == u32::from(c))
                    .unwrap() as u8
            })
            .collect();
        let d = decode(&cp500, None, false);
        assert_eq!(
            (d.encoding, d.text.ends_with("<t>[x]</t>")),
            ("IBM500", true)
        );
        // A cut-off UTF-32 character is a bad byte, never a panic.
        let d = decode(&be[..be.len() - 2], None, false);
        assert!(d.bad_bytes && d.text.ends_with('\u{fffd}'));
    }
}
