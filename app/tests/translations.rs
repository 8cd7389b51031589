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
