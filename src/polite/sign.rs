//! Signed requests: every request HudukuBot sends carries an HTTP Message Signature
//! (RFC 9421) under Web Bot Auth (`draft-ietf-webbotauth-httpsig-protocol`, -01), so a
//! publisher can tell HudukuBot from anyone who copies its user agent.
//!
//! - The key is Ed25519 (`ed25519-dalek`; the curve is never implemented here), kept as a
//!   private JWK in a file outside any git working tree that only its owner can read
//!   ([`Key::load`]); [`Key::generate`] makes one. Its `keyid` is the JWK SHA-256
//!   thumbprint (RFC 7638, RFC 8037 A.3).
//! - Each request covers `@authority` and the `Signature-Agent` header (the member keyed
//!   to the signature's label in the dictionary forms), with `created`, `expires`
//!   ([`LIFETIME`] later), `keyid`, `alg="ed25519"`, a fresh `nonce` and
//!   `tag="web-bot-auth"`. The time is the run's clock: `--now` plus the time the run has
//!   taken, so a test's signatures are as deterministic as its `--now`.
//! - `Signature-Agent` has three forms in the field ([`AgentForm`]); the default is the
//!   working group's current one, and the form is a setting.
//! - The key directory (a JWK Set) and its signed response are what `publish` writes at
//!   `/.well-known/http-message-signatures-directory` ([`directory`]).
//!
//! Serialisation here is by hand and pinned byte for byte by the published vectors (the
//! draft's appendix and RFC 9421 B.2.6); the loopback web verifies with an independent
//! parser (`sfv`), so the two cannot share a mistake.

use anyhow::{Context, Result, bail};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use ed25519_dalek::{Signer as _, SigningKey};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// How long a request's signature is good for, from its `created`.
pub const LIFETIME: i64 = 300;
/// How long the key directory's response signature is good for: renewed by every daily
/// run, so a day or two missed does not break verification.
pub const DIRECTORY_LIFETIME: i64 = 7 * 24 * 3600;
/// Where the key directory is, below the origin named in the user agent.
pub const DIRECTORY_PATH: &str = "/.well-known/http-message-signatures-directory";
/// Its media type.
pub const DIRECTORY_TYPE: &str = "application/http-message-signatures-directory+json";
/// The environment variable naming the private key file.
pub const KEY_ENV: &str = "HUDUKU_SIGNING_KEY";
/// The environment variable choosing the `Signature-Agent` form.
pub const FORM_ENV: &str = "HUDUKU_SIGNATURE_AGENT";
/// The label of HudukuBot's signature, and of its `Signature-Agent` member.
pub const LABEL: &str = "sig1";

/// An Ed25519 key pair and its thumbprint.
pub struct Key {
    signing: SigningKey,
    /// The JWK SHA-256 thumbprint of the public key, base64url: the `keyid`.
    pub keyid: String,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the private half.
        write!(f, "Key({})", self.keyid)
    }
}

#[derive(serde::Deserialize)]
struct PrivateJwk {
    kty: String,
    crv: String,
    x: String,
    d: String,
}

/// The RFC 7638 thumbprint of an Ed25519 public key (its members in lexical order).
pub fn thumbprint(public: &[u8; 32]) -> String {
    let x = URL_SAFE_NO_PAD.encode(public);
    let canonical = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{x}"}}"#);
    URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
}

impl Key {
    /// A key from its 32-byte private seed.
    pub fn from_seed(seed: &[u8; 32]) -> Key {
        let signing = SigningKey::from_bytes(seed);
        let keyid = thumbprint(&signing.verifying_key().to_bytes());
        Key { signing, keyid }
    }

    /// The public key, 32 bytes.
    pub fn public(&self) -> [u8; 32] {
        self.signing.verifying_key().to_bytes()
    }

    /// The public key as the directory lists it:
    /// `{"kty":"OKP","crv":"Ed25519","kid":…,"x":…,"use":"sig"}`.
    pub fn public_jwk(&self) -> String {
        format!(
            r#"{{"kty":"OKP","crv":"Ed25519","kid":"{}","x":"{}","use":"sig"}}"#,
            self.keyid,
            URL_SAFE_NO_PAD.encode(self.public())
        )
    }

