//! `/leagues` and `/leagues/<id>`, rendered on the server for anyone: every league with its
//! latest season (and, for admins, the form that makes one); a league's season with its
//! registration, the viewer's own games, and each division's standings. The forms post to the
//! server functions in `api::leagues`, which send the browser back here.

use leptos::prelude::*;
use store::leagues::{LeagueCard, LeagueGame, Movement, Season, SeasonStatus, Standing};

use super::{plain, profile::Viewer};
use crate::i18n::{dictionary_name, ruleset_name, Texts};
use crate::tr;
use domain::profile_path;

/// What a league's page shows.
pub struct LeaguePage {
    /// The league and its latest season.
    pub card: LeagueCard,
    /// That season's players, by division and place.
    pub standings: Vec<Standing>,
    /// While it takes registrations: the season before, with its final standings.
    pub previous: Option<(Season, Vec<Standing>)>,
    /// The viewer's games in the latest season.
    pub my_games: Vec<LeagueGame>,
    /// Days left in the viewer's time bank, when they play in it.
    pub bank_days: Option<i64>,
}

/// `/leagues`.
pub fn list(cards: Vec<LeagueCard>, viewer: Viewer) -> String {
    let texts = viewer.texts;
    let signed_in = viewer.name.is_some();
    let main = view! {
        <main class="page leagues" data-testid="leagues">
            <h1>{tr!(texts, leagues.title)}</h1>
            {viewer.said.clone().map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            <p>{tr!(texts, leagues.about)}</p>
            {cards.is_empty().then(|| view! { <p class="muted">{tr!(texts, leagues.none)}</p> })}
            {cards.into_iter().map(|card| view! {
                <section class="card league" data-league=card.id.clone()>
                    <h2><a href=format!("/leagues/{}", card.id)>{card.name.clone()}</a></h2>
                    {summary(texts, &card)}
                    {entry(texts, &card, signed_in)}
                </section>
            }).collect_view()}
            {viewer.admin.then(|| create_form(texts))}
        </main>
    };
    plain::document(
        texts,
        tr!(texts, leagues.title),
        viewer.name.as_deref(),
        viewer.admin,
        main,
    )
}

/// `/leagues/<id>`.
pub fn page(page: LeaguePage, viewer: Viewer) -> String {
    let texts = viewer.texts;
    let LeaguePage {
        card,
        standings,
        previous,
        my_games,
        bank_days,
    } = page;
    let title = card.name.clone();
    let me = viewer.name.clone().unwrap_or_default();
    let main = view! {
        <main class="page leagues" data-testid="league" data-standings=card.season.id.clone()>
            <h1>{card.name.clone()}</h1>
            {viewer.said.clone().map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            {summary(texts, &card)}
            {entry(texts, &card, viewer.name.is_some())}
            {(!my_games.is_empty()).then(|| my_games_list(texts, my_games, bank_days))}
            {match card.season.status {
                SeasonStatus::Registration => view! {
                    <section class="card">
                        <h2>{tr!(texts, leagues.registered_players)}</h2>
                        {if standings.is_empty() {
                            view! { <p class="muted">{tr!(texts, leagues.no_one_yet)}</p> }.into_any()
                        } else {
                            view! { <p data-testid="registered">{names(&standings)}</p> }.into_any()
                        }}
                    </section>
                    {previous.map(|(season, lines)| view! {
                        <h2>{tr!(texts, leagues.last_season, number = season.number)}</h2>
                        {divisions(texts, &lines, &me)}
                    })}
                }
                .into_any(),
                _ => divisions(texts, &standings, &me).into_any(),
            }}
            <script src="/standings.js" defer></script>
        </main>
    };
    plain::document(texts, &title, viewer.name.as_deref(), viewer.admin, main)
}

/// The ruleset, dictionary and where the season is.
fn summary(texts: Texts, card: &LeagueCard) -> impl IntoView {
    let season = &card.season;
    let status = match season.status {
        SeasonStatus::Registration => tr!(
            texts,
            leagues.season_registration,
            number = season.number,
            until = plain::utc(season.starts_at)
        ),
        SeasonStatus::Playing => tr!(texts, leagues.season_playing, number = season.number),
        SeasonStatus::Over => tr!(texts, leagues.season_over, number = season.number),
    };
    view! {
        <p class="muted">{format!(
            "{} · {} · {}",
            ruleset_name(texts, &season.variant),
            dictionary_name(texts, season.dictionary),
            crate::i18n::format_name(texts, rules::game::Format::Casual)
        )}</p>
        <p data-testid="season">{status}" · "{tr!(texts, leagues.players, count = card.players)}</p>
    }
}

/// Register or take it back while the season takes registrations; else whether the viewer plays.
fn entry(texts: Texts, card: &LeagueCard, signed_in: bool) -> AnyView {
    let season = card.season.id.clone();
    match (card.season.status, card.entered, signed_in) {
        (SeasonStatus::Registration, _, false) => {
            view! { <p><a href="/signin?next=/leagues">{tr!(texts, leagues.sign_in)}</a></p> }.into_any()
        }
        (SeasonStatus::Registration, true, true) => view! {
            <p data-testid="registered-me">{tr!(texts, leagues.registered)}</p>
            <form method="post" action="/api/leagues/unregister" class="inline">
                <input type="hidden" name="season" value=season />
                <button type="submit" class="small" data-testid="unregister">{tr!(texts, leagues.unregister)}</button>
            </form>
        }
        .into_any(),
        (SeasonStatus::Registration, false, true) => view! {
            <form method="post" action="/api/leagues/register" class="inline">
                <input type="hidden" name="season" value=season />
                <button type="submit" class="primary" data-testid="register">{tr!(texts, leagues.register)}</button>
            </form>
        }
        .into_any(),
        (_, true, _) => view! { <p data-testid="entered">{tr!(texts, leagues.entered)}</p> }.into_any(),
        _ => ().into_any(),
    }
}

/// The viewer's games of the season, those waiting for them first, and their time bank.
fn my_games_list(texts: Texts, games: Vec<LeagueGame>, bank_days: Option<i64>) -> impl IntoView {
    view! {
        <section class="card">
            <h2>{tr!(texts, leagues.your_games)}</h2>
            {bank_days.map(|days| view! { <p class="muted" data-testid="bank">{tr!(texts, leagues.bank, days = days)}</p> })}
            <ul class="league-games" data-testid="my-league-games">
                {games.into_iter().map(|game| {
                    let state = if game.over {
                        tr!(texts, leagues.finished)
                    } else if game.my_turn {
                        tr!(texts, leagues.your_turn)
                    } else {
                        tr!(texts, leagues.their_turn)
                    };
                    view! {
                        <li class:mine=game.my_turn>
                            <a href=format!("/game/{}", game.game_id)>{tr!(texts, leagues.against, name = game.opponent.clone())}</a>
                            " · "{state}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

/// The registered players' names.
fn names(standings: &[Standing]) -> String {
    let mut names: Vec<&str> = standings.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    names.join(", ")
}

/// Each division's standings, in order.
fn divisions(texts: Texts, standings: &[Standing], me: &str) -> impl IntoView {
    let count = standings
        .iter()
        .filter_map(|s| s.division)
        .max()
        .unwrap_or(0);
    (1..=count)
        .map(|division| {
            let lines: Vec<Standing> = standings
                .iter()
                .filter(|s| s.division == Some(division))
                .cloned()
                .collect();
            view! {
                <section class="card division" data-division=division>
                    <h2>{tr!(texts, leagues.division, number = division)}</h2>
                    <div class="table-scroll"><table class="standings">
                        <thead><tr>
                            <th>"#"</th><th>{tr!(texts, leagues.player)}</th><th>{tr!(texts, leagues.record)}</th>
                            <th>{tr!(texts, leagues.spread)}</th><th>{tr!(texts, leagues.bingos)}</th>
                            <th>{tr!(texts, leagues.high)}</th><th>{tr!(texts, leagues.time_outs)}</th>
                        </tr></thead>
                        <tbody>{lines.into_iter().enumerate().map(|(index, line)| standing_row(texts, index, line, me)).collect_view()}</tbody>
                    </table></div>
                </section>
            }
        })
        .collect_view()
}

/// One player's line: place, name (with where they go once the season is over), record and the
/// rest.
fn standing_row(texts: Texts, index: usize, line: Standing, me: &str) -> impl IntoView {
    let movement = match line.movement {
        Some(Movement::Up) => Some(("▲", tr!(texts, leagues.up))),
        Some(Movement::Down) => Some(("▼", tr!(texts, leagues.down))),
        _ => None,
    };
    view! {
        <tr class=if line.name == me { "me" } else { "" } data-testid=format!("standing-{}", line.name)>
            <td>{line.place.unwrap_or(index as i64 + 1)}</td>
            <td><a href=profile_path(&line.name)>{line.name.clone()}</a>
                {movement.map(|(mark, said)| view! { " "<span class="movement" title=said aria-label=said>{mark}</span> })}</td>
            <td data-testid="record">{format!("{}–{}–{}", line.wins, line.draws, line.losses)}</td>
            <td data-testid="spread">{format!("{:+}", line.spread)}</td>
            <td>{line.bingos}</td>
            <td>{line.high_game}</td>
            <td>{line.time_outs}</td>
        </tr>
    }
}

/// The rulesets a league or tournament may be made in, by the key its form sends, each with
/// `language`'s tiles where the ruleset has a language.
pub fn ruleset_choices(language: rules::Language) -> [(&'static str, rules::Variant); 5] {
    [
        ("classic", rules::Variant::Classic),
        ("alfakraft", rules::Variant::AlfaKraft { language }),
        (
            "feud",
            rules::Variant::Feud {
                language,
                random_board: false,
            },
        ),
        (
            "alfapet",
            rules::Variant::Alfapet {
                hand_size: 7,
                special_tiles: false,
            },
        ),
        ("longwords", rules::Variant::LongWords { hard_mode: false }),
    ]
}

/// The admins' form that makes a league.
fn create_form(texts: Texts) -> impl IntoView {
    let rulesets = ruleset_choices(rules::Language::English);
    view! {
        <section class="card" data-testid="create-league">
            <h2>{tr!(texts, leagues.create)}</h2>
            <form method="post" action="/api/leagues/create" class="form">
                <label>{tr!(texts, leagues.name)}<input type="text" name="name" required maxlength="60" /></label>
                <label>{tr!(texts, leagues.ruleset)}
                    <select name="ruleset">{rulesets.into_iter().map(|(key, variant)| view! {
                        <option value=key>{ruleset_name(texts, &variant)}</option>
                    }).collect_view()}</select>
                </label>
                <label>{tr!(texts, leagues.dictionary)}
                    <select name="dictionary">{dictionaries::DictionaryId::ALL.into_iter().map(|d| view! {
                        <option value=d.as_str()>{dictionary_name(texts, d)}</option>
                    }).collect_view()}</select>
                </label>
                <label>{tr!(texts, leagues.days)}<input type="number" name="days" min="1" max="30" value="3" required /></label>
                <button type="submit" data-testid="create-league-button">{tr!(texts, leagues.create_button)}</button>
            </form>
        </section>
    }
}
