//! The key directory on the public site (Web Bot Auth): the JWK Set of the keys HudukuBot
//! signs with, at `/.well-known/http-message-signatures-directory`, and the response
//! signature a static site cannot make per request, made once a day and served with it.
//!
//! Written: `site/.well-known/http-message-signatures-directory` (the exact bytes the
//! `Content-Digest` covers), `site/_headers` (the headers to serve it with, in the format
//! Cloudflare Pages and Netlify read) and `DATA/server/nginx-signatures-directory.conf` (the
//! same for nginx, outside the site so it is not served). See docs/signing.md.

use anyhow::Result;
use std::path::Path;

use crate::polite::sign::{self, Key};

/// The directory's file, named from the site's root.
pub const FILE: &str = ".well-known/http-message-signatures-directory";
/// The headers file of static hosts, named from the site's root.
pub const HEADERS: &str = "_headers";
/// How long a cache may keep the directory.
const MAX_AGE: u32 = 86400;

/// The host (and port, if not the default) the site is served from: the `@authority` the
/// directory's signature covers.
pub fn authority(base: &str) -> Result<String> {
    let u = url::Url::parse(base)?;
    Ok(sign::authority(&u))
}

/// Writes the directory for `keys` (the key in use first), signed at the start of `now`'s
/// UTC day, so it is renewed by the day's first publish and the same all day. Returns the
/// files written in the site, named from its root.
pub fn write(
    site_dir: &Path,
    server_dir: &Path,
    keys: &[Key],
    base: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<String>> {
    let day_start = now
        .date_naive()
        .and_hms_opt(0, 0, 0)
        .expect("midnight")
        .and_utc();
    let refs: Vec<&Key> = keys.iter().collect();
    let d = sign::directory(&refs, &authority(base)?, day_start.timestamp());
    super::site::put(&site_dir.join(FILE), d.body.as_bytes())?;
    let headers = format!(
        "# Written by publish: the headers the key directory is served with (Cloudflare Pages, Netlify).\n/{FILE}\n  Content-Type: {}\n  Content-Digest: {}\n  Signature-Input: {}\n  Signature: {}\n  Cache-Control: max-age={MAX_AGE}\n",
        sign::DIRECTORY_TYPE,
        d.content_digest,
        d.signature_input,
        d.signature
    );
    super::site::put(&site_dir.join(HEADERS), headers.as_bytes())?;
    let nginx = format!(
        "# Written by publish: include in the site's server block. The key directory and the\n# response signature a static site cannot make per request (renewed daily).\nlocation = /{FILE} {{\n    default_type {};\n    add_header Content-Digest '{}' always;\n    add_header Signature-Input '{}' always;\n    add_header Signature '{}' always;\n    add_header Cache-Control 'max-age={MAX_AGE}' always;\n}}\n",
        sign::DIRECTORY_TYPE,
        d.content_digest,
        d.signature_input,
        d.signature
    );
    super::site::put(
        &server_dir.join("nginx-signatures-directory.conf"),
        nginx.as_bytes(),
    )?;
    Ok(vec![FILE.to_string(), HEADERS.to_string()])
}

/// The key directory as published in `kept` (a site): the files, copied into `site` when it
/// is another folder (a replay's), so that a publish without a key leaves it as it was.
/// Returns the files, named from the site's root.
pub fn keep(kept: &Path, site: &Path) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for f in [FILE, HEADERS] {
        let from = kept.join(f);
        let Ok(bytes) = std::fs::read(&from) else {
            continue;
        };
        if kept != site {
            super::site::put(&site.join(f), &bytes)?;
        }
        files.push(f.to_string());
    }
    Ok(files)
}

/// The ids of the keys a published directory lists (none if there is none, or it cannot
/// be read).
pub fn published_keyids(site: &Path) -> Vec<String> {
    std::fs::read(site.join(FILE))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| {
            v["keys"].as_array().map(|ks| {
                ks.iter()
                    .filter_map(|k| k["kid"].as_str().map(str::to_string))
                    .collect()
            })
        })
        .unwrap_or_default()
}