    /// The private JWK, as the key file holds it.
    fn private_jwk(&self) -> String {
        format!(
            "{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"{}\",\"x\":\"{}\",\"d\":\"{}\"}}\n",
            self.keyid,
            URL_SAFE_NO_PAD.encode(self.public()),
            URL_SAFE_NO_PAD.encode(self.signing.to_bytes())
        )
    }

    /// Signs bytes (a signature base).
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.signing.sign(message).to_bytes()
    }

    /// Reads a private key file: a JWK (`kty` OKP, `crv` Ed25519, `x`, `d`) that only its
    /// owner may read, outside any git working tree. Every refusal names the file and says
    /// what to do.
    pub fn load(path: &Path) -> Result<Key> {
        let shown = path.display();
        check_place(path)?;
        let meta = std::fs::metadata(path).with_context(|| {
            format!(
                "the signing key {shown} cannot be read: make one with `signing-key new {shown}`"
            )
        })?;
        if !meta.is_file() {
            bail!("the signing key {shown} is not a file");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                bail!(
                    "the signing key {shown} can be read by others (mode {mode:03o}): `chmod 600 {shown}`, and make a new key if anyone else may have read it"
                );
            }
        }
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the signing key {shown}"))?;
        let jwk: PrivateJwk = serde_json::from_str(&text).map_err(|_| {
            anyhow::anyhow!("the signing key {shown} is not an Ed25519 private JWK")
        })?;
        if jwk.kty != "OKP" || jwk.crv != "Ed25519" {
            bail!(
                "the signing key {shown} is {} {}, not OKP Ed25519",
                jwk.kty,
                jwk.crv
            );
        }
        let seed: [u8; 32] = URL_SAFE_NO_PAD
            .decode(jwk.d.trim())
            .ok()
            .and_then(|d| d.try_into().ok())
            .ok_or_else(|| {
                anyhow::anyhow!("the signing key {shown}: `d` is not 32 bytes of base64url")
            })?;
        let key = Key::from_seed(&seed);
        if URL_SAFE_NO_PAD.encode(key.public()) != jwk.x.trim() {
            bail!("the signing key {shown}: `x` is not the public half of `d`");
        }
        Ok(key)
    }

    /// Makes a new key from the operating system's randomness and writes it to `path`
    /// (which must not exist), readable by its owner only.
    pub fn generate(path: &Path) -> Result<Key> {
        check_place(path)?;
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
        let key = Key::from_seed(&seed);
        if let Some(dir) = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty() && !d.exists())
        {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            // A folder made for the key is its owner's alone too.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
            }
        }
        let mut open = std::fs::OpenOptions::new();
        open.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            open.mode(0o600);
        }
        let mut f = open.open(path).with_context(|| {
            format!(
                "creating {} (an existing key is never overwritten)",
                path.display()
            )
        })?;
        use std::io::Write;
        f.write_all(key.private_jwk().as_bytes())?;
        f.sync_all()?;
        Ok(key)
    }
}

