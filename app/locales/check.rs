// The translation files, read and checked: shared by `app/build.rs`, which refuses to build
// from files that fail, and `app/tests/translations.rs`, which says which check fails. Included
// by path (`#[path]`), so it uses nothing but std and serde_json.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// In the order of `i18n::Lang`; English, first, is the reference.
pub const LANGUAGES: [&str; 4] = ["en", "sv", "da", "nb"];

/// One language's texts: `section.name` → text.
pub type Texts = BTreeMap<String, String>;

/// Reads `dir/<language>.json`: sections of texts, one level deep, with names of lower-case
/// letters, digits and underscores that are not Rust keywords (they become Rust names).
pub fn read(dir: &Path, language: &str) -> Result<Texts, String> {
    let path = dir.join(format!("{language}.json"));
    let file = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
    let mut texts = Texts::new();
    flatten(&file, &[], &json, &mut texts)?;
    Ok(texts)
}

fn flatten(
    file: &str,
    path: &[&str],
    value: &serde_json::Value,
    out: &mut Texts,
) -> Result<(), String> {
    match value {
        serde_json::Value::Object(map) if path.len() < 2 => {
            for (key, value) in map {
                let name = !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                    && !key.starts_with(|c: char| c.is_ascii_digit());
                if !name || RESERVED.contains(&key.as_str()) {
                    return Err(format!("{file}: {key:?} cannot be a Rust name"));
                }
                let mut path = path.to_vec();
                path.push(key);
                flatten(file, &path, value, out)?;
            }
            Ok(())
        }
        serde_json::Value::String(text) if path.len() == 2 => match malformed(text) {
            Some(place) => Err(format!(
                "{file}: {}: {{{{{place}}}}} is neither {{{{ name }}}} nor {{{{ count | one | other }}}}",
                path.join(".")
            )),
            None => {
                out.insert(path.join("."), text.clone());
                Ok(())
            }
        },
        _ => Err(format!(
            "{file}: {} must be a text inside a section",
            path.join(".")
        )),
    }
}

/// What is between each `{{` and `}}`.
fn places(text: &str) -> impl Iterator<Item = &str> {
    text.split("{{")
        .skip(1)
        .filter_map(|rest| rest.split_once("}}"))
        .map(|(place, _)| place)
}

/// The names of the values a text takes: `{{ name }}`, and `{{ name | one | other }}` (the word
/// for the count `name`).
pub fn variables(text: &str) -> BTreeSet<String> {
    places(text)
        .map(|place| {
            place
                .split('|')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .collect()
}

/// Each `{{ count | one | other }}` of a text: the count's name and its two words.
#[allow(dead_code)] // The tests' alone: the build checks the form, not which nouns it covers.
pub fn counted(text: &str) -> Vec<(&str, &str, &str)> {
    places(text)
        .filter_map(|place| {
            let mut parts = place.split('|').map(str::trim);
            let (count, one, other) = (parts.next()?, parts.next()?, parts.next()?);
            Some((count, one, other))
        })
        .collect()
}

/// A place with a `|` that is not `{{ count | one | other }}`, all three named.
fn malformed(text: &str) -> Option<&str> {
    places(text).find(|place| {
        let parts: Vec<&str> = place.split('|').map(str::trim).collect();
        parts.len() != 1 && (parts.len() != 3 || parts.iter().any(|part| part.is_empty()))
    })
}

/// Whether `theirs` has exactly English's texts, each taking the same values, empty only where
/// English is: every difference, one per line.
pub fn against_english(language: &str, english: &Texts, theirs: &Texts) -> Result<(), String> {
    let mut problems = Vec::new();
    for key in english.keys().filter(|k| !theirs.contains_key(*k)) {
        problems.push(format!("{language} lacks {key}"));
    }
    for key in theirs.keys().filter(|k| !english.contains_key(*k)) {
        problems.push(format!("{language} has {key}, which English lacks"));
    }
    for (key, text) in theirs {
        let Some(reference) = english.get(key) else {
            continue;
        };
        if variables(text) != variables(reference) {
            problems.push(format!(
                "{language} {key}: {text:?} takes other values than {reference:?}"
            ));
        }
        if text.is_empty() != reference.is_empty() {
            problems.push(format!(
                "{language} {key} is empty where English is not, or the other way round"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

const RESERVED: [&str; 24] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "ref", "return", "self", "static", "type", "use",
    "where",
];
