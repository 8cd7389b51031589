//! The start page: what the product is, and a word checker that runs the rules crate and the
//! dictionary in the browser, then asks the server, which must agree.

use dictionaries::DictionaryId;
use leptos::prelude::*;
use rules::Lexicon;

use crate::dictionary::{LexiconState, Lexicons};
use crate::i18n::Language;
use crate::t;
use crate::tr;

/// Longest word the checker takes: the longest a 15-cell board can hold.
const MAX_WORD_LEN: usize = 15;

/// The start page.
#[component]
pub fn HomePage() -> impl IntoView {
    // Effects run only in the browser, so this turns true once the page is hydrated; the browser
    // tests wait for it, and the checker below only reacts from then on.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    // The same seeded draw, once on the server (rendered into the page) and once in the browser:
    // the browser tests compare them, proving the bag draws alike on native and wasm.
    let server_draw = draw_fingerprint();
    let browser_draw = RwSignal::new(String::new());
    Effect::new(move |_| browser_draw.set(draw_fingerprint()));

    let lexicons = Lexicons::expect();
    let language = Language::expect();
    let dictionary = RwSignal::new(DictionaryId::English);
    let word = RwSignal::new(String::new());
    let local_value = Memo::new(move |_| dictionary.get().tile_set().face_value(&word.get()));
    let server_check =
        crate::acting::acting(|w: &WordValue| word_value(w.dictionary.clone(), w.word.clone()));
    // The question the last answer belongs to: once the word or dictionary changes, the answer is
    // about something else and is hidden.
    let asked = RwSignal::new(None::<(DictionaryId, String)>);
    let answer_is_current = move || asked.get() == Some((dictionary.get(), word.get()));

    let word_check = move || {
        let (id, word) = (dictionary.get(), rules::case::lower_str(&word.get()));
        let texts = language.get();
        let dictionary = crate::i18n::dictionary_name(texts, id);
        match lexicons.state(id) {
            LexiconState::Loading => tr!(texts, home.dictionary_loading, dictionary),
            LexiconState::Failed(error) => tr!(texts, home.dictionary_failed, dictionary, error),
            LexiconState::Ready(_) if word.is_empty() => {
                tr!(texts, home.dictionary_ready, dictionary)
            }
            LexiconState::Ready(lexicon) if lexicon.contains(&word) => {
                tr!(texts, home.is_a_word, word, dictionary)
            }
            LexiconState::Ready(_) => tr!(texts, home.not_a_word, word, dictionary),
        }
    };

    // A player with games comes for them: the challenges and the list come first, the New Game
    // form waits behind a button (open at once when an address asks for it: a friend's
    // Challenge link, `?new`). A visitor, or a player without games, meets the introduction
    // and the form.
    let lists = crate::routes::my_games::Lists::load();
    let form_asked = leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("friend").is_some() || q.get("new").is_some());
    let form_open = RwSignal::new(form_asked);
    use crate::routes::my_games::{Following, GamesHead, MyGames, WaitingChallenges};

    view! {
        <main class="page" data-hydrated=move || hydrated.get().to_string()>
            <Transition fallback=|| ()>
                {move || (!lists.has_games()).then(|| view! { <Hero /> })}
            </Transition>
            <WaitingChallenges lists />
            <crate::routes::device_games::DeviceGames />
            <GamesHead lists form_open />
            <crate::routes::new_game::NewGameForm open=form_open />
            <MyGames lists />
            <Following lists />
            <crate::routes::daily_cards::DailyChallenges />
            <crate::routes::my_reports::MyReports />

            <section class="calculator" aria-labelledby="calc-title">
                <h2 id="calc-title">{t!(home.calc_title)}</h2>
                <p class="hint">{t!(home.calc_hint)}</p>
                <div class="calc-inputs">
                    <label>
                        {t!(home.dictionary)}" "
                        <select
                            name="dictionary"
                            prop:value=move || dictionary.get().as_str()
                            on:change=move |ev| {
                                if let Some(id) = DictionaryId::parse(&event_target_value(&ev)) {
                                    dictionary.set(id);
                                }
                            }
                        >
                            {DictionaryId::ALL
                                .into_iter()
                                .map(|id| view! { <option value=id.as_str()>{crate::i18n::text(crate::i18n::dictionary_key(id))}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label>
                        {t!(home.word)}" "
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
                <WordTiles dictionary word />
                <p class="local-value" data-testid="local-value">
                    {move || match local_value.get() {
                        Ok(points) => tr!(language.get(), home.plain_points, points),
                        Err(unknown) => tr!(language.get(), home.unknown_letter, letter = unknown.0),
                    }}
                </p>
                <p class="word-check" data-testid="word-check" aria-live="polite">{word_check}</p>
                <button
                    class="primary"
                    on:click=move |_| {
                        let (dictionary, word) = (dictionary.get_untracked(), word.get_untracked());
                        asked.set(Some((dictionary, word.clone())));
                        server_check.dispatch(WordValue { dictionary: dictionary.as_str().to_string(), word });
                    }
                >
                    {t!(home.ask_server)}
                </button>
                <p class="server-value" data-testid="server-value" aria-live="polite">
                    {move || { let texts = language.get(); match server_check.value().filter(|_| answer_is_current()) {
                        None if server_check.pending().get() => tr!(texts, home.asking).to_string(),
                        None => String::new(),
                        Some(Ok(Ok(answer))) => {
                            let dictionary = crate::i18n::dictionary_name(texts, dictionary.get());
                            if answer.is_word {
                                tr!(texts, home.server_word, points = answer.points, dictionary)
                            } else {
                                tr!(texts, home.server_not_word, points = answer.points, dictionary)
                            }
                        }
                        Some(Ok(Err(refusal))) => {
                            let reason = match refusal {
                                WordValueRefusal::UnknownDictionary(name) => tr!(texts, home.no_dictionary, name),
                                WordValueRefusal::TooLong => tr!(texts, home.too_long, letters = MAX_WORD_LEN),
                                WordValueRefusal::UnknownLetter(letter) => tr!(texts, home.unknown_letter, letter),
                            };
                            tr!(texts, home.server_says, reason)
                        }
                        Some(Err(error)) => tr!(texts, refusal.unreachable, error),
                    }}}
                </p>
            </section>
            <p hidden data-testid="draw-check" data-server=server_draw data-browser=move || browser_draw.get()></p>
            <footer class="page-footer">
                <a href="/help" rel="external">{t!(home.how_to_play)}</a>
                <a href="/about/dictionaries">{t!(home.about_dictionaries)}</a>
            </footer>
        </main>
    }.into_any()
}

/// What the product is, for a visitor.
#[component]
fn Hero() -> impl IntoView {
    view! {
        <header class="hero">
            <h1>{crate::APP_NAME}</h1>
            <p class="tagline">{t!(home.tagline)}</p>
            // The help page is rendered on the server outside the app: a full page load.
            <p><a href="/help" rel="external" data-testid="help-link">{t!(home.how_to_play)}</a></p>
        </header>
    }
}

/// Twenty tiles drawn from a full English bag with a fixed seed, as text.
fn draw_fingerprint() -> String {
    let tiles = rules::TileSet::by_id("feud_en").expect("feud_en is in the data");
    let letters = |drawn: &[rules::HandTile]| -> String {
        drawn
            .iter()
            .map(|t| match t {
                rules::HandTile::Letter(letter) => tiles.char_of(*letter),
                _ => '?',
            })
            .collect()
    };
    let mut bag = rules::bag::Bag::full(tiles, 0);
    let mut rng = rules::bag::Rng::new(0x005E_ED0F_A1FA);
    // And the first rack of one day's Daily Challenge: the puzzle is the same in the browser.
    let day = rules::daily::Day::parse("2026-12-01").expect("a date");
    let seed = rules::daily::dated_seed(day, "en@1");
    let daily = rules::GameState::new(rules::daily::config(seed, "en@1", rules::Language::English));
    format!(
        "{}|{}",
        letters(&bag.draw(20, &mut rng)),
        letters(daily.hand(0))
    )
}

/// The word as a row of tiles, each with its face value.
#[component]
fn WordTiles(dictionary: RwSignal<DictionaryId>, word: RwSignal<String>) -> impl IntoView {
    let tiles = move || {
        let set = dictionary.get().tile_set();
        word.get()
            .chars()
            .map(|ch| {
                let points = set.points(ch);
                let class = if points.is_some() { "tile" } else { "tile unknown" };
                let letter = rules::case::upper(ch).to_string();
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

/// The server's answer about a word.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WordAnswer {
    /// Face value in the dictionary's tile set.
    pub points: u32,
    /// Whether the dictionary has it.
    pub is_word: bool,
}

/// Why the server would not judge a word. An expected answer, not a failure: it travels inside a
/// successful response, so the browser shows it without logging an HTTP error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
pub enum WordValueRefusal {
    /// No dictionary has that id.
    #[error("there is no dictionary called '{0}'")]
    UnknownDictionary(String),
    /// The word is longer than a board row.
    #[error("a word has at most {MAX_WORD_LEN} letters")]
    TooLong,
    /// The word has a letter the tile set lacks.
    #[error("'{0}' is not a letter of this tile set")]
    UnknownLetter(char),
}

/// The face value of `word` in the dictionary's tile set and whether the dictionary has it,
/// judged on the server. The start page compares it with the browser's own answer.
// The macro's generated argument struct has fields that cannot carry doc comments.
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::Wire, endpoint = "words/value")]
pub async fn word_value(
    dictionary: String,
    word: String,
) -> Result<Result<WordAnswer, WordValueRefusal>, ServerFnError> {
    let Some(id) = DictionaryId::parse(&dictionary) else {
        return Ok(Err(WordValueRefusal::UnknownDictionary(dictionary)));
    };
    if word.chars().count() > MAX_WORD_LEN {
        return Ok(Err(WordValueRefusal::TooLong));
    }
    let points = match id.tile_set().face_value(&word) {
        Ok(points) => points,
        Err(unknown) => return Ok(Err(WordValueRefusal::UnknownLetter(unknown.0))),
    };
    let services = crate::api::server::services()?;
    let active = services
        .library
        .active(id)
        .await
        .map_err(crate::api::server::failed)?;
    let is_word = active.lexicon.contains(&word.to_lowercase());
    Ok(Ok(WordAnswer { points, is_word }))
}
