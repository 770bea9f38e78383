//! The learned topic model: a multinomial logistic regression over hashed features of a
//! headline (its words and the character 4- to 6-grams of each word), trained
//! on the headlines publishers filed themselves (`classify --train`).
//!
//! Everything in it is fixed so the same examples give the same bytes: the examples are
//! sorted and de-duplicated before training, the order they are visited in comes from a
//! seeded generator, the hash is FNV-1a (not the standard library's, whose algorithm may
//! change), and training runs on one thread. The file is small (the weights of
//! [`BUCKETS`] hashed features for each topic, as 16-bit integers, and a SHA-256 of them, so
//! a damaged file is refused, never half-read).
//!
//! Why not `linfa-logistic`: it takes a dense feature matrix, and hashed n-grams are sparse
//! (50,000 headlines × 65,536 features as `f64` would be 26 GB); the sparse stochastic
//! gradient descent below is sixty lines and needs nothing else.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

use super::{TOPICS, tokens};

/// Hashed feature buckets (2^16). More buckets changed the held-out accuracy by under a
/// point on the labelled outlets and quadrupled the file.
pub const BUCKETS: usize = 1 << 16;
/// Passes over the examples.
const EPOCHS: usize = 30;
/// The first pass's step; later passes take smaller ones (`LEARNING_RATE / (1 + epoch)`).
const LEARNING_RATE: f32 = 3.0;
/// The lengths of the character n-grams taken from each word (between boundary marks).
/// Chosen on the labelled outlets (docs/topics.md): 4 to 6 filed the outlets a model never
/// saw best; 2 to 4 and 3 to 5 were 2 to 8 points worse, and pairs of words did not help.
const NGRAMS: std::ops::RangeInclusive<usize> = 4..=6;
/// Weight decay per step on the weights a step touches.
const L2: f32 = 1e-5;
/// The seed of the order the examples are visited in.
const SEED: u64 = 0x4875_6475_6b75_2131; // "Huduku!1"
/// The first line of a model file.
const MAGIC: &str = "huduku-topic-model 1";

/// One training example: a headline its publisher filed under a topic.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Example {
    pub lang: String,
    pub topic: String,
    pub headline: String,
    /// The outlet, where known (the make target writes it; it is not needed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outlet: Option<String>,
}

/// Reads training examples (JSON lines with at least `headline`, `lang` and `topic`); a bad
/// line, or a topic outside the taxonomy, names file and line.
pub fn read_examples(path: &Path) -> Result<Vec<Example>> {
    let mut out = Vec::new();
    for (n, e) in crate::store::read_jsonl_numbered::<Example>(path)? {
        let at = format!("{}:{n}", path.display());
        if !TOPICS.contains(&e.topic.as_str()) {
            bail!(
                "{at}: topic {:?} is not in the taxonomy ({})",
                e.topic,
                TOPICS.join(", ")
            );
        }
        if e.lang.is_empty() || e.headline.trim().is_empty() {
            bail!("{at}: an example needs a language and a headline");
        }
        out.push(e);
    }
    if out.is_empty() {
        bail!("{}: no examples to train on", path.display());
    }
    Ok(out)
}

/// 64-bit FNV-1a, fed in parts.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(mut self, b: &[u8]) -> Fnv {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }
    fn bucket(self) -> u32 {
        let h = self.0 ^ (self.0 >> 29);
        (h as usize % BUCKETS) as u32
    }
}

