//! The loopback web's check of every request's Web Bot Auth signature, as a publisher's
//! verifier would make it, and independent of HudukuBot's signer: the headers are parsed
//! with the `sfv` crate (RFC 9651), the signature base is rebuilt from what arrived, and
//! the signature is checked with the public keys of a JWK Set (the one `publish` serves).
//!
//! The result goes into the request log (`signature`): `verified`, or why not. The time is
//! not judged here (the web cannot know a test's `--now`); `created`, `expires` and the
//! nonce are logged, with whether the nonce was seen before, for the tests to judge.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sfv::{BareItem, Dictionary, FieldType, InnerList, Item, List, ListEntry, Parser};
use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

/// What the web found in one request's signature.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Check {
    /// `verified`, `unsigned`, `malformed`, `not-web-bot-auth`, `unknown-key` or
    /// `bad-signature`.
    pub verdict: String,
    /// Why, when not verified.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub why: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
    /// Whether this nonce had been seen before by this web.
    #[serde(default)]
    pub nonce_seen_before: bool,
    /// The form of `Signature-Agent`: `dictionary` or `string`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_form: Option<String>,
    /// The `Signature-Agent` value the signature covers (the URL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
}

/// The keys the web trusts, by thumbprint, the nonces it has seen, and (when given) its
/// clock: the time it started at, in seconds since the epoch, advancing with the wall clock.
#[derive(Default)]
pub struct Verifier {
    keys: BTreeMap<String, ed25519_dalek::VerifyingKey>,
    nonces: Mutex<HashSet<String>>,
    clock: Option<(i64, std::time::Instant)>,
}

/// How far ahead of the web's clock a signature's `created` may be (clocks differ).
pub const SKEW: i64 = 60;

