//! Minimal HTTP/1.1 on std sockets: reading a request head, writing a response.
//!
//! The loopback web speaks raw HTTP itself (rather than through a server
//! library) so that it controls exactly when each byte leaves, can stall a
//! body on purpose, and counts the body bytes a client really received.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Read, Write};

/// Largest request head accepted.
const MAX_HEAD: usize = 64 * 1024;

/// A parsed request head.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The request target as sent (path plus query string).
    pub target: String,
    pub version: String,
    /// Header names lower-cased; repeated headers joined with ", ".
    pub headers: BTreeMap<String, String>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }

    /// The path without the query string.
    pub fn path(&self) -> &str {
        let t = self.target.as_str();
        // An absolute-form target ("http://host/path") is reduced to its path.
        let t = match t.find("://") {
            Some(i) => match t[i + 3..].find('/') {
                Some(j) => &t[i + 3 + j..],
                None => "/",
            },
            None => t,
        };
        t.split(['?', '#']).next().unwrap_or("/")
    }

    /// Whether the connection should be kept open after this request.
    pub fn keep_alive(&self) -> bool {
        let conn = self.header("connection").unwrap_or("").to_ascii_lowercase();
        if self.version == "HTTP/1.0" {
            conn.contains("keep-alive")
        } else {
            !conn.contains("close")
        }
    }
}

/// Reads one request head. `Ok(None)` means the client closed the connection
/// cleanly before sending anything.
pub fn read_request<R: BufRead>(r: &mut R) -> io::Result<Option<Request>> {
    let mut total = 0usize;
    let mut line = String::new();
    // Skip stray empty lines between requests (RFC 9112 §2.2).
    loop {
        line.clear();
        let n = read_line(r, &mut line, &mut total)?;
        if n == 0 {
            return Ok(None);
        }
        if !line.trim().is_empty() {
            break;
        }
    }
    let mut parts = line.split_whitespace();
    let (method, target, version) = match (parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), v) => (
            m.to_string(),
            t.to_string(),
            v.unwrap_or("HTTP/1.0").to_string(),
        ),
        _ => return Err(bad("malformed request line")),
    };
    let mut headers: BTreeMap<String, String> = BTreeMap::new();
    loop {
        line.clear();
        if read_line(r, &mut line, &mut total)? == 0 {
            return Err(bad("connection closed inside the request head"));
        }
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = l.split_once(':') else {
            return Err(bad("malformed header line"));
        };
        let name = name.trim().to_ascii_lowercase();
        let value = value.trim().to_string();
        headers
            .entry(name)
            .and_modify(|v| {
                v.push_str(", ");
                v.push_str(&value)
            })
            .or_insert(value);
    }
    Ok(Some(Request {
        method,
        target,
        version,
        headers,
    }))
}

fn read_line<R: BufRead>(r: &mut R, line: &mut String, total: &mut usize) -> io::Result<usize> {
    let mut buf = Vec::new();
    let n = r
        .by_ref()
        .take((MAX_HEAD - *total + 1) as u64)
        .read_until(b'\n', &mut buf)?;
    *total += n;
    if *total > MAX_HEAD {
        return Err(bad("request head too large"));
    }
    line.push_str(&String::from_utf8_lossy(&buf));
    Ok(n)
}

fn bad(msg: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.to_string())
}

/// Discards a request body announced by `Content-Length`.
pub fn skip_body<R: Read>(r: &mut R, req: &Request) -> io::Result<()> {
    if let Some(len) = req
        .header("content-length")
        .and_then(|v| v.parse::<u64>().ok())
    {
        io::copy(&mut r.take(len), &mut io::sink())?;
    }
    Ok(())
}

pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        206 => "Partial Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        410 => "Gone",
        429 => "Too Many Requests",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

/// Serialises a response head (status line and headers, in order).
pub fn head_bytes(status: u16, headers: &[(String, String)]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {} {}\r\n", status, reason(status));
    for (k, v) in headers {
        out.push_str(k);
        out.push_str(": ");
        out.push_str(v);
        out.push_str("\r\n");
    }
    out.push_str("\r\n");
    out.into_bytes()
}

/// Writes all of `data`, adding what was accepted by the socket to `sent`
/// (also when an error cuts the write short).
pub fn write_counted<W: Write>(w: &mut W, data: &[u8], sent: &mut u64) -> io::Result<()> {
    let mut rest = data;
    while !rest.is_empty() {
        match w.write(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => {
                *sent += n as u64;
                rest = &rest[n..];
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