/// The hashed features of a headline: its words (digits made `0`, so "₹52" and "₹48" are
/// one word) and the character n-grams ([`NGRAMS`]) of each word between boundary marks
/// (Kannada's endings and compounds share their stems: ಬೆಂಗಳೂರಿನಲ್ಲಿ and ಬೆಂಗಳೂರು meet).
/// Zero-width joiners go as [`tokens`] drops them. Sorted, each once.
pub fn features(lang: &str, text: &str, out: &mut Vec<u32>) {
    out.clear();
    let base = Fnv::new().bytes(lang.as_bytes()).bytes(b"\0");
    let words: Vec<String> = tokens(text)
        .into_iter()
        .map(|w| {
            w.chars()
                .map(|c| {
                    if c.is_ascii_digit() || ('\u{0ce6}'..='\u{0cef}').contains(&c) {
                        '0'
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect();
    let mut chars: Vec<char> = Vec::with_capacity(32);
    let mut buf = [0u8; 4];
    for w in &words {
        out.push(base.bytes(b"w").bytes(w.as_bytes()).bucket());
        chars.clear();
        chars.push('\u{2}');
        chars.extend(w.chars());
        chars.push('\u{3}');
        for n in NGRAMS {
            if chars.len() < n {
                break;
            }
            for gram in chars.windows(n) {
                let mut h = base.bytes(&[b'0' + n as u8]);
                for c in gram {
                    h = h.bytes(c.encode_utf8(&mut buf).as_bytes());
                }
                out.push(h.bucket());
            }
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// What the model says of one headline: its most likely topic and that topic's probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Guess {
    pub topic: &'static str,
    pub score: f32,
}

/// The confidence a guess needs, per language: `over` to decide before the lexicons,
/// `alone` to decide when the lexicons found nothing (else the headline is `other`). A
/// threshold of 1 means never: the held-out examples were filed best without the model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    pub over: f32,
    pub alone: f32,
}

/// A trained model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// `BUCKETS × TOPICS.len()` weights, a bucket's topics side by side.
    weights: Vec<f32>,
    bias: Vec<f32>,
    pub header: Header,
}

/// The model file's readable first part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub topics: Vec<String>,
    pub buckets: usize,
    /// Examples trained on, per language (after de-duplication).
    pub examples: BTreeMap<String, usize>,
    /// Confidence thresholds per language, chosen on a held-out part of the examples.
    pub thresholds: BTreeMap<String, Thresholds>,
    /// The scale of the 16-bit weights.
    pub scale: f32,
    /// SHA-256 of the weights as stored.
    pub sha256: String,
}

/// The seeded generator of the visiting order (SplitMix64).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Examples ready to train on: features, topic index.
struct Prepared {
    feats: Vec<Vec<u32>>,
    topic: Vec<usize>,
}

fn prepare(examples: &[&Example]) -> Prepared {
    let mut feats = Vec::with_capacity(examples.len());
    let mut topic = Vec::with_capacity(examples.len());
    let mut buf = Vec::new();
    for e in examples {
        features(&e.lang, &e.headline, &mut buf);
        feats.push(buf.clone());
        topic.push(TOPICS.iter().position(|t| *t == e.topic).unwrap_or(0));
    }
    Prepared { feats, topic }
}

fn softmax(scores: &mut [f32]) {
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for s in scores.iter_mut() {
        *s = (*s - max).exp();
        sum += *s;
    }
    for s in scores.iter_mut() {
        *s /= sum;
    }
}

/// Stochastic gradient descent on the log loss, one example at a time.
fn fit(data: &Prepared) -> (Vec<f32>, Vec<f32>) {
    let k = TOPICS.len();
    let mut w = vec![0f32; BUCKETS * k];
    let mut bias = vec![0f32; k];
    let mut order: Vec<usize> = (0..data.feats.len()).collect();
    let mut rng = SplitMix(SEED);
    let mut p = vec![0f32; k];
    for epoch in 0..EPOCHS {
        // Fisher–Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let lr = LEARNING_RATE / (1.0 + epoch as f32);
        for &i in &order {
            let f = &data.feats[i];
            if f.is_empty() {
                continue;
            }
            let v = 1.0 / (f.len() as f32).sqrt();
            p.copy_from_slice(&bias);
            for &b in f {
                let row = &w[b as usize * k..b as usize * k + k];
                for c in 0..k {
                    p[c] += row[c] * v;
                }
            }
            softmax(&mut p);
            p[data.topic[i]] -= 1.0;
            for c in 0..k {
                bias[c] -= lr * p[c] * 0.1;
            }
            for &b in f {
                let row = &mut w[b as usize * k..b as usize * k + k];
                for c in 0..k {
                    row[c] -= lr * (p[c] * v + L2 * row[c]);
                }
            }
        }
    }
    (w, bias)
}

impl Model {
    /// The model's guess for a headline: the most likely topic (ties to the taxonomy's
    /// order) and its probability.
    pub fn guess(&self, lang: &str, headline: &str, buf: &mut Vec<u32>) -> Option<Guess> {
        features(lang, headline, buf);
        if buf.is_empty() {
            return None;
        }
        let k = TOPICS.len();
        let v = 1.0 / (buf.len() as f32).sqrt();
        let mut p = self.bias.clone();
        for &b in buf.iter() {
            let row = &self.weights[b as usize * k..b as usize * k + k];
            for c in 0..k {
                p[c] += row[c] * v;
            }
        }
        softmax(&mut p);
        let mut best = 0;
        for c in 1..k {
            if p[c] > p[best] {
                best = c;
            }
        }
        Some(Guess {
            topic: TOPICS[best],
            score: p[best],
        })
    }

    /// The thresholds for a language (a language the model never saw: never confident).
    pub fn thresholds(&self, lang: &str) -> Thresholds {
        self.header
            .thresholds
            .get(lang)
            .copied()
            .unwrap_or(Thresholds {
                over: f32::INFINITY,
                alone: f32::INFINITY,
            })
    }

    /// Trains a model on `examples` with the given thresholds. The weights are stored as
    /// 16-bit integers; the model returned is the one a file of it would load.
    fn trained(examples: &[&Example], thresholds: BTreeMap<String, Thresholds>) -> Model {
        let data = prepare(examples);
        let (w, bias) = fit(&data);
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for e in examples {
            *counts.entry(e.lang.clone()).or_default() += 1;
        }
        let max = w
            .iter()
            .chain(&bias)
            .fold(0f32, |m, x| m.max(x.abs()))
            .max(1e-6);
        let scale = max / 32767.0;
        let q = |x: f32| ((x / scale).round() as i16) as f32 * scale;
        let weights: Vec<f32> = w.iter().map(|&x| q(x)).collect();
        let bias: Vec<f32> = bias.iter().map(|&x| q(x)).collect();
        let mut m = Model {
            weights,
            bias,
            header: Header {
                topics: TOPICS.iter().map(|t| t.to_string()).collect(),
                buckets: BUCKETS,
                examples: counts,
                thresholds,
                scale,
                sha256: String::new(),
            },
        };
        m.header.sha256 = crate::store::sha256_hex(&m.payload());
        m
    }

    fn payload(&self) -> Vec<u8> {
        let s = self.header.scale;
        let mut out = Vec::with_capacity((self.weights.len() + self.bias.len()) * 2);
        for x in self.bias.iter().chain(&self.weights) {
            out.extend_from_slice(&((x / s).round() as i16).to_le_bytes());
        }
        out
    }

    /// The file's bytes: the magic line, the header as one JSON line, the weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC}\n{}\n",
            serde_json::to_string(&self.header).expect("a header serialises")
        )
        .into_bytes();
        out.extend(self.payload());
        out
    }

    /// Reads a model file: a missing, truncated, damaged or foreign file is a clear error.
    pub fn load(path: &Path) -> Result<Model> {
        let bytes = std::fs::read(path)
            .with_context(|| format!("reading the topic model {}", path.display()))?;
        Model::from_bytes(&bytes).with_context(|| {
            format!(
                "{} is not a usable topic model (train one with classify --train EXAMPLES --model FILE)",
                path.display()
            )
        })
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Model> {
        let mut lines = bytes.splitn(3, |&b| b == b'\n');
        let magic = lines.next().unwrap_or_default();
        if magic != MAGIC.as_bytes() {
            bail!("it does not start with {MAGIC:?}");
        }
        let header: Header = serde_json::from_slice(lines.next().unwrap_or_default())
            .context("its header line is not the model's JSON header")?;
        let payload = lines.next().unwrap_or_default();
        let k = TOPICS.len();
        if header.topics != TOPICS {
            bail!(
                "it was trained for the topics {:?}, not this taxonomy",
                header.topics
            );
        }
        if header.buckets != BUCKETS {
            bail!("it has {} feature buckets, not {BUCKETS}", header.buckets);
        }
        let want = (k + BUCKETS * k) * 2;
        if payload.len() != want {
            bail!(
                "its weights are {} bytes, not {want} (a truncated or damaged file)",
                payload.len()
            );
        }
        if crate::store::sha256_hex(payload) != header.sha256 {
            bail!("its weights do not match their SHA-256 (a damaged file)");
        }
        let vals: Vec<f32> = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]) as f32 * header.scale)
            .collect();
        Ok(Model {
            bias: vals[..k].to_vec(),
            weights: vals[k..].to_vec(),
            header,
        })
    }

    /// Writes the model atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::store::write_atomic(path, &self.to_bytes())
    }
}

