//! New Game: ruleset, dictionary and format first, then the opponent (a bot with its rank, a friend
//! by invite link, the open lobby, or pass-and-play). A visitor may start a bot game at once.

use dictionaries::DictionaryId;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use rules::{Format, Variant};

use crate::api::{fits, play::create_game, play::GameCreated, NewGame, Opponent, Refusal};
use crate::i18n::{keys, text, Key, Language};
use crate::t;
use crate::tr;
use domain::OpponentKind;

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

/// The displayed rank of the bot of `level`.
pub(crate) fn bot_rank(level: &str) -> Option<i32> {
    BOTS.iter()
        .find(|(name, ..)| *name == level)
        .map(|(.., rank)| *rank)
}

/// Where a new device game is made: `/device/new?game=<the NewGame, postcard in hex>`. The form
/// and Play again lead there; the device page makes the game and goes on to its own address.
pub fn device_game_path(new: &NewGame) -> String {
    let bytes = crate::wire::to_bytes(new).unwrap_or_default();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("/device/new?game={hex}")
}

/// The [`NewGame`] a [`device_game_path`] carries.
pub fn device_game_of(hex: &str) -> Option<NewGame> {
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    crate::wire::from_bytes(&bytes).ok()
}

/// The kinds of opponent the form offers.
const OPPONENTS: [(OpponentKind, Key); 4] = [
    (OpponentKind::Bot, keys::new_game::bot_opponent),
    (OpponentKind::Invite, keys::new_game::invite_opponent),
    (OpponentKind::Lobby, keys::new_game::lobby_opponent),
    (OpponentKind::Local, keys::new_game::local_opponent),
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

/// What the form's fields hold, as signals the fieldsets share.
#[derive(Clone, Copy)]
struct Choices {
    ruleset: RwSignal<String>,
    dictionary: RwSignal<DictionaryId>,
    format: RwSignal<Format>,
    options: RwSignal<Options>,
    opponent: RwSignal<OpponentKind>,
    bot: RwSignal<String>,
    players: RwSignal<u8>,
    /// Pass-and-play: each seat's name (blank: the server's default).
    names: RwSignal<Vec<String>>,
    rated: RwSignal<bool>,
    /// A friend challenged by name (blank: an invite link instead).
    friend: RwSignal<String>,
    /// A bot or pass-and-play game played on this device (offline, no clock), not the server.
    on_device: RwSignal<bool>,
}

impl Choices {
    /// The form as it first shows: Alfa Kraft in the page's language (its dictionary), Casual,
    /// against the Casual bot.
    fn new() -> Choices {
        let dictionary = match crate::i18n::Language::expect().get_untracked().lang() {
            domain::Lang::En => DictionaryId::English,
            domain::Lang::Sv => DictionaryId::Swedish,
            domain::Lang::Da => DictionaryId::Danish,
            domain::Lang::Nb => DictionaryId::Norwegian,
        };
        // `/?friend=<name>` (the Friends page's Challenge): the form opens on that friend.
        let friend = leptos_router::hooks::use_query_map()
            .with_untracked(|q| q.get("friend"))
            .unwrap_or_default();
        let choices = Choices {
            ruleset: RwSignal::new("alfakraft".to_string()),
            dictionary: RwSignal::new(dictionary),
            format: RwSignal::new(Format::Casual),
            options: RwSignal::new(Options::default()),
            opponent: RwSignal::new(if friend.is_empty() {
                OpponentKind::Bot
            } else {
                OpponentKind::Invite
            }),
            bot: RwSignal::new("casual".to_string()),
            players: RwSignal::new(2u8),
            names: RwSignal::new(vec![String::new(); 4]),
            rated: RwSignal::new(true),
            friend: RwSignal::new(friend),
            on_device: RwSignal::new(true),
        };
        // A dictionary the ruleset cannot use is swapped for its first one.
        Effect::new(move |_| {
            let allowed = dictionaries_for(&choices.ruleset.get());
            if !allowed.contains(&choices.dictionary.get_untracked()) {
                choices.dictionary.set(allowed[0]);
            }
        });
        // Fewer seats than chosen when the ruleset changes to one for fewer players.
        Effect::new(move |_| {
            let most = choices.max_players();
            if choices.players.get_untracked() > most {
                choices.players.set(most);
            }
        });
        choices
    }

    /// The variant the fields describe.
    fn variant(&self) -> Variant {
        variant(
            &self.ruleset.get(),
            self.dictionary.get(),
            self.options.get(),
        )
    }

    /// The most players the chosen ruleset takes.
    fn max_players(&self) -> u8 {
        rules::RuleSet::new(self.variant()).max_players
    }

    /// What the form sends.
    fn new_game(&self) -> NewGame {
        let players = self.players.get_untracked();
        let opponent = match self.opponent.get_untracked() {
            OpponentKind::Invite => match self.friend.get_untracked().trim() {
                "" => Opponent::Invite,
                name => Opponent::Friend { name: name.into() },
            },
            OpponentKind::Lobby => Opponent::Lobby,
            OpponentKind::Local => Opponent::PassAndPlay {
                players,
                names: self
                    .names
                    .with_untracked(|n| n.iter().take(usize::from(players)).cloned().collect()),
            },
            _ => Opponent::Bot {
                level: self.bot.get_untracked(),
            },
        };
        NewGame {
            variant: self.variant_untracked(),
            dictionary: self.dictionary.get_untracked(),
            format: self.format.get_untracked(),
            opponent,
            rated: self.rated.get_untracked(),
        }
    }

    fn variant_untracked(&self) -> Variant {
        variant(
            &self.ruleset.get_untracked(),
            self.dictionary.get_untracked(),
            self.options.get_untracked(),
        )
    }
}

/// The form: what to play, against whom, and what became of it (a refusal, or the link to send).
/// Below a player's games heading it waits behind the heading's New game button (the stylesheet
/// hides it there until `open`, or while it shows an invite link to send: a first game makes
/// that heading appear); opened, its first choice takes the focus.
#[component]
pub fn NewGameForm(#[prop(into)] open: Signal<bool>) -> AnyView {
    let choices = Choices::new();
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
        invite.set(None);
        let new = choices.new_game();
        match new.opponent {
            Opponent::Bot { .. } | Opponent::PassAndPlay { .. }
                if choices.on_device.get_untracked() =>
            {
                use_navigate()(&device_game_path(&new), Default::default());
            }
            _ => create.dispatch(new),
        }
    };
    let first = NodeRef::<leptos::html::Section>::new();
    Effect::new(move |was_open: Option<bool>| {
        let now = open.get();
        if was_open == Some(false) && now {
            if let Some(section) = first.get() {
                section.scroll_into_view();
                if let Ok(Some(select)) = section.query_selector("select") {
                    if let Ok(select) = leptos::wasm_bindgen::JsCast::dyn_into::<
                        leptos::web_sys::HtmlElement,
                    >(select)
                    {
                        let _ = select.focus();
                    }
                }
            }
        }
        now
    });
    view! {
        <section class="card new-game" class:open=move || open.get() || invite.with(Option::is_some) id="new-game" aria-labelledby="new-game-title" node_ref=first>
            <h2 id="new-game-title">{t!(summary.new_game)}</h2>
            <form class="form" on:submit=submit>
                <GameFields choices />
                <OpponentFields choices />
                <button class="primary" type="submit" disabled=move || create.pending().get()>{t!(new_game.start)}</button>
                <Created answer=Signal::derive(move || create.value()) invite />
            </form>
        </section>
    }.into_any()
}

