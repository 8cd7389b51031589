//! Turns the translation files `locales/<language>.json` (English the reference) into typed keys,
//! so a view naming a text that does not exist does not compile, and into the server's tables.
//!
//! Only the server carries the tables: a page gets the words of its one language inline, and the
//! browser fetches another language's words when the player switches (see `src/i18n`). The
//! bundle carries no words at all, in any language.
//!
//! The build fails when a language lacks a key English has, has one English lacks, or takes
//! other `{{ values }}` than English does for a text.

use std::fmt::Write;
use std::path::PathBuf;

#[path = "locales/check.rs"]
mod check;

/// Sections whose texts only the pages the server renders alone show (help, the admin panel,
/// profiles, leaderboards, the Daily board, finished turns' cards, plain pages). Their keys exist
/// only in the server's build, so no view in the browser can name one (the bundle would not
/// compile), and the words a page carries leave their texts out: about 38 % of every page's
/// words.
const SERVER_ONLY: [&str; 13] = [
    "admin",
    "daily_board",
    "finished_turn",
    "help",
    "leaderboard",
    "leagues",
    "mail",
    "notice",
    "plain",
    "profile",
    "statistics",
    "tournaments",
    "vacation",
];

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"))
        .join("locales");
    println!("cargo::rerun-if-changed={}", dir.display());
    let tables: Vec<check::Texts> = check::LANGUAGES
        .iter()
        .map(|language| {
            println!("cargo::rerun-if-changed={}/{language}.json", dir.display());
            check::read(&dir, language).unwrap_or_else(|problem| panic!("{problem}"))
        })
        .collect();
    let english = &tables[0];
    for (language, table) in check::LANGUAGES.iter().zip(&tables).skip(1) {
        if let Err(problems) = check::against_english(language, english, table) {
            panic!("the translation files disagree with English:\n{problems}");
        }
    }

    for section in SERVER_ONLY {
        let prefix = format!("{section}.");
        assert!(
            english.keys().any(|key| key.starts_with(&prefix)),
            "SERVER_ONLY names {section:?}, which locales/en.json does not have"
        );
    }
    let server_only =
        |key: &str| SERVER_ONLY.contains(&key.split_once('.').expect("section.name").0);

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
            if SERVER_ONLY.contains(&sec) {
                writeln!(out, "    #[cfg(feature = \"ssr\")]").unwrap();
            }
            writeln!(out, "    pub mod {sec} {{").unwrap();
            writeln!(out, "        use crate::i18n::Key;").unwrap();
            section = sec.to_string();
        }
        writeln!(out, "        /// {:?}", english[key]).unwrap();
        writeln!(out, "        pub const {name}: Key = Key({index});").unwrap();
    }
    writeln!(out, "    }}\n}}").unwrap();
    // Which texts a page carries to the browser.
    writeln!(
        out,
        "/// Per text: whether the browser may show it (see `SERVER_ONLY` in build.rs)."
    )
    .unwrap();
    writeln!(out, "#[cfg(feature = \"ssr\")]").unwrap();
    writeln!(out, "pub static IN_BROWSER: [bool; COUNT] = [").unwrap();
    for key in english.keys() {
        writeln!(out, "    {},", !server_only(key)).unwrap();
    }
    writeln!(out, "];").unwrap();
    // The tables, for the server only.
    writeln!(out, "/// Every language's texts, in the keys' order.").unwrap();
    writeln!(out, "#[cfg(feature = \"ssr\")]").unwrap();
    writeln!(
        out,
        "pub static TABLES: [[&str; COUNT]; {}] = [",
        check::LANGUAGES.len()
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