/// Sorted, each (lang, headline) once: the first topic in sorted order stands when the same
/// headline came filed under two topics.
fn canonical(examples: &[Example]) -> Vec<&Example> {
    let mut v: Vec<&Example> = examples.iter().collect();
    v.sort_by(|a, b| (&a.lang, &a.headline, &a.topic).cmp(&(&b.lang, &b.headline, &b.topic)));
    v.dedup_by(|a, b| a.lang == b.lang && a.headline == b.headline);
    v
}

/// Whether an example is in the held-out part the thresholds are chosen on: one in five,
/// by a hash of its headline (so it does not depend on what else is in the set).
fn held_out(e: &Example) -> bool {
    Fnv::new().bytes(e.headline.as_bytes()).0 % 5 == 0
}

/// What a threshold choice is scored against: the lexicons' answer for a held-out headline.
pub type LexiconAnswer<'a> = dyn Fn(&Example) -> Option<String> + 'a;

/// Trains a model: first on four fifths of the examples, to choose per language the
/// thresholds that file the held-out fifth best together with the lexicons (the model
/// before the lexicons when at least `over` sure, after them when at least `alone`, else
/// `other`); then on every example, keeping those thresholds.
pub fn train(examples: &[Example], lexicon: &LexiconAnswer) -> Model {
    let all = canonical(examples);
    let (held, fit_on): (Vec<&Example>, Vec<&Example>) = all.iter().partition(|e| held_out(e));
    let first = Model::trained(&fit_on, BTreeMap::new());
    let mut by_lang: BTreeMap<&str, Vec<(&Example, Option<Guess>, Option<String>)>> =
        BTreeMap::new();
    let mut buf = Vec::new();
    for e in &held {
        let g = first.guess(&e.lang, &e.headline, &mut buf);
        by_lang
            .entry(e.lang.as_str())
            .or_default()
            .push((e, g, lexicon(e)));
    }
    let mut thresholds = BTreeMap::new();
    for lang in all
        .iter()
        .map(|e| e.lang.as_str())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let rows = by_lang.get(lang).map(Vec::as_slice).unwrap_or(&[]);
        // The hand-labelled examples are the ones the lexicons were written on, so the
        // lexicons look better on them than on any outlet's: the thresholds are chosen on
        // the publishers' filed headlines where there are enough of them.
        let filed: Vec<_> = rows
            .iter()
            .filter(|r| r.0.outlet.is_some())
            .cloned()
            .collect();
        let on = if filed.len() >= MIN_HELD_OUT {
            &filed[..]
        } else {
            rows
        };
        thresholds.insert(lang.to_string(), choose(on));
    }
    Model::trained(&all, thresholds)
}

