//! The dictionaries as the server holds them: read from `fst/` at start, checked against the
//! manifest, each with the content-hashed URL the browser fetches it from.

use std::{path::Path, sync::Arc};

use crate::{DictionaryId, DictionaryInfo, FstLexicon, Manifest, ManifestEntry};

/// One loaded dictionary.
#[derive(Debug, Clone)]
pub struct LoadedDictionary {
    /// What the manifest says of it.
    pub entry: ManifestEntry,
    /// The words.
    pub lexicon: Arc<FstLexicon>,
    /// Where the browser fetches the FST: `/dict/<id>.<hash>.fst`.
    pub url: String,
    /// Its licence files: name and text.
    pub licences: Vec<(String, String)>,
}

/// Every dictionary, loaded.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// In [`DictionaryId::ALL`] order.
    pub dictionaries: Vec<LoadedDictionary>,
}

/// Why the dictionaries could not be loaded.
#[derive(Debug)]
pub struct CatalogError(pub String);

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CatalogError {}

impl Catalog {
    /// Loads `<dir>/fst/manifest.json`, every FST it lists (refusing one whose SHA-256 differs
    /// from the manifest's) and the licence texts in `<dir>/licences/`.
    pub fn load(dir: &Path) -> Result<Catalog, CatalogError> {
        Catalog::read_with(|file| {
            let path = dir.join(file);
            std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
        })
    }

    /// The five shipped dictionaries as compiled into this binary, checked as [`Catalog::load`]
    /// checks a folder: a server copied on its own needs no `dictionaries/` beside it.
    #[cfg(feature = "embedded")]
    pub fn embedded() -> Result<Catalog, CatalogError> {
        /// `fst/` and `licences/` of this crate, inside the binary.
        #[derive(rust_embed::RustEmbed)]
        #[folder = "."]
        #[include = "fst/*"]
        #[include = "licences/*"]
        struct Shipped;
        Catalog::read_with(|file| {
            Shipped::get(file)
                .map(|f| f.data.into_owned())
                .ok_or_else(|| format!("{file}: not in this binary"))
        })
    }

    /// Builds the catalog from `read`, which gives the bytes of a file named relative to the
    /// dictionaries folder (`fst/manifest.json`), or why it cannot.
    fn read_with(read: impl Fn(&str) -> Result<Vec<u8>, String>) -> Result<Catalog, CatalogError> {
        let err = |what: String| CatalogError(what);
        let text = |file: &str| String::from_utf8(read(file)?).map_err(|e| format!("{file}: {e}"));
        let manifest_file = "fst/manifest.json";
        let manifest: Manifest = serde_json::from_str(&text(manifest_file).map_err(err)?)
            .map_err(|e| err(format!("{manifest_file}: {e}")))?;
        let mut dictionaries = Vec::new();
        for entry in manifest.dictionaries {
            let file = format!("fst/{}.fst", entry.id.as_str());
            let bytes = read(&file).map_err(err)?;
            let sha256 = crate::wordlist::sha256(&bytes);
            if sha256 != entry.sha256 {
                return Err(err(format!(
                    "{file}: SHA-256 {sha256} differs from the manifest's {}",
                    entry.sha256
                )));
            }
            let lexicon = FstLexicon::from_bytes(bytes).map_err(|e| err(format!("{file}: {e}")))?;
            let url = format!("/dict/{}.{}.fst", entry.id.as_str(), &sha256[..16]);
            let mut licences = Vec::new();
            for licence in &entry.licence_files {
                licences.push((
                    licence.clone(),
                    text(&format!("licences/{licence}")).map_err(err)?,
                ));
            }
            dictionaries.push(LoadedDictionary {
                entry,
                lexicon: Arc::new(lexicon),
                url,
                licences,
            });
        }
        Ok(Catalog { dictionaries })
    }

    /// The dictionary with this id, if loaded.
    pub fn get(&self, id: DictionaryId) -> Option<&LoadedDictionary> {
        self.dictionaries.iter().find(|d| d.entry.id == id)
    }

    /// The dictionary served at `path` (`<id>.<hash>.fst`, no leading `/dict/`), if any.
    pub fn by_file_name(&self, name: &str) -> Option<&LoadedDictionary> {
        self.dictionaries
            .iter()
            .find(|d| d.url.rsplit('/').next() == Some(name))
    }

    /// What the pages show, with or without the licence texts.
    pub fn infos(&self, with_licences: bool) -> Vec<DictionaryInfo> {
        self.dictionaries
            .iter()
            .map(|d| DictionaryInfo {
                id: d.entry.id,
                name: d.entry.name.clone(),
                url: d.url.clone(),
                // The shipped list is each dictionary's first version.
                version: 1,
                word_count: d.entry.word_count,
                fst_bytes: d.entry.fst_bytes,
                alphabet: d.entry.alphabet.clone(),
                source: d.entry.source.clone(),
                source_version: d.entry.source_version.clone(),
                licence: d.entry.licence.clone(),
                attribution: d.entry.attribution.clone(),
                licences: if with_licences {
                    d.licences.clone()
                } else {
                    Vec::new()
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_the_committed_dictionaries_with_hashed_urls() {
        let catalog = Catalog::load(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(catalog.dictionaries.len(), 5);
        let en = catalog.get(DictionaryId::English).unwrap();
        assert!(en.url.starts_with("/dict/en.") && en.url.ends_with(".fst"));
        assert_eq!(
            catalog
                .by_file_name(en.url.trim_start_matches("/dict/"))
                .map(|d| d.entry.id),
            Some(DictionaryId::English)
        );
        assert!(catalog.by_file_name("en.0000000000000000.fst").is_none());
        assert!(en.licences[0].1.contains("Kevin Atkinson"));
    }

    #[cfg(feature = "embedded")]
    #[test]
    fn the_embedded_dictionaries_are_the_committed_ones() {
        let embedded = Catalog::embedded().unwrap();
        let on_disk = Catalog::load(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(embedded.dictionaries.len(), 5);
        for (a, b) in embedded.dictionaries.iter().zip(&on_disk.dictionaries) {
            assert_eq!((&a.url, &a.licences), (&b.url, &b.licences));
        }
    }

    #[test]
    fn a_tampered_fst_is_refused() {
        let dir = std::env::temp_dir().join(format!("dict-tamper-{}", std::process::id()));
        let src = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::fs::create_dir_all(dir.join("fst")).unwrap();
        std::fs::create_dir_all(dir.join("licences")).unwrap();
        std::fs::copy(src.join("fst/manifest.json"), dir.join("fst/manifest.json")).unwrap();
        for id in DictionaryId::ALL {
            let name = format!("{}.fst", id.as_str());
            std::fs::copy(src.join("fst").join(&name), dir.join("fst").join(&name)).unwrap();
        }
        for licence in std::fs::read_dir(src.join("licences")).unwrap() {
            let path = licence.unwrap().path();
            std::fs::copy(&path, dir.join("licences").join(path.file_name().unwrap())).unwrap();
        }
        let bad = FstLexicon::from_words(["tampered"]);
        std::fs::write(dir.join("fst/da.fst"), bad.as_bytes()).unwrap();
        let error = Catalog::load(&dir).unwrap_err();
        assert!(
            error.0.contains("da.fst") && error.0.contains("differs"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
