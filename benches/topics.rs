//! `make bench`, the topic model's part: training on 50,000 examples (the goal: under 30 s)
//! and filing 50,000 headlines (the goal: at least 50,000 a second on one core), the model
//! beside the lexicons alone on the same headlines, so the ratio can be quoted.
//!
//! The headlines are the labelled ones in `tests/eval/outlets/` and `pipeline/topics/
//! examples.jsonl`, each made many distinct ones by adding a numbered place and a number,
//! so no two examples are the same and the features are as many as real headlines give.
//! `cargo bench --bench topics`. Nothing here is a test: read the ratios, not the seconds.

use std::path::PathBuf;
use std::time::Instant;

use huduku::classify::model::{Example, Model};
use huduku::classify::{Classifier, Headline, Lexicons, eval, filing::Filings};

const N: usize = 50_000;

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lexicons = Lexicons::load(&repo.join("pipeline/topics")).unwrap();
    let filings = Filings::load(&repo.join("pipeline/topic-map.csv")).unwrap();
    let mut base: Vec<Example> =
        huduku::classify::model::read_examples(&repo.join("pipeline/topics/examples.jsonl"))
            .unwrap();
    for f in eval::load_outlets(&repo.join("tests/eval")).unwrap() {
        base.push(Example {
            lang: f.lang,
            topic: f.topic,
            headline: f.headline,
            outlet: None,
        });
    }
    let places = [
        "Hassan",
        "Tumakuru",
        "Kolar",
        "Bidar",
        "Raichur",
        "ಹಾಸನ",
        "ತುಮಕೂರು",
        "ಕೋಲಾರ",
        "ಬೀದರ್",
        "ರಾಯಚೂರು",
    ];
    let examples: Vec<Example> = (0..N)
        .map(|i| {
            let b = &base[i % base.len()];
            let mut e = b.clone();
            e.headline = format!(
                "{} {} {}",
                b.headline,
                places[(i / base.len()) % places.len()],
                i / base.len()
            );
            e
        })
        .collect();
    let t = Instant::now();
    let model = eval::train(&lexicons, &examples);
    let train_s = t.elapsed().as_secs_f64();
    let bytes = model.to_bytes();
    let t = Instant::now();
    let loaded = Model::from_bytes(&bytes).unwrap();
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "topics: trained on {N} examples in {train_s:.2} s (goal under 30 s); the model is {:.2} MB, read back in {load_ms:.1} ms",
        bytes.len() as f64 / 1e6
    );
    let with = Classifier {
        lexicons: lexicons.clone(),
        filings: filings.clone(),
        model: Some(loaded),
    };
    let without = Classifier {
        lexicons,
        filings,
        model: None,
    };
    let rate = |c: &Classifier| {
        let mut best = f64::MAX;
        let mut buf = Vec::new();
        let mut other = 0usize;
        for _ in 0..3 {
            let t = Instant::now();
            other = 0;
            for e in &examples {
                let d = c.decide(
                    &Headline {
                        lang: &e.lang,
                        headline: &e.headline,
                        ..Headline::default()
                    },
                    &mut buf,
                );
                other += usize::from(d.topic == "other");
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        (N as f64 / best, other)
    };
    let (model_rate, _) = rate(&with);
    let (lex_rate, _) = rate(&without);
    println!(
        "topics: filed {N} headlines on one thread at {model_rate:.0} a second with the model (goal at least 50,000), {lex_rate:.0} with the lexicons alone (ratio {:.2})",
        model_rate / lex_rate
    );
}
