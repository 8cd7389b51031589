//! The start page: what the product is, and a word-value calculator that shows the rules crate
//! running in the browser and on the server with the same answer.

use leptos::prelude::*;
use rules::TileSet;

/// Longest word the calculator takes: the longest a 15-cell board can hold.
const MAX_WORD_LEN: usize = 15;

/// The start page.
#[component]
pub fn HomePage() -> impl IntoView {
    // Effects run only in the browser, so this turns true once the page is hydrated; the browser
    // tests wait for it, and the calculator below only reacts from then on.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));

    let tile_set = RwSignal::new(String::from("feud_en"));
    let word = RwSignal::new(String::new());
    let local_value = Memo::new(move |_| {
        let set = TileSet::by_id(&tile_set.get())?;
        Some(set.face_value(&word.get()))
    });
    let server_check = ServerAction::<WordValue>::new();
    // The question the last answer belongs to: once the word or tile set changes, the answer is
    // about something else and is hidden.
    let asked = RwSignal::new(None::<(String, String)>);
    let answer_is_current = move || asked.get() == Some((tile_set.get(), word.get()));

    view! {
        <main class="page" data-hydrated=move || hydrated.get().to_string()>
            <header class="hero">
                <h1>{crate::APP_NAME}</h1>
                <p class="tagline">
                    "Crossword word games in your browser: the Alfa Kraft flagship with powers and coins, "
                    "Classic with double challenge, Feud, Swedish Alfapet and Long words. "
                    "Play bots, friends or the open lobby, in English, Swedish, Danish or Norwegian."
                </p>
            </header>

            <section class="calculator" aria-labelledby="calc-title">
                <h2 id="calc-title">"What is a word worth?"</h2>
                <p class="hint">
                    "Type a word: its tiles and face value appear as you type, computed in your browser by "
                    "the same rules code the server uses to score every move."
                </p>
                <div class="calc-inputs">
                    <label>
                        "Tile set "
                        <select
                            name="tile_set"
                            prop:value=move || tile_set.get()
                            on:change=move |ev| tile_set.set(event_target_value(&ev))
                        >
                            {TileSet::all()
                                .map(|set| view! { <option value=set.id>{tile_set_label(set.id)}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label>
                        "Word "
                        <input
                            type="text"
                            name="word"
                            autocomplete="off"
                            spellcheck="false"
                            maxlength=MAX_WORD_LEN
                            prop:value=move || word.get()
                            on:input=move |ev| word.set(event_target_value(&ev))
                        />
                    </label>
                </div>
                <WordTiles tile_set word />
                <p class="local-value" data-testid="local-value">
                    {move || match local_value.get() {
                        Some(Ok(points)) => format!("{points} points on plain squares"),
                        Some(Err(unknown)) => unknown.to_string(),
                        None => String::from("Unknown tile set"),
                    }}
                </p>
                <button
                    class="primary"
                    on:click=move |_| {
                        let (tile_set, word) = (tile_set.get_untracked(), word.get_untracked());
                        asked.set(Some((tile_set.clone(), word.clone())));
                        server_check.dispatch(WordValue { tile_set, word });
                    }
                >
                    "Ask the server"
                </button>
                <p class="server-value" data-testid="server-value" aria-live="polite">
                    {move || match server_check.value().get().filter(|_| answer_is_current()) {
                        None if server_check.pending().get() => String::from("Asking…"),
                        None => String::new(),
                        Some(Ok(Ok(points))) => format!("The server agrees: {points} points"),
                        Some(Ok(Err(refusal))) => format!("The server says: {refusal}"),
                        Some(Err(error)) => format!("The server could not be reached: {error}"),
                    }}
                </p>
            </section>
        </main>
    }
}

/// The word as a row of tiles, each with its face value.
#[component]
fn WordTiles(tile_set: RwSignal<String>, word: RwSignal<String>) -> impl IntoView {
    let tiles = move || {
        let set = TileSet::by_id(&tile_set.get());
        word.get()
            .chars()
            .map(|ch| {
                let points = set.and_then(|set| set.points(ch));
                let class = if points.is_some() { "tile" } else { "tile unknown" };
                let letter = ch.to_uppercase().to_string();
                view! {
                    <span class=class>
                        {letter}
                        <sub>{points.map(|p| p.to_string()).unwrap_or_else(|| String::from("?"))}</sub>
                    </span>
                }
            })
            .collect_view()
    };
    view! { <div class="tiles" aria-hidden="true">{tiles}</div> }
}

fn tile_set_label(id: &str) -> &'static str {
    match id {
        "classic_en_100" => "Classic (English)",
        "feud_en" => "English",
        "feud_sv" => "Swedish",
        "feud_da" => "Danish",
        "feud_nb" => "Norwegian",
        "alfapet_sv_120" => "Alfapet (Swedish)",
        "longwords_en_100" => "Long words (English)",
        _ => "Other",
    }
}

/// Why the server would not value a word. An expected answer, not a failure: it travels inside a
/// successful response, so the browser shows it without logging an HTTP error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
pub enum WordValueRefusal {
    /// No tile set has that name.
    #[error("there is no tile set called '{0}'")]
    UnknownTileSet(String),
    /// The word is longer than a board row.
    #[error("a word has at most {MAX_WORD_LEN} letters")]
    TooLong,
    /// The word has a letter the tile set lacks.
    #[error("'{0}' is not a letter of this tile set")]
    UnknownLetter(char),
}

/// The face value of `word` in `tile_set`, computed on the server. The start page compares it with
/// the browser's own answer.
// The macro's generated argument struct has fields that cannot carry doc comments.
#[allow(missing_docs)]
#[server]
pub async fn word_value(
    tile_set: String,
    word: String,
) -> Result<Result<u32, WordValueRefusal>, ServerFnError> {
    let Some(set) = TileSet::by_id(&tile_set) else {
        return Ok(Err(WordValueRefusal::UnknownTileSet(tile_set)));
    };
    if word.chars().count() > MAX_WORD_LEN {
        return Ok(Err(WordValueRefusal::TooLong));
    }
    Ok(set
        .face_value(&word)
        .map_err(|unknown| WordValueRefusal::UnknownLetter(unknown.0)))
}
