//! What an admin waits for after an upload: reading a 700,000-word list, comparing it with the
//! active version and building the FST with its hash; and an edit of one word on the largest
//! shipped list. Prints the figures (each step is seconds, not microseconds: no criterion).
//!
//! `cargo bench -p dictionaries --features catalog --bench version_build`

use std::time::{Duration, Instant};

use dictionaries::{wordlist, DictionaryId, FstLexicon};
use rules::Lexicon;

fn timed<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let out = f();
        best = best.min(start.elapsed());
        last = Some(out);
    }
    (best, last.unwrap())
}

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fst");
    let load = |id: DictionaryId| {
        FstLexicon::from_bytes(std::fs::read(dir.join(format!("{}.fst", id.as_str()))).unwrap())
            .unwrap()
    };
    // The largest shipped list (Norwegian, 679,152 words), topped up to 700,000 with Swedish
    // words it lacks that its alphabet spells.
    let nb = load(DictionaryId::Norwegian);
    let alphabet = DictionaryId::Norwegian.alphabet();
    let mut words = nb.words();
    for word in load(DictionaryId::Swedish).words() {
        if words.len() >= 700_000 {
            break;
        }
        if !nb.contains(&word) && word.chars().all(|c| alphabet.contains(&c)) {
            words.push(word);
        }
    }
    let text = words.join("\n");
    println!(
        "upload: {} lines, {:.1} MB of text",
        words.len(),
        text.len() as f64 / 1e6
    );

    let (parse, parsed) = timed(3, || wordlist::parse(text.as_bytes(), &alphabet));
    let (compare, report) = timed(3, || wordlist::report(&parsed, Some((1, &nb))));
    let (build, built) = timed(3, || wordlist::build(&parsed.words));
    println!(
        "  parse {:>7.0} ms  ({} words, {} lines rejected)",
        parse.as_secs_f64() * 1e3,
        report.accepted,
        report.rejected_total
    );
    println!(
        "  diff  {:>7.0} ms  (+{} −{} against the active version)",
        compare.as_secs_f64() * 1e3,
        report.added,
        report.removed
    );
    println!(
        "  build {:>7.0} ms  (FST {:.2} MB, sha256 {})",
        build.as_secs_f64() * 1e3,
        built.fst.len() as f64 / 1e6,
        &built.sha256[..12]
    );
    println!(
        "  total {:>7.0} ms  for the upload",
        (parse + compare + build).as_secs_f64() * 1e3
    );

    // An edit: one word added to the active version.
    let (edit, edited) = timed(3, || {
        let parsed = wordlist::edit(&nb, "snøbrødbit", "", &alphabet);
        let report = wordlist::report(&parsed, Some((1, &nb)));
        (wordlist::build(&parsed.words), report)
    });
    println!(
        "edit of one word on nb ({} words): {:.0} ms (+{})",
        nb.len(),
        edit.as_secs_f64() * 1e3,
        edited.1.added
    );
}
