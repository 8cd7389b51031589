//! Turns the translation files `locales/<language>.json` (English the reference) into typed keys,
//! so a view naming a text that does not exist does not compile, and into the server's tables.
//!
//! Only the server carries the tables: a page gets the words of its one language inline, and the
//! browser fetches another language's words when the player switches (see `src/i18n`). The
//! bundle carries no words at all, in any language.
//!
//! The build fails when a language lacks a key English has, has one English lacks, or takes
//! other `{{ values }}` than English does for a text.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::PathBuf;

/// In the order of `i18n::Lang`.
const LANGUAGES: [&str; 4] = ["en", "sv", "da", "nb"];

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"))
        .join("locales");
    println!("cargo::rerun-if-changed={}", dir.display());
    let tables: Vec<BTreeMap<String, String>> = LANGUAGES
        .iter()
        .map(|language| {
            let path = dir.join(format!("{language}.json"));
            println!("cargo::rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let json: serde_json::Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut flat = BTreeMap::new();
            flatten(&path.display().to_string(), &[], &json, &mut flat);
            flat
        })
        .collect();
    let english = &tables[0];
    for (language, table) in LANGUAGES.iter().zip(&tables).skip(1) {
        let missing: Vec<_> = english.keys().filter(|k| !table.contains_key(*k)).collect();
        let extra: Vec<_> = table.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(
            missing.is_empty(),
            "locales/{language}.json lacks {missing:?}"
        );
        assert!(
            extra.is_empty(),
            "locales/{language}.json has keys English lacks: {extra:?}"
        );
        for (key, text) in table {
            assert_eq!(
                variables(text),
                variables(&english[key]),
                "locales/{language}.json: {key} takes other values than in English"
            );
        }
    }

    let mut out = String::new();
    writeln!(out, "/// How many texts each language has.").unwrap();
    writeln!(out, "#[allow(dead_code)]").unwrap();
    writeln!(out, "pub const COUNT: usize = {};", english.len()).unwrap();
    // Keys, one module per section of the files.
    writeln!(
        out,
        "/// Every text, by section and name, as in `locales/en.json`."
    )
    .unwrap();
    writeln!(out, "#[allow(non_upper_case_globals, missing_docs)]").unwrap();
    writeln!(out, "pub mod keys {{").unwrap();
    let mut section = String::new();
    for (index, key) in english.keys().enumerate() {
        let (sec, name) = key.split_once('.').expect("section.name");
        if sec != section {
            if !section.is_empty() {
                writeln!(out, "    }}").unwrap();
            }
            writeln!(out, "    pub mod {sec} {{").unwrap();
            writeln!(out, "        use crate::i18n::Key;").unwrap();
            section = sec.to_string();
        }
        writeln!(out, "        /// {:?}", english[key]).unwrap();
        writeln!(out, "        pub const {name}: Key = Key({index});").unwrap();
    }
    writeln!(out, "    }}\n}}").unwrap();
    // The tables, for the server only.
    writeln!(out, "/// Every language's texts, in the keys' order.").unwrap();
    writeln!(out, "#[cfg(feature = \"ssr\")]").unwrap();
    writeln!(
        out,
        "pub static TABLES: [[&str; COUNT]; {}] = [",
        LANGUAGES.len()
    )
    .unwrap();
    for table in &tables {
        writeln!(out, "    [").unwrap();
        for key in english.keys() {
            writeln!(out, "        {:?},", table[key]).unwrap();
        }
        writeln!(out, "    ],").unwrap();
    }
    writeln!(out, "];").unwrap();
    let target = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("words.rs");
    std::fs::write(target, out).expect("words.rs is written");
}

/// `{"nav": {"lobby": "Lobby"}}` → `nav.lobby` → `Lobby`: sections of texts, one level deep.
fn flatten(
    file: &str,
    path: &[&str],
    value: &serde_json::Value,
    out: &mut BTreeMap<String, String>,
) {
    match value {
        serde_json::Value::Object(map) if path.len() < 2 => {
            for (key, value) in map {
                assert!(
                    !key.is_empty()
                        && key
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                        && !key.starts_with(|c: char| c.is_ascii_digit()),
                    "{file}: {key:?} is not a name of lower-case letters, digits and underscores"
                );
                assert!(
                    !RESERVED.contains(&key.as_str()),
                    "{file}: {key:?} is a Rust keyword"
                );
                let mut path = path.to_vec();
                path.push(key);
                flatten(file, &path, value, out);
            }
        }
        serde_json::Value::String(text) if path.len() == 2 => {
            out.insert(path.join("."), text.clone());
        }
        _ => panic!("{file}: {} must be a text inside a section", path.join(".")),
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

const RESERVED: [&str; 24] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "ref", "return", "self", "static", "type", "use",
    "where",
];
