//! Dictionaries in the pages: their list (a server function), and in the browser their FSTs,
//! each fetched at most once per page load and shared by every component that needs it.

use std::{collections::HashMap, sync::Arc};

use dictionaries::{DictionaryId, DictionaryInfo, FstLexicon};
use leptos::prelude::*;

/// Every dictionary with its content-hashed URL; with `with_licences`, the licence texts too.
// The macro's generated argument struct has fields that cannot carry doc comments.
#[allow(missing_docs)]
#[server]
pub async fn dictionary_list(with_licences: bool) -> Result<Vec<DictionaryInfo>, ServerFnError> {
    let catalog = use_context::<Arc<dictionaries::catalog::Catalog>>()
        .ok_or_else(|| ServerFnError::new("the dictionaries are not loaded"))?;
    Ok(catalog.infos(with_licences))
}

/// Where a dictionary stands in this page.
#[derive(Clone, Debug)]
pub enum LexiconState {
    /// Not asked for yet, or being fetched.
    Loading,
    /// Ready for the rules.
    Ready(Arc<FstLexicon>),
    /// The fetch failed.
    Failed(String),
}

/// The page's dictionaries: the list from the server and the FSTs fetched so far.
#[derive(Clone, Copy)]
pub struct Lexicons {
    infos: Resource<Result<Vec<DictionaryInfo>, ServerFnError>>,
    loaded: RwSignal<HashMap<DictionaryId, LexiconState>>,
}

impl Lexicons {
    /// Makes the page's dictionaries available to every component below.
    pub fn provide() -> Lexicons {
        let lexicons = Lexicons {
            infos: Resource::new(|| (), |_| dictionary_list(false)),
            loaded: RwSignal::new(HashMap::new()),
        };
        provide_context(lexicons);
        lexicons
    }

    /// The page's dictionaries, as provided by the app.
    pub fn expect() -> Lexicons {
        expect_context::<Lexicons>()
    }

    /// The list from the server.
    pub fn infos(self) -> Resource<Result<Vec<DictionaryInfo>, ServerFnError>> {
        self.infos
    }

    /// The state of `id`'s lexicon; asking starts the fetch (in the browser; on the server the
    /// answer stays `Loading`).
    pub fn state(self, id: DictionaryId) -> LexiconState {
        if let Some(state) = self.loaded.with(|loaded| loaded.get(&id).cloned()) {
            return state;
        }
        #[cfg(feature = "hydrate")]
        self.fetch(id);
        LexiconState::Loading
    }

    #[cfg(feature = "hydrate")]
    fn fetch(self, id: DictionaryId) {
        // Tracked: if the list has not arrived yet, the caller runs again when it does.
        let Some(Ok(infos)) = self.infos.get() else {
            return;
        };
        let Some(url) = infos.iter().find(|i| i.id == id).map(|i| i.url.clone()) else {
            return;
        };
        // Mark it first: a second caller in the same tick must not fetch again.
        self.loaded.update_untracked(|loaded| {
            loaded.insert(id, LexiconState::Loading);
        });
        leptos::task::spawn_local(async move {
            let state = match fetch_bytes(&url).await.and_then(|bytes| {
                FstLexicon::from_bytes(bytes).map_err(|e| format!("not a dictionary: {e}"))
            }) {
                Ok(lexicon) => LexiconState::Ready(Arc::new(lexicon)),
                Err(error) => LexiconState::Failed(error),
            };
            self.loaded.update(|loaded| {
                loaded.insert(id, state);
            });
        });
    }
}

#[cfg(feature = "hydrate")]
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("{e:?}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(|e| format!("{e:?}"))?)
        .await
        .map_err(|e| format!("{e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