/// A private key never lives in a git working tree (it would be one `git add` from public).
fn check_place(path: &Path) -> Result<()> {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    for dir in abs.ancestors().skip(1) {
        if dir.join(".git").exists() {
            bail!(
                "the signing key {} is inside the git working tree {}: keep it outside any repository (for example in /etc/huduku/ or ~/.config/huduku/)",
                path.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// The form of the `Signature-Agent` header: verifiers in the field still differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentForm {
    /// `sig1="https://huduku.org/.well-known/http-message-signatures-directory"`: a
    /// dictionary whose member is the key set's own address (the working group's -01). The
    /// default: the current draft, and a verifier needs no convention to find the keys.
    Directory,
    /// `sig1="https://huduku.org"`: a dictionary whose member is the origin, the directory
    /// at its well-known path (-00; Cloudflare's `web-bot-auth` crate).
    Origin,
    /// `"https://huduku.org"`: a bare string, covered as `"signature-agent"` (the oldest
    /// form, still in Cloudflare's documentation).
    String,
}

impl AgentForm {
    /// Reads the setting: `directory`, `origin` or `string`.
    pub fn parse(s: &str) -> Result<AgentForm> {
        <AgentForm as clap::ValueEnum>::from_str(s.trim(), true).map_err(|_| {
            anyhow::anyhow!("{FORM_ENV}={s:?}: expected directory (the default), origin or string")
        })
    }
}

/// The origin the user agent names (`https://huduku.org`): where the key directory is.
pub fn agent_origin(user_agent: &str) -> Option<String> {
    let (_, rest) = user_agent.split_once("(+")?;
    let u = url::Url::parse(rest.split([')', ';', ' ']).next()?).ok()?;
    Some(u.origin().ascii_serialization())
}

/// A structured-field string: `"…"` with `\` and `"` escaped (the values here are URLs and
/// base64, plain ASCII).
fn sf_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The signature base of RFC 9421 §2.5: one line per covered component (its identifier,
/// `: `, its value), then `"@signature-params": PARAMS`, no final newline.
pub fn signature_base(components: &[(&str, &str)], params: &str) -> String {
    let mut base = String::new();
    for (id, value) in components {
        base.push_str(id);
        base.push_str(": ");
        base.push_str(value);
        base.push('\n');
    }
    base.push_str("\"@signature-params\": ");
    base.push_str(params);
    base
}

/// The `@signature-params` value: the covered identifiers, then each parameter in order.
/// A parameter is an integer or (quoted) a string.
pub fn signature_params(covered: &[&str], params: &[(&str, Param)]) -> String {
    let mut s = format!("({})", covered.join(" "));
    for (name, value) in params {
        s.push(';');
        s.push_str(name);
        s.push('=');
        match value {
            Param::Int(n) => s.push_str(&n.to_string()),
            Param::Str(v) => s.push_str(&sf_string(v)),
        }
    }
    s
}

/// A signature parameter's value.
#[derive(Debug, Clone)]
pub enum Param {
    Int(i64),
    Str(String),
}

/// A signature's three headers for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    pub signature_agent: String,
    pub signature_input: String,
    pub signature: String,
}

/// Where nonces come from: SHA-256 over a seed and a counter, 64 bytes a nonce. The seed is
/// the operating system's randomness, or given (tests), so no two nonces of a run repeat and
/// a test can name the ones it expects.
struct Nonces {
    seed: [u8; 32],
    next: u64,
}

impl Nonces {
    fn take(&mut self) -> String {
        let n = self.next;
        self.next += 1;
        let mut out = Vec::with_capacity(64);
        for half in 0u8..2 {
            let mut h = Sha256::new();
            h.update(self.seed);
            h.update(n.to_be_bytes());
            h.update([half]);
            out.extend_from_slice(&h.finalize());
        }
        STANDARD.encode(out)
    }
}

/// Signs HudukuBot's requests for one stage run.
pub struct Signer {
    key: Key,
    form: AgentForm,
    /// The `Signature-Agent` value as sent, and as covered.
    agent_header: String,
    agent_value: String,
    covered_agent: String,
    now: DateTime<Utc>,
    started: Instant,
    nonces: Mutex<Nonces>,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Signer({:?}, {:?})", self.key, self.form)
    }
}

impl Signer {
    /// A signer for a run that began at `now`, naming `origin` (`https://huduku.org`) as
    /// the signature agent in `form`. `nonce_seed` is for tests; `None` draws one.
    pub fn new(
        key: Key,
        form: AgentForm,
        origin: &str,
        now: DateTime<Utc>,
        nonce_seed: Option<[u8; 32]>,
    ) -> Result<Signer> {
        let seed = match nonce_seed {
            Some(s) => s,
            None => {
                let mut s = [0u8; 32];
                getrandom::fill(&mut s).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
                s
            }
        };
        let origin = origin.trim_end_matches('/');
        let (agent_header, agent_value, covered_agent) = match form {
            AgentForm::Directory => {
                let v = sf_string(&format!("{origin}{DIRECTORY_PATH}"));
                (
                    format!("{LABEL}={v}"),
                    v,
                    format!("\"signature-agent\";key=\"{LABEL}\""),
                )
            }
            AgentForm::Origin => {
                let v = sf_string(origin);
                (
                    format!("{LABEL}={v}"),
                    v,
                    format!("\"signature-agent\";key=\"{LABEL}\""),
                )
            }
            AgentForm::String => {
                let v = sf_string(origin);
                (v.clone(), v, "\"signature-agent\"".to_string())
            }
        };
        Ok(Signer {
            key,
            form,
            agent_header,
            agent_value,
            covered_agent,
            now,
            started: Instant::now(),
            nonces: Mutex::new(Nonces { seed, next: 0 }),
        })
    }

    pub fn keyid(&self) -> &str {
        &self.key.keyid
    }

    pub fn form(&self) -> AgentForm {
        self.form
    }

    /// The run's clock, in whole seconds: `--now` plus the time the run has taken.
    pub fn clock(&self) -> i64 {
        self.now.timestamp() + self.started.elapsed().as_secs() as i64
    }

    /// The signature headers for a request to `authority` (`host` or `host:port`, as the
    /// `Host` header carries it), made at the run's clock.
    pub fn sign(&self, authority: &str) -> Signed {
        let created = self.clock();
        let nonce = self.nonces.lock().unwrap_or_else(|e| e.into_inner()).take();
        self.sign_with(authority, created, created + LIFETIME, &nonce)
    }

    /// [`Signer::sign`] with the times and the nonce given.
    pub fn sign_with(&self, authority: &str, created: i64, expires: i64, nonce: &str) -> Signed {
        let covered = ["\"@authority\"", self.covered_agent.as_str()];
        let params = signature_params(
            &covered,
            &[
                ("created", Param::Int(created)),
                ("keyid", Param::Str(self.key.keyid.clone())),
                ("alg", Param::Str("ed25519".into())),
                ("expires", Param::Int(expires)),
                ("nonce", Param::Str(nonce.to_string())),
                ("tag", Param::Str("web-bot-auth".into())),
            ],
        );
        let base = signature_base(
            &[
                ("\"@authority\"", &authority.to_ascii_lowercase()),
                (self.covered_agent.as_str(), self.agent_value.as_str()),
            ],
            &params,
        );
        let sig = STANDARD.encode(self.key.sign(base.as_bytes()));
        Signed {
            signature_agent: self.agent_header.clone(),
            signature_input: format!("{LABEL}={params}"),
            signature: format!("{LABEL}=:{sig}:"),
        }
    }
}

/// The `@authority` of a URL: its host, lower-cased, with the port when it is not the
/// scheme's default (as the `Host` header carries it).
pub fn authority(url: &url::Url) -> String {
    let host = match url.host() {
        Some(url::Host::Ipv6(a)) => format!("[{a}]"),
        Some(h) => h.to_string().to_ascii_lowercase(),
        None => String::new(),
    };
    match url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host,
    }
}

/// The key directory and its response signature, as `publish` serves them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directory {
    /// The JWK Set, exactly the bytes served (no final newline: the digest covers them).
    pub body: String,
    pub content_digest: String,
    /// `Signature-Input` and `Signature`, one member per key.
    pub signature_input: String,
    pub signature: String,
}

