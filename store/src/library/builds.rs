//! Drafts being built from uploads. The upload's request ends as soon as the file is in, and the
//! panel follows the build's progress until the draft exists. A build lives in the memory of the
//! instance that received the upload (its page is that instance's to serve) and is forgotten ten
//! minutes after it ends.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use dictionaries::{
    wordlist::{Progress, Stage},
    DictionaryId, DictionaryRef,
};

/// How long an ended build is remembered.
const KEPT: Duration = Duration::from_secs(600);

/// Where a build stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildState {
    /// Under way: the stage, and how far into it.
    Running {
        /// What it is doing.
        stage: Stage,
        /// Steps done.
        done: u64,
        /// Steps in the stage.
        total: u64,
    },
    /// The draft exists.
    Done(DictionaryRef),
    /// It failed, and why; nothing was written.
    Failed(String),
}

/// One build.
#[derive(Debug)]
pub struct Build {
    /// The dictionary it is for.
    pub dictionary: DictionaryId,
    /// Moved along by the build.
    pub progress: Arc<Progress>,
    ended: Mutex<Option<(Instant, Result<DictionaryRef, String>)>>,
}

impl Build {
    /// Where it stands now.
    pub fn state(&self) -> BuildState {
        match &*self.ended.lock().unwrap_or_else(|e| e.into_inner()) {
            Some((_, Ok(at))) => BuildState::Done(*at),
            Some((_, Err(why))) => BuildState::Failed(why.clone()),
            None => {
                let (stage, done, total) = self.progress.now();
                BuildState::Running { stage, done, total }
            }
        }
    }

    /// Records how it ended.
    pub fn end(&self, outcome: Result<DictionaryRef, String>) {
        *self.ended.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), outcome));
    }

    fn ended_long_ago(&self) -> bool {
        self.ended
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|(at, _)| at.elapsed() > KEPT)
    }
}

/// This instance's builds, by a key nobody can guess.
#[derive(Debug, Default)]
pub struct Builds(Mutex<HashMap<String, Arc<Build>>>);

impl Builds {
    /// A new build of `dictionary`; its key and itself.
    pub fn start(&self, dictionary: DictionaryId) -> (String, Arc<Build>) {
        let key = uuid::Uuid::new_v4().simple().to_string();
        let build = Arc::new(Build {
            dictionary,
            progress: Arc::default(),
            ended: Mutex::default(),
        });
        self.lock().insert(key.clone(), build.clone());
        (key, build)
    }

    /// The build under `key`, if this instance has it.
    pub fn get(&self, key: &str) -> Option<Arc<Build>> {
        self.lock().get(key).cloned()
    }

    /// Forgets builds that ended long ago.
    pub fn sweep(&self) {
        self.lock().retain(|_, build| !build.ended_long_ago());
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Build>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