impl Verifier {
    /// Reads a JWK Set (`{"keys":[{"kty":"OKP","crv":"Ed25519","x":…,"kid":…}]}`). A key's
    /// id is its `kid`, checked against the thumbprint computed here.
    pub fn from_jwks(text: &str) -> anyhow::Result<Verifier> {
        let v: serde_json::Value = serde_json::from_str(text)?;
        let mut keys = BTreeMap::new();
        for k in v["keys"].as_array().into_iter().flatten() {
            let (Some("OKP"), Some("Ed25519"), Some(x)) =
                (k["kty"].as_str(), k["crv"].as_str(), k["x"].as_str())
            else {
                anyhow::bail!("not an Ed25519 JWK: {k}");
            };
            let bytes: [u8; 32] = URL_SAFE_NO_PAD
                .decode(x)?
                .try_into()
                .map_err(|_| anyhow::anyhow!("x is not 32 bytes"))?;
            // The thumbprint, computed here from the JWK's required members in order.
            let canonical = serde_json::json!({"crv": "Ed25519", "kty": "OKP", "x": x}).to_string();
            use sha2::Digest;
            let kid = URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(canonical.as_bytes()));
            if let Some(given) = k["kid"].as_str()
                && given != kid
            {
                anyhow::bail!("kid {given} is not the key's thumbprint {kid}");
            }
            keys.insert(kid, ed25519_dalek::VerifyingKey::from_bytes(&bytes)?);
        }
        Ok(Verifier {
            keys,
            nonces: Mutex::new(HashSet::new()),
            clock: None,
        })
    }

    /// Judges time too, as a publisher's verifier does: from now on the web's clock reads
    /// `start` (seconds since the epoch) and runs on with the wall clock.
    pub fn with_clock(mut self, start: i64) -> Verifier {
        self.clock = Some((start, std::time::Instant::now()));
        self
    }

    /// Checks a request's signature. `headers` are lower-cased names.
    pub fn check(&self, headers: &BTreeMap<String, String>) -> Check {
        let mut c = Check::default();
        match self.verify(headers, &mut c).and_then(|()| self.in_time(&c)) {
            Ok(()) => c.verdict = "verified".into(),
            Err((verdict, why)) => {
                c.verdict = verdict.into();
                c.why = why;
            }
        }
        c
    }

    /// On the web's clock, if it has one: not expired, not made in the future.
    fn in_time(&self, c: &Check) -> Result<(), (&'static str, String)> {
        let Some((start, at)) = self.clock else {
            return Ok(());
        };
        let now = start + at.elapsed().as_secs() as i64;
        let (created, expires) = (c.created.unwrap_or(0), c.expires.unwrap_or(0));
        if expires <= now {
            return Err((
                "expired",
                format!("expires {expires}, the web's clock {now}"),
            ));
        }
        if created > now + SKEW {
            return Err((
                "not-yet-valid",
                format!("created {created}, the web's clock {now}"),
            ));
        }
        Ok(())
    }

    fn verify(
        &self,
        headers: &BTreeMap<String, String>,
        c: &mut Check,
    ) -> Result<(), (&'static str, String)> {
        let malformed = |w: String| ("malformed", w);
        let (Some(input), Some(sig)) = (headers.get("signature-input"), headers.get("signature"))
        else {
            return Err(("unsigned", "no Signature-Input or Signature".into()));
        };
        let inputs: Dictionary = Parser::new(input)
            .parse()
            .map_err(|e| malformed(format!("Signature-Input: {e}")))?;
        let sigs: Dictionary = Parser::new(sig)
            .parse()
            .map_err(|e| malformed(format!("Signature: {e}")))?;
        // The signature tagged web-bot-auth.
        let (label, list) = inputs
            .iter()
            .find_map(|(k, v)| match v {
                ListEntry::InnerList(l)
                    if matches!(l.params.get("tag"), Some(BareItem::String(t)) if t.as_str() == "web-bot-auth") =>
                {
                    Some((k.clone(), l.clone()))
                }
                _ => None,
            })
            .ok_or(("not-web-bot-auth", "no signature tagged web-bot-auth".to_string()))?;
        let int = |name: &str| match list.params.get(name) {
            Some(BareItem::Integer(i)) => Some(i64::from(*i)),
            _ => None,
        };
        let string = |name: &str| match list.params.get(name) {
            Some(BareItem::String(s)) => Some(s.as_str().to_string()),
            _ => None,
        };
        c.created = int("created");
        c.expires = int("expires");
        c.keyid = string("keyid");
        c.nonce = string("nonce");
        if let Some(n) = &c.nonce {
            c.nonce_seen_before = !self
                .nonces
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(n.clone());
        }
        if let Some(alg) = string("alg")
            && alg != "ed25519"
        {
            return Err(malformed(format!("alg {alg}")));
        }
        let (Some(_), Some(_), Some(keyid)) = (c.created, c.expires, c.keyid.clone()) else {
            return Err(malformed("created, expires and keyid are required".into()));
        };
        let key = self
            .keys
            .get(&keyid)
            .ok_or(("unknown-key", format!("keyid {keyid}")))?;
        let signature = match sigs.get(&label) {
            Some(ListEntry::Item(Item {
                bare_item: BareItem::ByteSequence(b),
                ..
            })) => b.clone(),
            _ => return Err(malformed(format!("no Signature member {}", label.as_str()))),
        };
        // The signature base, rebuilt from the request as it arrived.
        let mut base = String::new();
        let (mut authority, mut agent) = (false, false);
        for item in &list.items {
            let BareItem::String(name) = &item.bare_item else {
                return Err(malformed("a covered component is not a string".into()));
            };
            let value = match name.as_str() {
                "@authority" => {
                    authority = true;
                    headers
                        .get("host")
                        .map(|h| h.trim().to_ascii_lowercase())
                        .ok_or_else(|| malformed("no Host".into()))?
                }
                "signature-agent" => {
                    agent = true;
                    let raw = headers
                        .get("signature-agent")
                        .ok_or_else(|| malformed("no Signature-Agent".into()))?;
                    match item.params.get("key") {
                        Some(BareItem::String(member)) => {
                            let dict: Dictionary = Parser::new(raw)
                                .parse()
                                .map_err(|e| malformed(format!("Signature-Agent: {e}")))?;
                            let entry = dict
                                .iter()
                                .find(|(k, _)| k.as_str() == member.as_str())
                                .map(|(_, v)| v.clone())
                                .ok_or_else(|| {
                                    malformed(format!(
                                        "no Signature-Agent member {}",
                                        member.as_str()
                                    ))
                                })?;
                            let ListEntry::Item(it) = entry else {
                                return Err(malformed("Signature-Agent member is a list".into()));
                            };
                            if let BareItem::String(s) = &it.bare_item {
                                c.agent = Some(s.as_str().to_string());
                            }
                            c.agent_form = Some("dictionary".into());
                            Item::new(it.bare_item.clone()).serialize()
                        }
                        _ => {
                            let it: Item = Parser::new(raw)
                                .parse()
                                .map_err(|e| malformed(format!("Signature-Agent: {e}")))?;
                            if let BareItem::String(s) = &it.bare_item {
                                c.agent = Some(s.as_str().to_string());
                            }
                            c.agent_form = Some("string".into());
                            raw.trim().to_string()
                        }
                    }
                }
                other if other.starts_with('@') => {
                    return Err(malformed(format!("unexpected component {other}")));
                }
                other => headers
                    .get(other)
                    .map(|v| v.trim().to_string())
                    .ok_or_else(|| malformed(format!("no {other} header")))?,
            };
            let id = List::from_iter([ListEntry::Item(item.clone())])
                .serialize()
                .unwrap_or_default();
            base.push_str(&id);
            base.push_str(": ");
            base.push_str(&value);
            base.push('\n');
        }
        if !(authority && agent) {
            return Err((
                "not-web-bot-auth",
                "the signature must cover @authority and signature-agent".into(),
            ));
        }
        let params = List::from_iter([ListEntry::InnerList(InnerList::with_params(
            list.items.clone(),
            list.params.clone(),
        ))])
        .serialize()
        .unwrap_or_default();
        base.push_str("\"@signature-params\": ");
        base.push_str(&params);
        let sig: [u8; 64] = signature
            .as_slice()
            .try_into()
            .map_err(|_| ("bad-signature", "not 64 bytes".to_string()))?;
        key.verify_strict(base.as_bytes(), &ed25519_dalek::Signature::from_bytes(&sig))
            .map_err(|_| ("bad-signature", "does not verify".to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTOR_JWKS: &str = r#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}"#;

    fn headers(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_drafts_two_requests_verify_and_a_changed_byte_does_not() {
        let v = Verifier::from_jwks(VECTOR_JWKS).unwrap();
        let dict = headers(&[
            ("host", "example.com"),
            (
                "signature-agent",
                r#"agent2="https://signature-agent.test""#,
            ),
            (
                "signature-input",
                r#"sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth""#,
            ),
            (
                "signature",
                "sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:",
            ),
        ]);
        let c = v.check(&dict);
        assert_eq!(c.verdict, "verified", "{c:?}");
        assert_eq!(c.agent.as_deref(), Some("https://signature-agent.test"));
        assert_eq!(c.agent_form.as_deref(), Some("dictionary"));
        assert!(!c.nonce_seen_before);
        assert!(
            v.check(&dict).nonce_seen_before,
            "the second time, the nonce is known"
        );
        let legacy = headers(&[
            ("host", "example.com"),
            ("signature-agent", r#""https://signature-agent.test""#),
            (
                "signature-input",
                r#"sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth""#,
            ),
            (
                "signature",
                "sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:",
            ),
        ]);
        assert_eq!(v.check(&legacy).verdict, "verified");
        let mut other_host = legacy.clone();
        other_host.insert("host".into(), "example.org".into());
        assert_eq!(v.check(&other_host).verdict, "bad-signature");
        assert_eq!(v.check(&headers(&[("host", "x")])).verdict, "unsigned");
        let none = Verifier::from_jwks(r#"{"keys":[]}"#).unwrap();
        assert_eq!(none.check(&legacy).verdict, "unknown-key");
    }
}
