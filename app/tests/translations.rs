//! The translation files against English, the reference: every language has exactly English's
//! keys, each taking the same values and empty only where English is, and no sentence is left in
//! English. The build refuses files that fail the first checks; this says which one failed.

use std::path::Path;

#[path = "../locales/check.rs"]
mod check;

fn texts(language: &str) -> check::Texts {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    check::read(&dir, language).unwrap_or_else(|problem| panic!("{problem}"))
}

#[test]
fn every_language_has_exactly_the_english_texts_with_their_values() {
    let english = texts("en");
    assert!(english.len() > 600, "English has {} texts", english.len());
    for language in &check::LANGUAGES[1..] {
        if let Err(problems) = check::against_english(language, &english, &texts(language)) {
            panic!("{problems}");
        }
    }
}

#[test]
fn a_missing_or_extra_text_or_value_is_caught() {
    let english = texts("en");
    let mut swedish = texts("sv");
    let (key, _) = swedish.pop_first().unwrap();
    swedish.insert("nav.only_in_swedish".into(), "Bara på svenska".into());
    swedish.insert(
        "rule.not_enough_coins".into(),
        "Det kostar {{ pris }} mynt.".into(),
    );
    let problems = check::against_english("sv", &english, &swedish).unwrap_err();
    assert!(problems.contains(&format!("sv lacks {key}")), "{problems}");
    assert!(
        problems.contains("sv has nav.only_in_swedish, which English lacks"),
        "{problems}"
    );
    assert!(problems.contains("sv rule.not_enough_coins"), "{problems}");
}

#[test]
fn the_languages_are_translated_not_copied() {
    let english = texts("en");
    for language in &check::LANGUAGES[1..] {
        let theirs = texts(language);
        // Letters outside the values: "{{ word }} for {{ points }}" is the same in Danish.
        let letters = |text: &str| {
            text.split("{{")
                .map(|part| part.split_once("}}").map_or(part, |(_, rest)| rest))
                .flat_map(str::chars)
                .filter(|c| c.is_alphabetic())
                .count()
        };
        let same = english
            .iter()
            .filter(|(key, text)| theirs.get(*key) == Some(text) && letters(text) > 12)
            .count();
        // Names and symbols stay; sentences do not.
        assert!(same < 5, "{language} has {same} sentences still in English");
    }
}

/// The plural nouns that follow a count in each language. A count written before one of them
/// chooses the noun by `{{ count | one | other }}`: "1 points" was on screen (issue 40).
const COUNT_NOUNS: [(&str, &[&str]); 4] = [
    (
        "en",
        &[
            "points",
            "tiles",
            "turns",
            "coins",
            "days",
            "games",
            "words",
            "letters",
            "reports",
            "reporters",
            "lines",
            "forms",
            "times",
            "rated",
        ],
    ),
    (
        "sv",
        &[
            "brickor",
            "dagar",
            "partier",
            "bokstäver",
            "rapporter",
            "rapportörer",
            "rader",
            "former",
            "gånger",
            "rankade",
        ],
    ),
    (
        "da",
        &[
            "brikker",
            "mønter",
            "dage",
            "bogstaver",
            "rapporter",
            "anmeldere",
            "linjer",
            "former",
            "gange",
            "ratede",
        ],
    ),
    (
        "nb",
        &[
            "brikker",
            "mynter",
            "dager",
            "bokstaver",
            "rapporter",
            "meldere",
            "linjer",
            "former",
            "ganger",
            "rangerte",
        ],
    ),
];

#[test]
fn every_count_chooses_the_word_after_it_in_every_language() {
    let mut chosen = 0;
    for (language, nouns) in COUNT_NOUNS {
        for (key, text) in texts(language) {
            let counted = check::counted(&text);
            chosen += counted.len();
            // Each "{{ count }} word": the word is not a plural noun, or the count chooses it.
            for (count, after) in text
                .split("{{")
                .skip(1)
                .filter_map(|rest| rest.split_once("}}"))
            {
                let word: String = after
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphabetic())
                    .collect();
                let count = count.trim();
                if nouns.contains(&word.as_str()) && !counted.iter().any(|(c, ..)| *c == count) {
                    panic!("{language} {key}: \"{{{{ {count} }}}} {word}\" says \"1 {word}\"; write {{{{ {count} | … | {word} }}}}");
                }
            }
        }
    }
    assert!(chosen > 60, "{chosen} words chosen by a count");
}

#[test]
fn a_count_with_other_than_two_words_is_refused() {
    let dir = std::env::temp_dir().join(format!("alfakraft-locales-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (text, refused) in [
        ("{{ n }} {{ n | point | points }}", false),
        ("{{ n }} {{ n | points }}", true),
        ("{{ n }} {{ n | point | points | pointz }}", true),
        ("{{ n }} {{ | point | points }}", true),
    ] {
        let json = serde_json::json!({ "game": { "score": text } });
        std::fs::write(dir.join("xx.json"), json.to_string()).unwrap();
        let read = check::read(&dir, "xx");
        assert_eq!(read.is_err(), refused, "{text}: {read:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