/// The ruleset, dictionary and format, and the options only some rulesets have.
#[component]
fn GameFields(choices: Choices) -> impl IntoView {
    let Choices {
        ruleset,
        dictionary,
        format,
        options,
        ..
    } = choices;
    view! {
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
    }
}

/// Who to play: a bot and its level, a friend by link or the lobby (rated or not), or players
/// on this device with their names.
#[component]
fn OpponentFields(choices: Choices) -> impl IntoView {
    let Choices {
        opponent,
        bot,
        rated,
        friend,
        ..
    } = choices;
    view! {
        <fieldset class="opponents">
            <legend>{t!(new_game.opponent)}</legend>
            {OPPONENTS
                .into_iter()
                .map(|(kind, label)| view! {
                    <label class="radio">
                        <input type="radio" name="opponent" value=kind.as_str()
                            prop:checked=move || opponent.get() == kind
                            on:change=move |_| opponent.set(kind) />
                        {text(label)}
                    </label>
                })
                .collect_view()}
        </fieldset>
        <Show when=move || opponent.get() == OpponentKind::Bot>
            <label>
                {t!(new_game.bot)}
                <select name="bot" prop:value=move || bot.get() on:change=move |ev| bot.set(event_target_value(&ev))>
                    {BOTS.into_iter().map(|(value, name, rank)| view! {
                        <option value=value>{crate::i18n::worded(move |texts| tr!(texts, new_game.bot_rank, name = texts.text(name), rank))}</option>
                    }).collect_view()}
                </select>
            </label>
        </Show>
        <Show when=move || opponent.get() == OpponentKind::Invite>
            <label>
                {t!(new_game.friend_name)}
                <input name="friend" data-testid="friend-name" autocomplete="off" maxlength="40"
                    prop:value=move || friend.get() on:input=move |ev| friend.set(event_target_value(&ev)) />
            </label>
        </Show>
        <Show when=move || matches!(opponent.get(), OpponentKind::Invite | OpponentKind::Lobby)>
            <label class="checkbox">
                <input type="checkbox" name="rated" data-testid="rated" prop:checked=move || rated.get()
                    on:change=move |ev| rated.set(event_target_checked(&ev)) />
                {t!(new_game.rated)}
            </label>
        </Show>
        <Show when=move || opponent.get() == OpponentKind::Local>
            <LocalPlayers choices />
        </Show>
        <Show when=move || matches!(opponent.get(), OpponentKind::Bot | OpponentKind::Local)>
            <label class="checkbox">
                <input type="checkbox" name="device" data-testid="on-device" prop:checked=move || choices.on_device.get()
                    on:change=move |ev| choices.on_device.set(event_target_checked(&ev)) />
                {t!(device.on_device_hint)}
            </label>
        </Show>
    }
}

