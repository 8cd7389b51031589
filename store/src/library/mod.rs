//! The dictionaries: their versions in the database ([`versions`], with the audit log), drafts
//! being built from uploads ([`builds`]), players' word reports ([`reports`]) and the engine's
//! tries ([`tries`]); and [`Library`], the versions this instance holds in memory: the active
//! version of every dictionary (for new games and the word check), and any other version a
//! running game asked for, loaded from the database on first use and let go once no game has
//! asked for it for a while. The active versions follow the database: a publish on any instance
//! reaches this one through the live changes ([`crate::bus::Change::Dictionaries`]).

pub mod builds;
pub mod reports;
pub mod tries;
pub mod versions;

use std::{
    collections::HashMap,
    sync::atomic::Ordering,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use dictionaries::{
    catalog::Catalog,
    versions::{Origin, Report},
    wordlist::{self, Parsed, Progress, Stage},
    DictionaryId, DictionaryInfo, DictionaryRef, FstLexicon,
};

use domain::Refusal;

use self::builds::Builds;
use crate::{accounts::User, db::Database, StoreError};

/// One version, ready for the rules, the bots and the browser.
#[derive(Debug)]
pub struct LoadedVersion {
    pub at: DictionaryRef,
    /// Its words.
    pub lexicon: Arc<FstLexicon>,
    /// SHA-256 of the FST, hex.
    pub sha256: String,
    /// Where browsers fetch it: `/dict/<id>.<first 16 hex digits of the hash>.fst`, immutable.
    pub url: String,
    /// Whether it is published, as this instance last saw (set when a draft held here is found
    /// published).
    pub published: std::sync::atomic::AtomicBool,
}

impl LoadedVersion {
    fn new(at: DictionaryRef, stored: versions::Fst) -> Result<LoadedVersion, StoreError> {
        let versions::Fst {
            fst,
            sha256,
            published,
        } = stored;
        let lexicon = FstLexicon::from_bytes(fst)
            .map_err(|e| StoreError::Data(format!("{at} is not an FST: {e}")))?;
        Ok(LoadedVersion {
            url: format!("/dict/{}.{}.fst", at.id.as_str(), &sha256[..16]),
            at,
            lexicon: Arc::new(lexicon),
            sha256,
            published: (published != 0).into(),
        })
    }
}

#[derive(Default)]
struct Held {
    active: HashMap<DictionaryId, u32>,
    loaded: HashMap<DictionaryRef, (Arc<LoadedVersion>, Instant)>,
}

/// This instance's dictionaries.
pub struct Library {
    db: Database,
    shipped: Arc<Catalog>,
    held: Mutex<Held>,
    /// Drafts being built from uploads.
    pub builds: Builds,
    /// The one build that may run at a time.
    building: tokio::sync::Semaphore,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library")
            .field("loaded", &self.loaded())
            .finish()
    }
}

