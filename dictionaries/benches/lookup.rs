//! Lookup time per word and load time per dictionary, on the committed FSTs.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use dictionaries::{DictionaryId, FstLexicon};
use rules::Lexicon;

fn bench(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fst");
    let mut load = c.benchmark_group("load");
    for id in DictionaryId::ALL {
        let bytes = std::fs::read(dir.join(format!("{}.fst", id.as_str()))).unwrap();
        load.bench_function(id.as_str(), |b| {
            b.iter(|| {
                black_box(
                    FstLexicon::from_bytes(black_box(bytes.clone()))
                        .unwrap()
                        .len(),
                )
            })
        });
    }
    load.finish();

    // What the server does at start: read all five files, check their SHA-256, read the licences.
    #[cfg(feature = "catalog")]
    c.bench_function("catalog_load_all_five_from_disk", |b| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        b.iter(|| {
            black_box(
                dictionaries::catalog::Catalog::load(dir)
                    .unwrap()
                    .dictionaries
                    .len(),
            )
        })
    });

    let mut lookup = c.benchmark_group("lookup");
    for id in DictionaryId::ALL {
        let lexicon = FstLexicon::from_bytes(
            std::fs::read(dir.join(format!("{}.fst", id.as_str()))).unwrap(),
        )
        .unwrap();
        // Half words, half near misses, spread over the alphabet.
        let words = lexicon.words();
        let mut probes: Vec<String> = words.iter().step_by(words.len() / 500).cloned().collect();
        probes.extend(
            words
                .iter()
                .step_by(words.len() / 500)
                .map(|w| format!("{w}q")),
        );
        lookup.bench_function(format!("{}_per_word", id.as_str()), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % probes.len();
                black_box(lexicon.contains(black_box(&probes[i])))
            })
        });
    }
    lookup.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
