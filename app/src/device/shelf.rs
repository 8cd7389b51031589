//! The games kept on this device, in the browser's IndexedDB: each saved after every action, so a
//! closed page (or a dead battery) loses nothing, and read back when the page opens again, with
//! or without a network. Values are the app's wire form (postcard); the dictionaries' list is
//! kept beside them, so a game can start offline.

use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::{IdbDatabase, IdbObjectStore, IdbRequest, IdbTransactionMode};

use super::Saved;
use dictionaries::DictionaryInfo;

const DATABASE: &str = "alfakraft";
const GAMES: &str = "device-games";
const KEPT: &str = "kept";
/// The key of the dictionaries' list in [`KEPT`].
const DICTIONARIES: &str = "dictionaries";

/// A game, by its key; `None` if this device has none so named (or cannot read it: a save from
/// a release whose types changed is not a game any more).
pub async fn load(key: &str) -> Result<Option<Saved>, String> {
    let value = request(&store(GAMES, false).await?.get(&key.into()).map_err(text)?).await?;
    Ok(read(&value))
}

/// Every game kept here.
pub async fn all() -> Result<Vec<Saved>, String> {
    let values = request(&store(GAMES, false).await?.get_all().map_err(text)?).await?;
    Ok(js_sys::Array::from(&values)
        .iter()
        .filter_map(|value| read(&value))
        .collect())
}

/// Keeps `game`, over what was kept under its key.
pub async fn save(game: &Saved) -> Result<(), String> {
    let value = write(game)?;
    let store = store(GAMES, true).await?;
    request(
        &store
            .put_with_key(&value, &game.key.as_str().into())
            .map_err(text)?,
    )
    .await?;
    Ok(())
}

/// Forgets the game kept under `key`.
pub async fn discard(key: &str) -> Result<(), String> {
    request(
        &store(GAMES, true)
            .await?
            .delete(&key.into())
            .map_err(text)?,
    )
    .await?;
    Ok(())
}

/// Keeps the dictionaries' list as the server last gave it.
pub async fn keep_dictionaries(infos: &[DictionaryInfo]) -> Result<(), String> {
    let value = write(&infos)?;
    let store = store(KEPT, true).await?;
    request(
        &store
            .put_with_key(&value, &DICTIONARIES.into())
            .map_err(text)?,
    )
    .await?;
    Ok(())
}

/// The dictionaries' list kept last, if any.
pub async fn dictionaries() -> Result<Option<Vec<DictionaryInfo>>, String> {
    let value = request(
        &store(KEPT, false)
            .await?
            .get(&DICTIONARIES.into())
            .map_err(text)?,
    )
    .await?;
    Ok(read(&value))
}

fn write<T: serde::Serialize>(value: &T) -> Result<JsValue, String> {
    let bytes = crate::wire::to_bytes(value).map_err(|e| e.to_string())?;
    Ok(js_sys::Uint8Array::from(bytes.as_slice()).into())
}

fn read<T: serde::de::DeserializeOwned>(value: &JsValue) -> Option<T> {
    let bytes = value.dyn_ref::<js_sys::Uint8Array>()?.to_vec();
    crate::wire::from_bytes(&bytes).ok()
}

/// One object store of the database, in a transaction of its own.
async fn store(name: &str, writing: bool) -> Result<IdbObjectStore, String> {
    let mode = match writing {
        true => IdbTransactionMode::Readwrite,
        false => IdbTransactionMode::Readonly,
    };
    open()
        .await?
        .transaction_with_str_and_mode(name, mode)
        .and_then(|t| t.object_store(name))
        .map_err(text)
}

/// The database, made on first use.
async fn open() -> Result<IdbDatabase, String> {
    let factory = web_sys::window()
        .and_then(|w| w.indexed_db().ok().flatten())
        .ok_or("this browser keeps no games (no IndexedDB)")?;
    let opening = factory.open_with_u32(DATABASE, 1).map_err(text)?;
    let made = opening.clone();
    let upgrade = Closure::once(move |_: web_sys::Event| {
        if let Ok(database) = made.result() {
            let database: IdbDatabase = database.unchecked_into();
            for name in [GAMES, KEPT] {
                // Only on the first open: nothing there yet.
                let _ = database.create_object_store(name);
            }
        }
    });
    opening.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
    let database = request(&opening).await;
    opening.set_onupgradeneeded(None);
    Ok(database?.unchecked_into())
}

/// A request's result, once it succeeds.
async fn request(request: &IdbRequest) -> Result<JsValue, String> {
    let done = js_sys::Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let answer = wasm_bindgen_futures::JsFuture::from(done).await;
    request.set_onsuccess(None);
    request.set_onerror(None);
    answer.map_err(|_| {
        request
            .error()
            .ok()
            .flatten()
            .map_or_else(|| "the device's storage failed".into(), |e| e.message())
    })?;
    request.result().map_err(text)
}

fn text(error: JsValue) -> String {
    crate::js_error::text(&error)
}
