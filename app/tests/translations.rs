//! The translation files against English, the reference: every language has exactly English's
//! keys, each with the same values interpolated, and no text left empty where English has one.

use std::collections::{BTreeMap, BTreeSet};

const LANGUAGES: [&str; 3] = ["sv", "da", "nb"];

/// `section.key` → text, for one language's file.
fn texts(language: &str) -> BTreeMap<String, String> {
    let path = format!("{}/locales/{language}.json", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: serde_json::Value =
        serde_json::from_str(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = BTreeMap::new();
    flatten("", &json, &mut out);
    out
}

fn flatten(prefix: &str, value: &serde_json::Value, out: &mut BTreeMap<String, String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&path, value, out);
            }
        }
        serde_json::Value::String(text) => {
            out.insert(prefix.to_string(), text.clone());
        }
        other => panic!("{prefix}: a text or a section, not {other}"),
    }
}

/// The names between `{{` and `}}`.
fn variables(text: &str) -> BTreeSet<String> {
    text.split("{{")
        .skip(1)
        .filter_map(|rest| rest.split_once("}}"))
        .map(|(name, _)| name.trim().to_string())
        .collect()
}

#[test]
fn every_language_has_exactly_the_english_keys() {
    let english = texts("en");
    assert!(english.len() > 300, "English has {} texts", english.len());
    for language in LANGUAGES {
        let theirs = texts(language);
        let missing: Vec<&String> = english
            .keys()
            .filter(|k| !theirs.contains_key(*k))
            .collect();
        let extra: Vec<&String> = theirs
            .keys()
            .filter(|k| !english.contains_key(*k))
            .collect();
        assert!(missing.is_empty(), "{language} lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{language} has keys English lacks: {extra:?}"
        );
    }
}

#[test]
fn every_text_takes_the_values_english_takes() {
    let english = texts("en");
    for language in LANGUAGES {
        for (key, text) in texts(language) {
            let Some(reference) = english.get(&key) else {
                continue;
            };
            assert_eq!(
                variables(&text),
                variables(reference),
                "{language} {key}: {text:?} against {reference:?}"
            );
            assert_eq!(
                text.trim().is_empty(),
                reference.trim().is_empty(),
                "{language} {key} is empty where English is not, or the other way round"
            );
        }
    }
}

#[test]
fn the_languages_are_translated_not_copied() {
    let english = texts("en");
    for language in LANGUAGES {
        let theirs = texts(language);
        let same = english
            .iter()
            .filter(|(key, text)| theirs.get(*key) == Some(text) && text.len() > 12)
            .count();
        // Names and symbols stay; sentences do not.
        assert!(same < 5, "{language} has {same} sentences still in English");
    }
}
