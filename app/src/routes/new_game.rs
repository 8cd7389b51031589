//! New Game: ruleset, dictionary and format first, then the opponent (a bot with its rank, a friend
//! by invite link, the open lobby, or pass-and-play). A visitor may start a bot game at once.

use dictionaries::DictionaryId;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use rules::{Format, Variant};

use crate::api::{fits, play::create_game, NewGame, Opponent};
use crate::i18n::{keys, text, Key, Language};
use crate::t;
use crate::tr;

/// The rulesets offered, by form value.
const RULESETS: [(&str, Key); 7] = [
    ("alfakraft", keys::new_game::alfakraft),
    ("classic", keys::new_game::classic),
    ("feud", keys::new_game::feud),
    ("feud-random", keys::new_game::feud_random),
    ("alfapet", keys::new_game::alfapet),
    ("alfapet-special", keys::new_game::alfapet_special),
    ("longwords", keys::new_game::long_words),
];

/// Bot levels with their displayed ranks (the engine's).
const BOTS: [(&str, Key, i32); 5] = [
    ("beginner", keys::new_game::beginner, 550),
    ("casual", keys::new_game::casual, 950),
    ("club", keys::new_game::club, 1350),
    ("expert", keys::new_game::expert, 1390),
    ("master", keys::new_game::master, 1530),
];

/// The kinds of opponent, by form value.
const OPPONENTS: [(&str, Key); 4] = [
    ("bot", keys::new_game::bot_opponent),
    ("invite", keys::new_game::invite_opponent),
    ("lobby", keys::new_game::lobby_opponent),
    ("local", keys::new_game::local_opponent),
];

/// The options only some rulesets have: Alfapet's hand size, Long words' hard mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Options {
    hand_size: u8,
    hard_mode: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hand_size: 7,
            hard_mode: false,
        }
    }
}

/// The variant for a form value, dictionary and options.
fn variant(ruleset: &str, dictionary: DictionaryId, options: Options) -> Variant {
    let language = dictionary.language();
    match ruleset {
        "classic" => Variant::Classic,
        "feud" => Variant::Feud {
            language,
            random_board: false,
        },
        "feud-random" => Variant::Feud {
            language,
            random_board: true,
        },
        "alfapet" => Variant::Alfapet {
            hand_size: options.hand_size,
            special_tiles: false,
        },
        "alfapet-special" => Variant::Alfapet {
            hand_size: options.hand_size,
            special_tiles: true,
        },
        "longwords" => Variant::LongWords {
            hard_mode: options.hard_mode,
        },
        _ => Variant::AlfaKraft { language },
    }
}

/// Dictionaries a ruleset is played with.
fn dictionaries_for(ruleset: &str) -> Vec<DictionaryId> {
    DictionaryId::ALL
        .into_iter()
        .filter(|d| fits(variant(ruleset, *d, Options::default()), *d))
        .collect()
}

