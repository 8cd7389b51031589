//! The committed FSTs: the words they must and must not hold, their alphabets, their manifest.

use std::{collections::BTreeSet, path::PathBuf};

use dictionaries::{DictionaryId, FstLexicon, Manifest};
use rules::Lexicon;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(id: DictionaryId) -> FstLexicon {
    let path = dir().join("fst").join(format!("{}.fst", id.as_str()));
    FstLexicon::read(&path).expect("the FST is committed and valid")
}

fn manifest() -> Manifest {
    serde_json::from_str(&std::fs::read_to_string(dir().join("fst/manifest.json")).unwrap())
        .unwrap()
}

#[test]
fn known_inflected_forms_are_present() {
    let cases = [
        (
            DictionaryId::English,
            &["quixotic", "running", "oxen", "za", "qi", "aa"][..],
        ),
        (
            DictionaryId::Swedish,
            &["bilarnas", "huset", "kattens", "springer", "ide"],
        ),
        (DictionaryId::SwedishStrict, &["bilarnas", "huset", "bilen"]),
        (
            DictionaryId::Danish,
            &["bilernes", "huset", "bilen", "vi", "liv"],
        ),
        (DictionaryId::Norwegian, &["bilene", "huset", "bilen"]),
    ];
    for (id, words) in cases {
        let lexicon = load(id);
        for word in words {
            assert!(lexicon.contains(word), "{}: {word}", id.as_str());
        }
    }
}

#[test]
fn proper_nouns_abbreviations_and_numerals_are_absent() {
    let cases = [
        (
            DictionaryId::English,
            &[
                "london",
                "canada",
                "england",
                "microsoft",
                "kb",
                "mb",
                "bs",
                "csc",
            ][..],
        ),
        (DictionaryId::Swedish, &["stockholm", "kg", "dvd", "html"]),
        (
            DictionaryId::SwedishStrict,
            &["stockholm", "kg", "malmhamn"],
        ),
        (
            DictionaryId::Danish,
            &["københavn", "kg", "xiv", "iii", "pdf"],
        ),
        (DictionaryId::Norwegian, &["oslo", "kg", "tlf", "dvs"]),
    ];
    for (id, words) in cases {
        let lexicon = load(id);
        for word in words {
            assert!(
                !lexicon.contains(word),
                "{}: {word} should be absent",
                id.as_str()
            );
        }
    }
}

#[test]
fn every_dictionary_uses_exactly_its_tile_sets_letters() {
    for id in DictionaryId::ALL {
        let letters: BTreeSet<char> = load(id)
            .words()
            .iter()
            .flat_map(|w| w.chars().collect::<Vec<_>>())
            .collect();
        let alphabet: BTreeSet<char> = id.alphabet().into_iter().collect();
        assert_eq!(letters, alphabet, "{}", id.as_str());
        for word in load(id).words().iter().step_by(997) {
            assert!((2..=15).contains(&word.chars().count()), "{word}");
        }
    }
}

#[test]
fn manifest_matches_the_files_and_the_expected_sizes() {
    // The sizes a first survey of the sources found for such a build; ours must be within a
    // quarter of them.
    let expected = [
        (DictionaryId::English, 245_000),
        (DictionaryId::Swedish, 667_000),
        (DictionaryId::SwedishStrict, 580_000),
        (DictionaryId::Danish, 568_000),
        (DictionaryId::Norwegian, 681_000),
    ];
    let manifest = manifest();
    assert_eq!(manifest.dictionaries.len(), 5);
    for (id, about) in expected {
        let entry = manifest.dictionaries.iter().find(|e| e.id == id).unwrap();
        let lexicon = load(id);
        assert_eq!(entry.word_count, lexicon.len() as u64);
        assert_eq!(entry.fst_bytes, lexicon.as_bytes().len() as u64);
        assert_eq!(
            entry.alphabet,
            id.alphabet().into_iter().collect::<String>()
        );
        let ratio = entry.word_count as f64 / about as f64;
        assert!(
            (0.75..=1.25).contains(&ratio),
            "{}: {} words, expected about {about}",
            id.as_str(),
            entry.word_count
        );
        for file in &entry.licence_files {
            assert!(dir().join("licences").join(file).exists(), "{file}");
        }
    }
}

#[test]
fn the_fst_walk_finds_exactly_the_words() {
    let lexicon = load(DictionaryId::English);
    for word in lexicon.words().iter().step_by(4999) {
        let mut node = lexicon.root();
        for &b in word.as_bytes() {
            node = lexicon.step(node, b).expect("every prefix of a word walks");
        }
        assert!(lexicon.is_word(node), "{word}");
    }
}