/// The key directory of `keys` (the first the one requests are signed with now; two during
/// a changeover), its `Content-Digest` (RFC 9530), and a response signature per key over
/// `"@authority";req` (the site serving it, `authority`) and `content-digest`, tagged
/// `http-message-signatures-directory`, made at `created`.
pub fn directory(keys: &[&Key], authority: &str, created: i64) -> Directory {
    let members: Vec<String> = keys.iter().map(|k| k.public_jwk()).collect();
    let body = format!("{{\"keys\":[{}]}}", members.join(","));
    let content_digest = format!(
        "sha-256=:{}:",
        STANDARD.encode(Sha256::digest(body.as_bytes()))
    );
    let mut inputs = Vec::new();
    let mut sigs = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let label = format!("sig{}", i + 1);
        let (input, sig) = directory_signature(
            k,
            authority,
            &content_digest,
            created,
            created + DIRECTORY_LIFETIME,
        );
        inputs.push(format!("{label}={input}"));
        sigs.push(format!("{label}=:{sig}:"));
    }
    Directory {
        body,
        content_digest,
        signature_input: inputs.join(", "),
        signature: sigs.join(", "),
    }
}

/// One key's directory signature: its `@signature-params` and the signature, base64.
pub fn directory_signature(
    key: &Key,
    authority: &str,
    content_digest: &str,
    created: i64,
    expires: i64,
) -> (String, String) {
    let params = signature_params(
        &["\"@authority\";req", "\"content-digest\""],
        &[
            ("created", Param::Int(created)),
            ("expires", Param::Int(expires)),
            ("keyid", Param::Str(key.keyid.clone())),
            (
                "tag",
                Param::Str("http-message-signatures-directory".into()),
            ),
        ],
    );
    let base = signature_base(
        &[
            ("\"@authority\";req", authority),
            ("\"content-digest\"", content_digest),
        ],
        &params,
    );
    (params, STANDARD.encode(key.sign(base.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 9421 B.1.4's Ed25519 test key (never a production key).
    fn test_key() -> Key {
        let d: [u8; 32] = URL_SAFE_NO_PAD
            .decode("n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU")
            .unwrap()
            .try_into()
            .unwrap();
        Key::from_seed(&d)
    }

    const KID: &str = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";

    #[test]
    fn the_test_keys_thumbprint_is_the_drafts_keyid() {
        let k = test_key();
        assert_eq!(
            URL_SAFE_NO_PAD.encode(k.public()),
            "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"
        );
        assert_eq!(k.keyid, KID);
    }

    /// The draft's dictionary-form request (E.2.1): byte for byte.
    #[test]
    fn the_drafts_dictionary_form_vector_reproduces() {
        let k = test_key();
        let params = signature_params(
            &["\"@authority\"", "\"signature-agent\";key=\"agent2\""],
            &[
                ("created", Param::Int(1735689600)),
                ("keyid", Param::Str(KID.into())),
                ("alg", Param::Str("ed25519".into())),
                ("expires", Param::Int(4889289600)),
                ("nonce", Param::Str("n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==".into())),
                ("tag", Param::Str("web-bot-auth".into())),
            ],
        );
        assert_eq!(
            params,
            r#"("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth""#
        );
        let base = signature_base(
            &[
                ("\"@authority\"", "example.com"),
                (
                    "\"signature-agent\";key=\"agent2\"",
                    "\"https://signature-agent.test\"",
                ),
            ],
            &params,
        );
        assert_eq!(
            STANDARD.encode(k.sign(base.as_bytes())),
            "RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg=="
        );
    }

    /// The draft's legacy-form request (E.2.2), through the signer itself.
    #[test]
    fn the_drafts_legacy_form_vector_reproduces_through_the_signer() {
        let now = DateTime::from_timestamp(1735689600, 0).unwrap();
        let s = Signer::new(
            test_key(),
            AgentForm::String,
            "https://signature-agent.test",
            now,
            Some([7; 32]),
        )
        .unwrap();
        let signed = s.sign_with(
            "example.com",
            1735689600,
            1735693200,
            "e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==",
        );
        assert_eq!(signed.signature_agent, "\"https://signature-agent.test\"");
        assert_eq!(
            signed.signature_input,
            r#"sig1=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth""#
        );
        assert_eq!(
            signed.signature,
            "sig1=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:"
        );
    }

    /// The signed directory response of the draft (Cloudflare's test data), byte for byte.
    #[test]
    fn the_drafts_signed_directory_vector_reproduces() {
        let k = test_key();
        let d = directory(&[&k], "signature-agent.test", 1735689600);
        assert_eq!(
            d.body,
            r#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}"#
        );
        assert_eq!(
            d.content_digest,
            "sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:"
        );
        let (params, sig) = directory_signature(
            &k,
            "signature-agent.test",
            &d.content_digest,
            1735689600,
            4889289600,
        );
        assert_eq!(
            params,
            r#"("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory""#
        );
        assert_eq!(
            sig,
            "l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg=="
        );
    }

    /// RFC 9421 Appendix B.2.6: Ed25519 over a POST's date, method, path, authority,
    /// content type and length.
    #[test]
    fn rfc_9421_b_2_6_reproduces() {
        let k = test_key();
        let covered = [
            "\"date\"",
            "\"@method\"",
            "\"@path\"",
            "\"@authority\"",
            "\"content-type\"",
            "\"content-length\"",
        ];
        let params = signature_params(
            &covered,
            &[
                ("created", Param::Int(1618884473)),
                ("keyid", Param::Str("test-key-ed25519".into())),
            ],
        );
        let base = signature_base(
            &[
                ("\"date\"", "Tue, 20 Apr 2021 02:07:55 GMT"),
                ("\"@method\"", "POST"),
                ("\"@path\"", "/foo"),
                ("\"@authority\"", "example.com"),
                ("\"content-type\"", "application/json"),
                ("\"content-length\"", "18"),
            ],
            &params,
        );
        assert_eq!(
            STANDARD.encode(k.sign(base.as_bytes())),
            "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw=="
        );
    }

    #[test]
    fn each_form_names_the_agent_as_its_draft_does() {
        let now = DateTime::from_timestamp(1_764_480_000, 0).unwrap();
        let sign = |form| {
            Signer::new(test_key(), form, "https://huduku.org", now, Some([1; 32]))
                .unwrap()
                .sign("127.0.0.21:8080")
        };
        let d = sign(AgentForm::Directory);
        assert_eq!(
            d.signature_agent,
            "sig1=\"https://huduku.org/.well-known/http-message-signatures-directory\""
        );
        assert!(d.signature_input.starts_with(
            r#"sig1=("@authority" "signature-agent";key="sig1");created=1764480000;keyid=""#
        ));
        assert!(d.signature_input.contains(";expires=1764480300;nonce=\""));
        assert!(d.signature_input.ends_with(";tag=\"web-bot-auth\""));
        assert_eq!(
            sign(AgentForm::Origin).signature_agent,
            "sig1=\"https://huduku.org\""
        );
        let s = sign(AgentForm::String);
        assert_eq!(s.signature_agent, "\"https://huduku.org\"");
        assert!(
            s.signature_input
                .starts_with(r#"sig1=("@authority" "signature-agent");"#)
        );
        assert_eq!(AgentForm::parse("ORIGIN").unwrap(), AgentForm::Origin);
        assert!(AgentForm::parse("dict").is_err());
    }

    #[test]
    fn nonces_never_repeat_and_a_seed_names_them() {
        let now = DateTime::from_timestamp(1_764_480_000, 0).unwrap();
        let s = Signer::new(
            test_key(),
            AgentForm::Directory,
            "https://huduku.org",
            now,
            Some([9; 32]),
        )
        .unwrap();
        let t = Signer::new(
            test_key(),
            AgentForm::Directory,
            "https://huduku.org",
            now,
            Some([9; 32]),
        )
        .unwrap();
        let nonce = |x: &Signed| {
            x.signature_input
                .split("nonce=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_string()
        };
        let a: Vec<String> = (0..100).map(|_| nonce(&s.sign("a.example"))).collect();
        let set: std::collections::BTreeSet<&String> = a.iter().collect();
        assert_eq!(set.len(), 100);
        assert_eq!(
            nonce(&t.sign("a.example")),
            a[0],
            "the same seed, the same first nonce"
        );
        assert_eq!(STANDARD.decode(&a[0]).unwrap().len(), 64);
    }

    #[test]
    fn the_user_agent_names_the_agents_origin() {
        assert_eq!(
            agent_origin(super::super::USER_AGENT).as_deref(),
            Some("https://huduku.org")
        );
        let u = url::Url::parse("http://127.0.0.21:8080/feed").unwrap();
        assert_eq!(authority(&u), "127.0.0.21:8080");
        assert_eq!(
            authority(&url::Url::parse("https://WWW.Example.com:443/").unwrap()),
            "www.example.com"
        );
    }

    #[test]
    fn keys_outside_repositories_only_their_owner_can_read() {
        let dir = std::env::temp_dir().join(format!("huduku-sign-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("key.jwk");
        let made = Key::generate(&path).unwrap();
        let read = Key::load(&path).unwrap();
        assert_eq!(made.keyid, read.keyid);
        assert!(Key::generate(&path).is_err(), "never overwritten");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = format!("{:#}", Key::load(&path).unwrap_err());
        assert!(
            e.contains("can be read by others") && e.contains("chmod 600"),
            "{e}"
        );
        let missing = format!("{:#}", Key::load(&dir.join("none.jwk")).unwrap_err());
        assert!(missing.contains("signing-key new"), "{missing}");
        // Inside a git working tree: refused.
        std::fs::create_dir_all(dir.join("repo/.git")).unwrap();
        let e = format!(
            "{:#}",
            Key::generate(&dir.join("repo/keys/k.jwk")).unwrap_err()
        );
        assert!(e.contains("inside the git working tree"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!format!("{made:?}").contains(&URL_SAFE_NO_PAD.encode(made.signing.to_bytes())));
    }
}