impl Library {
    /// Imports the shipped lists where the database lacks them and loads every active version.
    pub async fn open(db: Database, shipped: Arc<Catalog>) -> Result<Arc<Library>, StoreError> {
        versions::import_shipped(&db, &shipped).await?;
        let library = Arc::new(Library {
            db,
            shipped,
            held: Mutex::default(),
            builds: Builds::default(),
            building: tokio::sync::Semaphore::new(1),
        });
        library.refresh().await?;
        Ok(library)
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // A panic while holding the lock leaves only a cache behind: carry on with it.
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads the active versions again and loads those not held yet.
    pub async fn refresh(&self) -> Result<(), StoreError> {
        let active = versions::active_versions(&self.db).await?;
        for (&id, &version) in &active {
            self.get(DictionaryRef { id, version }).await?;
        }
        self.held().active = active;
        Ok(())
    }

    /// The version `at`, from memory or else from the database.
    pub async fn get(&self, at: DictionaryRef) -> Result<Arc<LoadedVersion>, StoreError> {
        if let Some((version, used)) = self.held().loaded.get_mut(&at) {
            *used = Instant::now();
            return Ok(version.clone());
        }
        let stored = versions::fst_of(&self.db, at)
            .await?
            .ok_or_else(|| StoreError::Data(format!("no dictionary version {at}")))?;
        let loaded = Arc::new(LoadedVersion::new(at, stored)?);
        // Two callers may both have loaded it: keep the first, so everyone shares one copy.
        let mut held = self.held();
        let entry = held
            .loaded
            .entry(at)
            .or_insert_with(|| (loaded, Instant::now()));
        Ok(entry.0.clone())
    }

    /// The version a game's config names (`en@3`, or `en` for version 1).
    pub async fn named(&self, dictionary: &str) -> Result<Arc<LoadedVersion>, StoreError> {
        let at = DictionaryRef::parse(dictionary)
            .ok_or_else(|| StoreError::Data(format!("no dictionary {dictionary}")))?;
        self.get(at).await
    }

    /// The version new games of `id` get, as this instance last heard.
    pub async fn active(&self, id: DictionaryId) -> Result<Arc<LoadedVersion>, StoreError> {
        let version = self.held().active.get(&id).copied().unwrap_or(1);
        self.get(DictionaryRef { id, version }).await
    }

    /// The version served at `/dict/<name>` (`<id>.<hash>.fst`), if any: a published one, or
    /// with `drafts` (an admin's request) any version. Nobody else learns a draft's words before
    /// it is published.
    pub async fn by_file_name(
        &self,
        name: &str,
        drafts: bool,
    ) -> Result<Option<Arc<LoadedVersion>>, StoreError> {
        let Some((id, hash)) = name
            .strip_suffix(".fst")
            .and_then(|stem| stem.rsplit_once('.'))
        else {
            return Ok(None);
        };
        let Some(id) = DictionaryId::parse(id) else {
            return Ok(None);
        };
        if hash.len() != 16 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        let held = self
            .held()
            .loaded
            .values()
            .find(|(v, _)| v.at.id == id && v.sha256.starts_with(hash))
            .map(|(v, _)| v.clone());
        let published = |v: &LoadedVersion| v.published.load(Ordering::Relaxed);
        // A draft held since before its publication is asked about again.
        if let Some(held) = held.filter(|v| published(v) || drafts) {
            return Ok(Some(held));
        }
        let Some(version) = versions::by_hash(&self.db, id, hash, !drafts).await? else {
            return Ok(None);
        };
        let loaded = self.get(DictionaryRef { id, version }).await?;
        if !drafts {
            loaded.published.store(true, Ordering::Relaxed);
        }
        Ok(Some(loaded))
    }

    /// Lets go of every version that is not active and that nobody asked for in `idle`. A game on
    /// it loads it again when it next moves.
    pub fn sweep(&self, idle: Duration) -> usize {
        self.builds.sweep();
        let mut held = self.held();
        let Held { active, loaded } = &mut *held;
        let before = loaded.len();
        loaded.retain(|at, (_, used)| {
            active.get(&at.id) == Some(&at.version) || used.elapsed() < idle
        });
        before - loaded.len()
    }

    /// The versions held in memory now.
    pub fn loaded(&self) -> Vec<DictionaryRef> {
        let mut loaded: Vec<DictionaryRef> = self.held().loaded.keys().copied().collect();
        loaded.sort_by_key(|at| (at.id.as_str(), at.version));
        loaded
    }

    /// Makes a draft of `id` from its active version: `make` turns the active version's words
    /// into the new list (an upload ignores them, an edit changes them) or says why
    /// the input cannot be read, and the draft's report compares the two. The CPU work (reading,
    /// comparing, building the FST) runs off the async workers and moves `progress` along;
    /// nothing is written unless all of it succeeds.
    pub async fn draft(
        &self,
        by: &User,
        id: DictionaryId,
        origin: Origin,
        note: &str,
        progress: Arc<Progress>,
        make: impl FnOnce(&FstLexicon, &Progress) -> Result<Parsed, String> + Send + 'static,
    ) -> Result<(DictionaryRef, Report), StoreError> {
        let _turn = self.turn().await?;
        self.draft_now(by, id, origin, note, progress, make).await
    }

    /// Waits for this instance's one build at a time: a build holds its list in memory several
    /// times over, and three at once would hold three. The others wait, and their page says so.
    async fn turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>, StoreError> {
        self.building
            .acquire()
            .await
            .map_err(|e| StoreError::Data(format!("the build queue closed: {e}")))
    }

    /// [`Library::draft`], for a caller that has its turn.
    async fn draft_now(
        &self,
        by: &User,
        id: DictionaryId,
        origin: Origin,
        note: &str,
        progress: Arc<Progress>,
        make: impl FnOnce(&FstLexicon, &Progress) -> Result<Parsed, String> + Send + 'static,
    ) -> Result<(DictionaryRef, Report), StoreError> {
        // An edit (an admin's, or an accepted report) goes on top of the drafts waiting to be
        // published; an upload is a whole list, compared with what new games get.
        let pending = match origin {
            Origin::Edit => versions::newest_draft(&self.db, id).await?,
            Origin::Upload | Origin::Shipped => None,
        };
        let base = match pending {
            Some(draft) => self.get(draft).await?,
            None => self.active(id).await?,
        };
        let building = progress.clone();
        let (built, report) = tokio::task::spawn_blocking(move || {
            let parsed = make(&base.lexicon, &building)?;
            let against = Some((base.at.version, &*base.lexicon));
            let report = wordlist::report_with(&parsed, against, &building);
            Ok::<_, String>((wordlist::build_with(&parsed.words, &building), report))
        })
        .await
        .map_err(|e| StoreError::Data(format!("building the dictionary failed: {e}")))?
        .map_err(Refusal::Invalid)?;
        progress.start(Stage::Saving, 1);
        let at = versions::create_draft(&self.db, id, &built, &report, origin, note, by).await?;
        Ok((at, report))
    }

    /// Starts [`Library::draft`] of the active version in the background and answers at once
    /// with the build's key, for the panel to follow ([`Library::builds`]).
    pub fn start_draft(
        self: &Arc<Self>,
        by: User,
        id: DictionaryId,
        origin: Origin,
        note: String,
        make: impl FnOnce(&FstLexicon, &Progress) -> Result<Parsed, String> + Send + 'static,
    ) -> String {
        let (key, build) = self.builds.start(id);
        let library = self.clone();
        tokio::spawn(async move {
            let progress = build.progress.clone();
            // The turn is held until the build has ended, so the next one starts only then.
            let (turn, outcome) = match library.turn().await {
                Ok(turn) => {
                    let outcome = library
                        .draft_now(&by, id, origin, &note, progress, make)
                        .await;
                    (Some(turn), outcome)
                }
                Err(error) => (None, Err(error)),
            };
            build.end(match outcome {
                Ok((at, report)) => {
                    tracing::info!(dictionary = %at, words = report.accepted, rejected = report.rejected_total, "a draft was built");
                    Ok(at)
                }
                Err(StoreError::Refused(refusal)) => Err(format!("the files cannot be read: {refusal}")),
                Err(error) => {
                    tracing::error!(%error, "building a draft failed");
                    Err("the draft could not be built; the active version is unchanged".into())
                }
            });
            drop(turn);
        });
        key
    }

    /// The shipped dictionaries' manifest and licences.
    pub fn shipped(&self) -> &Catalog {
        &self.shipped
    }

    /// What the pages show of each dictionary: its active version's URL and size, with the
    /// shipped list's source and licence (and, if asked, the licence texts).
    pub async fn infos(&self, with_licences: bool) -> Result<Vec<DictionaryInfo>, StoreError> {
        let mut infos = self.shipped.infos(with_licences);
        for info in &mut infos {
            let active = self.active(info.id).await?;
            info.url = active.url.clone();
            info.version = active.at.version;
            info.word_count = active.lexicon.len() as u64;
            info.fst_bytes = active.lexicon.as_bytes().len() as u64;
            if active.at.version > 1 {
                info.source_version =
                    format!("{} (version {})", info.source_version, active.at.version);
            }
        }
        Ok(infos)
    }
}
