//! The bots of the games on this device, in a Web Worker (`public/bot-worker.js`) that loads the
//! engine's module the first time a game needs a bot: the page keeps drawing while the bot
//! thinks. One worker, started for one game's ruleset and dictionary at a time.

use std::cell::RefCell;

use rules::{Action, PlayerView, Variant};
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    /// The worker, and the game (ruleset and dictionary) it was started for.
    static WORKER: RefCell<Option<(Vec<u8>, web_sys::Worker)>> = const { RefCell::new(None) };
}

/// A bot's turn, and how long it thought, in milliseconds.
pub struct Played {
    pub actions: Vec<Action>,
    pub ms: f64,
}

/// The turn the bot of `level` plays from `view` in a game of `variant` with the dictionary at
/// `dictionary_url`, its randomness drawn from `seed`.
pub async fn play(
    variant: Variant,
    dictionary_url: &str,
    level: &str,
    seed: u64,
    view: &PlayerView,
) -> Result<Played, String> {
    let worker = started(variant, dictionary_url).await?;
    let view = crate::wire::to_bytes(view).map_err(|e| e.to_string())?;
    let play = object(&[
        ("level", level.into()),
        // Below 2^53, so exact as a JS number; the worker makes it a BigInt.
        ("seed", JsValue::from_f64((seed >> 11) as f64)),
        ("view", js_sys::Uint8Array::from(view.as_slice()).into()),
    ]);
    let answer = ask(&worker, &object(&[("play", play)])).await?;
    let played = field(&answer, "played").ok_or("the bot did not answer")?;
    let bytes = js_sys::Uint8Array::new(&played).to_vec();
    Ok(Played {
        actions: crate::wire::from_bytes(&bytes).map_err(|e| e.to_string())?,
        ms: field(&answer, "ms")
            .and_then(|ms| ms.as_f64())
            .unwrap_or(0.0),
    })
}

/// The worker, started for this game's ruleset and dictionary.
async fn started(variant: Variant, dictionary_url: &str) -> Result<web_sys::Worker, String> {
    let mut game = crate::wire::to_bytes(&variant).map_err(|e| e.to_string())?;
    game.extend_from_slice(dictionary_url.as_bytes());
    let running = WORKER.with_borrow(|w| {
        w.as_ref()
            .filter(|(for_game, _)| *for_game == game)
            .map(|(_, worker)| worker.clone())
    });
    if let Some(worker) = running {
        return Ok(worker);
    }
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options("/bot-worker.js", &options)
        .map_err(|e| crate::js_error::text(&e))?;
    let variant = crate::wire::to_bytes(&variant).map_err(|e| e.to_string())?;
    let begin = object(&[
        (
            "variant",
            js_sys::Uint8Array::from(variant.as_slice()).into(),
        ),
        ("dictionary_url", dictionary_url.into()),
    ]);
    if let Err(error) = ask(&worker, &object(&[("begin", begin)])).await {
        worker.terminate();
        return Err(error);
    }
    if let Some((_, old)) = WORKER.with_borrow_mut(|w| w.replace((game, worker.clone()))) {
        old.terminate();
    }
    Ok(worker)
}

/// Sends `message` and waits for the worker's answer (one question at a time).
async fn ask(worker: &web_sys::Worker, message: &JsValue) -> Result<JsValue, String> {
    let answered = js_sys::Promise::new(&mut |resolve, reject| {
        worker.set_onmessage(Some(&resolve));
        worker.set_onerror(Some(&reject));
    });
    worker
        .post_message(message)
        .map_err(|e| crate::js_error::text(&e))?;
    let event = wasm_bindgen_futures::JsFuture::from(answered)
        .await
        .map_err(|_| "the bot's worker failed to load".to_string())?;
    worker.set_onmessage(None);
    worker.set_onerror(None);
    let data = event.unchecked_into::<web_sys::MessageEvent>().data();
    match field(&data, "error") {
        Some(error) => Err(error.as_string().unwrap_or_default()),
        None => Ok(data),
    }
}

fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    for (name, value) in fields {
        // Setting a field of a new plain object does not fail.
        let _ = js_sys::Reflect::set(&object, &(*name).into(), value);
    }
    object.into()
}

fn field(data: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(data, &name.into())
        .ok()
        .filter(|v| !v.is_undefined())
}