/// Held-out examples needed to choose thresholds by.
const MIN_HELD_OUT: usize = 20;

/// The grid of thresholds tried.
fn grid() -> impl Iterator<Item = f32> {
    (20..=100).map(|i| i as f32 / 100.0)
}

/// The pair of thresholds that files `rows` best (ties to the higher thresholds: trust the
/// lexicons and `other` over an unsure model). Too few held-out rows to judge: the model
/// decides only when nearly sure.
fn choose(rows: &[(&Example, Option<Guess>, Option<String>)]) -> Thresholds {
    if rows.len() < MIN_HELD_OUT {
        return Thresholds {
            over: 0.9,
            alone: 0.9,
        };
    }
    let mut best = (
        0usize,
        Thresholds {
            over: 1.0,
            alone: 1.0,
        },
    );
    for over in grid() {
        for alone in grid().filter(|a| *a <= over) {
            let right = rows
                .iter()
                .filter(|(e, g, lex)| {
                    let said = match (g, lex) {
                        (Some(g), _) if g.score >= over => g.topic,
                        (_, Some(l)) => l.as_str(),
                        (Some(g), None) if g.score >= alone => g.topic,
                        _ => "other",
                    };
                    said == e.topic
                })
                .count();
            if right >= best.0 {
                best = (right, Thresholds { over, alone });
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(lang: &str, topic: &str, headline: &str) -> Example {
        Example {
            lang: lang.into(),
            topic: topic.into(),
            headline: headline.into(),
            outlet: None,
        }
    }

    fn small_set() -> Vec<Example> {
        let mut v = Vec::new();
        for i in 0..30 {
            v.push(ex(
                "en",
                "sport",
                &format!("Karnataka win Ranji match by {i} runs"),
            ));
            v.push(ex(
                "en",
                "crime",
                &format!("Police arrest {i} in chain snatching case"),
            ));
            v.push(ex("kn", "sport", &format!("ರಣಜಿ ಪಂದ್ಯ: ಕರ್ನಾಟಕಕ್ಕೆ {i} ರನ್ ಜಯ")));
            v.push(ex("kn", "crime", &format!("ಸರಗಳ್ಳತನ ಪ್ರಕರಣ: {i} ಆರೋಪಿಗಳ ಬಂಧನ")));
        }
        v
    }

    #[test]
    fn the_same_examples_give_the_same_bytes_in_any_order() {
        let set = small_set();
        let a = train(&set, &|_| None).to_bytes();
        let mut rev = set.clone();
        rev.reverse();
        let b = train(&rev, &|_| None).to_bytes();
        assert_eq!(a, b);
        let mut more = set.clone();
        more.push(ex("en", "health", "Dengue cases rise in the city"));
        assert_ne!(
            a,
            train(&more, &|_| None).to_bytes(),
            "a new example changes it"
        );
    }

    #[test]
    fn learns_and_reads_back_what_it_wrote() {
        let m = train(&small_set(), &|_| None);
        let back = Model::from_bytes(&m.to_bytes()).unwrap();
        assert_eq!(back, m);
        let mut buf = Vec::new();
        assert_eq!(
            back.guess("en", "Police arrest two in snatching case", &mut buf)
                .unwrap()
                .topic,
            "crime"
        );
        assert_eq!(
            back.guess("kn", "ರಣಜಿ: ಕರ್ನಾಟಕಕ್ಕೆ ಭರ್ಜರಿ ಜಯ", &mut buf)
                .unwrap()
                .topic,
            "sport"
        );
    }

    #[test]
    fn zero_width_joiners_do_not_change_the_features() {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        features("kn", "ಜಿಎಸ್‌ಟಿ ದರ ಇಳಿಕೆ", &mut a);
        features("kn", "ಜಿಎಸ್ಟಿ ದರ ಇಳಿಕೆ", &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused() {
        let bytes = train(&small_set(), &|_| None).to_bytes();
        let mut flipped = bytes.clone();
        let n = flipped.len() - 7;
        flipped[n] ^= 1;
        let e = Model::from_bytes(&flipped).unwrap_err().to_string();
        assert!(e.contains("SHA-256"), "{e}");
        let e = Model::from_bytes(&bytes[..bytes.len() - 10])
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");
        let e = Model::from_bytes(b"{\"not\": \"a model\"}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not start"), "{e}");
    }
}