/// The form.
#[component]
pub fn NewGameForm() -> AnyView {
    let language = Language::expect();
    let ruleset = RwSignal::new("alfakraft".to_string());
    let dictionary = RwSignal::new(DictionaryId::English);
    let format = RwSignal::new(Format::Casual);
    let opponent = RwSignal::new("bot".to_string());
    let bot = RwSignal::new("casual".to_string());
    let players = RwSignal::new(2u8);
    // Pass-and-play: each seat's name (blank: the server's default).
    let names = RwSignal::new(vec![String::new(); 4]);
    let rated = RwSignal::new(true);
    let options = RwSignal::new(Options::default());
    // A dictionary the ruleset cannot use is swapped for its first one.
    Effect::new(move |_| {
        let allowed = dictionaries_for(&ruleset.get());
        if !allowed.contains(&dictionary.get_untracked()) {
            dictionary.set(allowed[0]);
        }
    });
    let create = crate::acting::acting(|new: &NewGame| create_game(new.clone()));
    let invite = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        if let Some(Ok(Ok(created))) = create.value() {
            match created.invite_path {
                Some(path) => invite.set(Some(path)),
                None => use_navigate()(&format!("/game/{}", created.id), Default::default()),
            }
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let opponent = match opponent.get_untracked().as_str() {
            "invite" => Opponent::Invite,
            "lobby" => Opponent::Lobby,
            "local" => Opponent::PassAndPlay {
                players: players.get_untracked(),
                names: names.with_untracked(|n| {
                    n.iter()
                        .take(usize::from(players.get_untracked()))
                        .cloned()
                        .collect()
                }),
            },
            _ => Opponent::Bot {
                level: bot.get_untracked(),
            },
        };
        invite.set(None);
        create.dispatch(NewGame {
            variant: variant(
                &ruleset.get_untracked(),
                dictionary.get_untracked(),
                options.get_untracked(),
            ),
            dictionary: dictionary.get_untracked(),
            format: format.get_untracked(),
            opponent,
            rated: rated.get_untracked(),
        });
    };
    let max_players = move || {
        rules::RuleSet::new(variant(&ruleset.get(), dictionary.get(), options.get())).max_players
    };
    // Fewer seats than chosen when the ruleset changes to one for fewer players.
    Effect::new(move |_| {
        let most = max_players();
        if players.get_untracked() > most {
            players.set(most);
        }
    });
    view! {
        <section class="card new-game" aria-labelledby="new-game-title">
            <h2 id="new-game-title">{t!(summary.new_game)}</h2>
            <form class="form" on:submit=submit>
                <div class="choices">
                    <label>
                        {t!(new_game.ruleset)}
                        <select name="ruleset" prop:value=move || ruleset.get()
                            on:change=move |ev| ruleset.set(event_target_value(&ev))>
                            {RULESETS.into_iter().map(|(value, label)| view! { <option value=value>{text(label)}</option> }).collect_view()}
                        </select>
                    </label>
                    <label>
                        {t!(home.dictionary)}
                        <select name="dictionary" prop:value=move || dictionary.get().as_str()
                            on:change=move |ev| if let Some(id) = DictionaryId::parse(&event_target_value(&ev)) { dictionary.set(id) }>
                            {move || dictionaries_for(&ruleset.get()).into_iter()
                                .map(|id| view! { <option value=id.as_str() selected=move || dictionary.get() == id>{crate::i18n::text(crate::i18n::dictionary_key(id))}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label>
                        {t!(new_game.format)}
                        <select name="format" prop:value=move || if format.get() == Format::Blitz { "blitz" } else { "casual" }
                            on:change=move |ev| format.set(if event_target_value(&ev) == "blitz" { Format::Blitz } else { Format::Casual })>
                            <option value="casual">{t!(new_game.casual_format)}</option>
                            <option value="blitz">{t!(new_game.blitz_format)}</option>
                        </select>
                    </label>
                    <Show when=move || ruleset.get().starts_with("alfapet")>
                        <label>
                            {t!(new_game.hand)}
                            <select name="hand" prop:value=move || options.get().hand_size.to_string()
                                on:change=move |ev| {
                                    let hand_size = event_target_value(&ev).parse().unwrap_or(7);
                                    options.update(|o| o.hand_size = hand_size);
                                }>
                                <option value="6">{t!(new_game.hand_6)}</option>
                                <option value="7">{t!(new_game.hand_7)}</option>
                                <option value="8">{t!(new_game.hand_8)}</option>
                            </select>
                        </label>
                    </Show>
                    <Show when=move || ruleset.get() == "longwords">
                        <label class="checkbox">
                            <input type="checkbox" name="hard_mode" prop:checked=move || options.get().hard_mode
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    options.update(|o| o.hard_mode = on);
                                } />
                            {t!(new_game.hard_mode)}
                        </label>
                    </Show>
                </div>
                <fieldset class="opponents">
                    <legend>{t!(new_game.opponent)}</legend>
                    {OPPONENTS
                        .into_iter()
                        .map(|(value, label)| view! {
                            <label class="radio">
                                <input type="radio" name="opponent" value=value
                                    prop:checked=move || opponent.get() == value
                                    on:change=move |_| opponent.set(value.to_string()) />
                                {text(label)}
                            </label>
                        })
                        .collect_view()}
                </fieldset>
                <Show when=move || opponent.get() == "bot">
                    <label>
                        {t!(new_game.bot)}
                        <select name="bot" prop:value=move || bot.get() on:change=move |ev| bot.set(event_target_value(&ev))>
                            {BOTS.into_iter().map(|(value, name, rank)| view! {
                                <option value=value>{crate::i18n::worded(move |l| tr!(l, new_game.bot_rank, name = l.text(name), rank))}</option>
                            }).collect_view()}
                        </select>
                    </label>
                </Show>
                <Show when=move || matches!(opponent.get().as_str(), "invite" | "lobby")>
                    <label class="checkbox">
                        <input type="checkbox" name="rated" data-testid="rated" prop:checked=move || rated.get()
                            on:change=move |ev| rated.set(event_target_checked(&ev)) />
                        {t!(new_game.rated)}
                    </label>
                </Show>
                <Show when=move || opponent.get() == "local">
                    <label>
                        {t!(new_game.players)}
                        <select name="players" prop:value=move || players.get().to_string()
                            on:change=move |ev| players.set(event_target_value(&ev).parse().unwrap_or(2))>
                            {move || (2..=max_players()).map(|n| view! { <option value=n.to_string()>{n}</option> }).collect_view()}
                        </select>
                    </label>
                    <div class="choices local-names">
                        {move || (0..usize::from(players.get())).map(|seat| view! {
                            <label>
                                {crate::i18n::worded(move |l| tr!(l, new_game.player, seat = seat + 1))}
                                <input type="text" name=format!("local-name-{seat}") maxlength=domain::LOCAL_NAME_MAX
                                    placeholder=crate::i18n::worded(move |l| if seat == 0 { tr!(l, new_game.you).to_string() } else { tr!(l, new_game.player, seat = seat + 1) })
                                    prop:value=move || names.with(|n| n.get(seat).cloned().unwrap_or_default())
                                    on:input=move |ev| names.update(|n| if let Some(name) = n.get_mut(seat) { *name = event_target_value(&ev); }) />
                            </label>
                        }).collect_view()}
                    </div>
                </Show>
                <button class="primary" type="submit" disabled=move || create.pending().get()>{t!(new_game.start)}</button>
                {move || match create.value() {
                    Some(Ok(Err(refusal))) => Some(view! { <p class="error" role="alert">{crate::routes::game::answer_text(language.get(), Ok(refusal))}</p> }.into_any()),
                    Some(Err(error)) => Some(view! { <p class="error" role="alert">{crate::routes::game::answer_text(language.get(), Err(error))}</p> }.into_any()),
                    _ => None,
                }}
                {move || invite.get().map(|path| {
                    let origin = window_origin();
                    view! {
                        <div class="invite-link" role="status">
                            <p>{t!(new_game.send_link)}</p>
                            <div class="share">
                                <input type="text" readonly data-testid="invite-link" prop:value=format!("{origin}{path}") />
                                <crate::clipboard::CopyButton text=format!("{origin}{path}") />
                                <crate::clipboard::ShareButton text=format!("{origin}{path}") />
                            </div>
                        </div>
                    }
                })}
            </form>
        </section>
    }.into_any()
}

/// The page's origin (`http://host:port`), for links to copy; empty on the server.
pub fn window_origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        String::new()
    }
}