/// Pass-and-play: how many players, and each one's name.
#[component]
fn LocalPlayers(choices: Choices) -> impl IntoView {
    let Choices { players, names, .. } = choices;
    view! {
        <label>
            {t!(new_game.players)}
            <select name="players" prop:value=move || players.get().to_string()
                on:change=move |ev| players.set(event_target_value(&ev).parse().unwrap_or(2))>
                {move || (2..=choices.max_players()).map(|n| view! { <option value=n.to_string()>{n}</option> }).collect_view()}
            </select>
        </label>
        <div class="choices local-names">
            {move || (0..usize::from(players.get())).map(|seat| view! {
                <label>
                    {crate::i18n::worded(move |texts| tr!(texts, new_game.player, seat = seat + 1))}
                    <input type="text" name=format!("local-name-{seat}") maxlength=domain::LOCAL_NAME_MAX
                        placeholder=crate::i18n::worded(move |texts| if seat == 0 { tr!(texts, new_game.you).to_string() } else { tr!(texts, new_game.player, seat = seat + 1) })
                        prop:value=move || names.with(|n| n.get(seat).cloned().unwrap_or_default())
                        on:input=move |ev| names.update(|n| if let Some(name) = n.get_mut(seat) { *name = event_target_value(&ev); }) />
                </label>
            }).collect_view()}
        </div>
    }
}

/// What became of the form: the refusal, or an invite game's link to send.
#[component]
fn Created(
    answer: Signal<Option<Result<Result<GameCreated, Refusal>, ServerFnError>>>,
    invite: RwSignal<Option<String>>,
) -> impl IntoView {
    let language = Language::expect();
    view! {
        {move || match answer.get() {
            Some(Ok(Err(refusal))) => Some(view! { <crate::alert::Alert text=crate::i18n::answer_text(language.get(), Ok(refusal)) /> }.into_any()),
            Some(Err(error)) => Some(view! { <crate::alert::Alert text=crate::i18n::answer_text(language.get(), Err(error)) /> }.into_any()),
            _ => None,
        }}
        {move || invite.get().map(|path| {
            let origin = crate::clipboard::window_origin();
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_of_a_new_device_game_carries_it_whole() {
        let new = NewGame {
            variant: Variant::Classic,
            dictionary: DictionaryId::Swedish,
            format: Format::Casual,
            opponent: Opponent::Bot {
                level: "master".into(),
            },
            rated: false,
        };
        let path = device_game_path(&new);
        let hex = path.strip_prefix("/device/new?game=").unwrap();
        assert_eq!(device_game_of(hex), Some(new));
        for broken in ["", "0", "zz", &hex[..hex.len() - 2]] {
            assert_eq!(device_game_of(broken), None, "{broken:?}");
        }
    }
}
