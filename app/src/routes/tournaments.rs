//! `/tournaments` and `/tournaments/<id>`, rendered on the server: the tournaments coming up and
//! under way (and the form that makes one: public for admins, private for anyone); a
//! tournament's state, the viewer's game or bye in the current round first, the standings and
//! every round's pairings. The page follows its standings live (`/app.js`, `data-standings`)
//! and counts down to the next round (`data-countdown`). The forms post to `api::tournaments`.

use leptos::prelude::*;
use store::tournaments::{Board, Pairing, Standing, Tournament, TournamentCard, TournamentStatus};

use super::{leagues::ruleset_choices, plain, profile::Viewer};
use crate::i18n::{dictionary_name, format_name, ruleset_name, Texts};
use crate::tr;
use domain::profile_path;

/// What a tournament's page shows.
pub struct TournamentPage {
    /// The tournament, its players and whether the viewer is one.
    pub card: TournamentCard,
    /// Its players, by wins then spread.
    pub standings: Vec<Standing>,
    /// Every round's pairings, the latest first.
    pub boards: Vec<Board>,
    /// The viewer's id, when signed up.
    pub me: Option<i64>,
    /// Now, unix ms: what the countdown and the check-in are measured from.
    pub now: i64,
}

/// `/tournaments`.
pub fn list(cards: Vec<TournamentCard>, viewer: Viewer, now: i64) -> String {
    let texts = viewer.texts;
    let signed_in = viewer.name.is_some();
    let main = view! {
        <main class="page tournaments" data-testid="tournaments">
            <h1>{tr!(texts, tournaments.title)}</h1>
            {viewer.said.clone().map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            <p>{tr!(texts, tournaments.about)}</p>
            {cards.is_empty().then(|| view! { <p class="muted">{tr!(texts, tournaments.none)}</p> })}
            {cards.into_iter().map(|card| {
                let t = &card.tournament;
                view! {
                    <section class="card tournament" data-tournament=t.id.clone()>
                        <h2><a href=format!("/tournaments/{}", t.id)>{t.name.clone()}</a></h2>
                        {summary(texts, t)}
                        <p>{status(texts, t, now)}" · "{tr!(texts, tournaments.players, count = card.players)}</p>
                    </section>
                }
            }).collect_view()}
            {signed_in.then(|| create_form(texts, viewer.admin))}
        </main>
    };
    plain::document(
        texts,
        tr!(texts, tournaments.title),
        viewer.name.as_deref(),
        viewer.admin,
        main,
    )
}

/// `/tournaments/<id>`.
pub fn page(page: TournamentPage, viewer: Viewer) -> String {
    let texts = viewer.texts;
    let TournamentPage {
        card,
        standings,
        boards,
        me,
        now,
    } = page;
    let t = card.tournament.clone();
    let mine = me.and_then(|me| standings.iter().find(|s| s.user_id == me).cloned());
    let current = me.and_then(|me| {
        boards
            .iter()
            .find(|b| b.round == t.round && (b.home == me || b.away == Some(me)))
            .cloned()
    });
    let main = view! {
        <main class="page tournaments" data-testid="tournament" data-standings=t.id.clone()>
            <h1>{t.name.clone()}</h1>
            {viewer.said.clone().map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            {summary(texts, &t)}
            <p data-testid="tournament-status">{status(texts, &t, now)}" · "{tr!(texts, tournaments.players, count = card.players)}</p>
            {countdown(texts, &t, now)}
            {t.private.then(|| view! { <p class="muted">{tr!(texts, tournaments.private)}</p> })}
            {current.map(|board| my_board(texts, &board, me.unwrap_or_default(), t.next_round_at.is_some()))}
            {entry(texts, &t, mine.as_ref(), viewer.name.is_some(), now)}
            {standings_table(texts, &t, &standings, me)}
            {rounds(texts, &boards)}
            <script src="/standings.js" defer></script>
        </main>
    };
    plain::document(texts, &t.name, viewer.name.as_deref(), viewer.admin, main)
}

/// Ruleset, dictionary, clock and pairing.
fn summary(texts: Texts, t: &Tournament) -> impl IntoView {
    let pairing = match t.pairing {
        Pairing::Swiss => tr!(texts, tournaments.swiss, rounds = t.rounds),
        Pairing::RoundRobin => tr!(texts, tournaments.round_robin).to_string(),
    };
    view! {
        <p class="muted" data-testid="tournament-kind">{format!(
            "{} · {} · {} · {}",
            ruleset_name(texts, &t.variant),
            dictionary_name(texts, t.dictionary),
            format_name(texts, t.format),
            pairing
        )}</p>
    }
}

/// Where the tournament is, in words.
fn status(texts: Texts, t: &Tournament, now: i64) -> String {
    match t.status {
        TournamentStatus::Entry if t.check_in_open(now) => format!(
            "{} · {}",
            tr!(texts, tournaments.starts, at = plain::utc(t.starts_at)),
            tr!(texts, tournaments.check_in_open)
        ),
        TournamentStatus::Entry => format!(
            "{} · {}",
            tr!(texts, tournaments.starts, at = plain::utc(t.starts_at)),
            tr!(
                texts,
                tournaments.check_in_opens,
                at = plain::utc(t.starts_at - store::tournaments::CHECK_IN_MS)
            )
        ),
        TournamentStatus::Playing => {
            tr!(
                texts,
                tournaments.round_of,
                round = t.round,
                rounds = t.rounds
            )
        }
        TournamentStatus::Over => tr!(texts, tournaments.over).to_string(),
    }
}

/// The time left before the next round (or the first), counted down by `/app.js`.
fn countdown(texts: Texts, t: &Tournament, now: i64) -> Option<impl IntoView> {
    let (round, at) = match (t.status, t.next_round_at) {
        (TournamentStatus::Entry, _) => (1, t.starts_at),
        (TournamentStatus::Playing, Some(at)) if t.round < t.rounds => (t.round + 1, at),
        _ => return None,
    };
    let left = (at - now).max(0) / 1000;
    // Long waits read as a moment (in the status line); the last hour counts down.
    (left < 3600).then(|| {
        view! {
            <p class="countdown" data-testid="countdown">
                {tr!(texts, tournaments.next_round, round = round)}" "
                <strong data-countdown=at>{format!("{}:{:02}", left / 60, left % 60)}</strong>
            </p>
        }
    })
}

/// The viewer's pairing in the current round: their game (to play, or to look back on while
/// the round goes on), or their bye.
fn my_board(texts: Texts, board: &Board, me: i64, break_on: bool) -> impl IntoView {
    let round = board.round;
    let body = match &board.game_id {
        None => view! { <p>{tr!(texts, tournaments.your_bye, round = round)}</p> }.into_any(),
        Some(game) => {
            let other = if board.home == me {
                board.away_name.clone()
            } else {
                Some(board.home_name.clone())
            }
            .unwrap_or_default();
            let over = board.over.0;
            let (label, class) = if over {
                (tr!(texts, tournaments.see, name = other), "button")
            } else {
                (tr!(texts, tournaments.play, name = other), "button primary")
            };
            view! {
                <p><a class=class href=format!("/game/{game}") data-testid="play-round">{label}</a></p>
                {(over && !break_on).then(|| view! { <p class="muted">{tr!(texts, tournaments.waiting)}</p> })}
            }
            .into_any()
        }
    };
    view! {
        <section class="card my-round" data-testid="my-round">
            <h2>{tr!(texts, tournaments.your_game, round = round)}</h2>
            {body}
        </section>
    }
}

/// Enter, check in or withdraw, as the tournament and the viewer's line allow.
fn entry(
    texts: Texts,
    t: &Tournament,
    mine: Option<&Standing>,
    signed_in: bool,
    now: i64,
) -> AnyView {
    let id = t.id.clone();
    let button =
        |action: &'static str, label: &'static str, testid: &'static str, class: &'static str| {
            view! {
                <form method="post" action=format!("/api/tournaments/{action}") class="inline">
                    <input type="hidden" name="tournament" value=id.clone() />
                    <button type="submit" class=class data-testid=testid>{label}</button>
                </form>
            }
        };
    let open = t.status == TournamentStatus::Entry
        || (t.status == TournamentStatus::Playing
            && t.pairing == Pairing::Swiss
            && t.round < t.rounds);
    match (mine, signed_in) {
        (_, false) if open => view! {
            <p><a href=format!("/signin?next=/tournaments/{}", t.id)>{tr!(texts, tournaments.sign_in)}</a></p>
        }
        .into_any(),
        (None, true) if open => view! {
            {(t.status == TournamentStatus::Playing).then(|| view! { <p class="muted">{tr!(texts, tournaments.late)}</p> })}
            {button("enter", tr!(texts, tournaments.enter), "enter", "primary")}
        }
        .into_any(),
        (Some(line), _) if line.withdrawn.0 => {
            view! { <p data-testid="withdrawn">{tr!(texts, tournaments.withdrawn)}</p> }.into_any()
        }
        (Some(line), _) if t.status != TournamentStatus::Over => {
            let said = match (t.status, line.checked_in.0) {
                (TournamentStatus::Playing, _) => tr!(texts, tournaments.playing),
                (_, true) => tr!(texts, tournaments.checked_in),
                (_, false) => tr!(texts, tournaments.entered),
            };
            let check_in = (t.check_in_open(now) && !line.checked_in.0)
                .then(|| button("check-in", tr!(texts, tournaments.check_in), "check-in", "primary"));
            view! {
                <p data-testid="my-entry">{said}</p>
                {check_in}
                {button("withdraw", tr!(texts, tournaments.withdraw), "withdraw", "small")}
            }
            .into_any()
        }
        _ => ().into_any(),
    }
}

/// The players by wins then spread; before the start, who has checked in.
fn standings_table(
    texts: Texts,
    t: &Tournament,
    standings: &[Standing],
    me: Option<i64>,
) -> impl IntoView {
    let before = t.status == TournamentStatus::Entry;
    let rows = standings
        .iter()
        .enumerate()
        .map(|(index, s)| {
            let figures = if before {
                let said = if s.checked_in.0 {
                    tr!(texts, tournaments.checked)
                } else {
                    tr!(texts, tournaments.not_checked)
                };
                view! { <td data-testid="check">{said}</td> }.into_any()
            } else {
                view! {
                    <td data-testid="record">{format!("{}–{}–{}", s.wins, s.draws, s.losses)}</td>
                    <td data-testid="spread">{format!("{:+}", s.spread)}</td>
                    <td class="byes">{s.byes}</td>
                }
                .into_any()
            };
            view! {
                <tr class=if Some(s.user_id) == me { "me" } else { "" } data-testid=format!("standing-{}", s.name)>
                    <td>{index + 1}</td>
                    <td><a href=profile_path(&s.name)>{s.name.clone()}</a>
                        {s.withdrawn.0.then(|| view! { " "<span class="muted">{format!("({})", tr!(texts, tournaments.gone))}</span> })}</td>
                    {figures}
                </tr>
            }
        })
        .collect_view();
    let head = if before {
        view! { <th>{tr!(texts, tournaments.check_in)}</th> }.into_any()
    } else {
        view! {
            <th>{tr!(texts, tournaments.record)}</th>
            <th>{tr!(texts, tournaments.spread)}</th>
            <th class="byes">{tr!(texts, tournaments.byes)}</th>
        }
        .into_any()
    };
    view! {
        <section class="card">
            <h2>{tr!(texts, tournaments.standings)}</h2>
            <div class="table-scroll"><table class="standings" data-testid="tournament-standings">
                <thead><tr><th>"#"</th><th>{tr!(texts, tournaments.player)}</th>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table></div>
        </section>
    }
}

/// Each round's pairings, the latest first: scores once a game is over.
fn rounds(texts: Texts, boards: &[Board]) -> impl IntoView {
    let mut numbers: Vec<i64> = boards.iter().map(|b| b.round).collect();
    numbers.dedup();
    numbers
        .into_iter()
        .map(|round| {
            let lines = boards
                .iter()
                .filter(|b| b.round == round)
                .map(|b| board_line(texts, b))
                .collect_view();
            view! {
                <section class="card round" data-round=round>
                    <h2>{tr!(texts, tournaments.round, number = round)}</h2>
                    <ul class="boards">{lines}</ul>
                </section>
            }
        })
        .collect_view()
}

/// One pairing: "ann 412 – 388 bob", "ann – bob · playing" or "ann · bye".
fn board_line(texts: Texts, b: &Board) -> impl IntoView {
    let Some(game) = b.game_id.clone() else {
        return view! { <li>{format!("{} · {}", b.home_name, tr!(texts, tournaments.bye))}</li> }
            .into_any();
    };
    let away = b.away_name.clone().unwrap_or_default();
    let (score, state) = match (b.home_score, b.away_score) {
        (Some(home), Some(away)) if b.over.0 => (format!("{home} – {away}"), None),
        _ => ("–".to_string(), Some(tr!(texts, tournaments.under_way))),
    };
    view! {
        <li>
            <a href=format!("/game/{game}")>
                <span class:winner=b.winner == Some(b.home)>{b.home_name.clone()}</span>
                " "{score}" "
                <span class:winner=b.away.is_some() && b.winner == b.away>{away}</span>
            </a>
            {state.map(|state| view! { <span class="muted">{format!(" · {state}")}</span> })}
        </li>
    }
    .into_any()
}

/// The form that makes a tournament: admins choose whether it is public; anyone else's is
/// private.
fn create_form(texts: Texts, admin: bool) -> impl IntoView {
    view! {
        <section class="card" data-testid="create-tournament">
            <h2>{tr!(texts, tournaments.create)}</h2>
            {(!admin).then(|| view! { <p class="muted">{tr!(texts, tournaments.private_only)}</p> })}
            <form method="post" action="/api/tournaments/create" class="form">
                <label>{tr!(texts, tournaments.name)}<input type="text" name="name" required maxlength="60" /></label>
                <label>{tr!(texts, tournaments.ruleset)}
                    <select name="ruleset">{ruleset_choices(rules::Language::English).into_iter().map(|(key, variant)| view! {
                        <option value=key>{ruleset_name(texts, &variant)}</option>
                    }).collect_view()}</select>
                </label>
                <label>{tr!(texts, tournaments.dictionary)}
                    <select name="dictionary">{dictionaries::DictionaryId::ALL.into_iter().map(|d| view! {
                        <option value=d.as_str()>{dictionary_name(texts, d)}</option>
                    }).collect_view()}</select>
                </label>
                <label>{tr!(texts, tournaments.format)}
                    <select name="format">
                        <option value="blitz">{format_name(texts, rules::game::Format::Blitz)}</option>
                        <option value="casual">{format_name(texts, rules::game::Format::Casual)}</option>
                    </select>
                </label>
                <label>{tr!(texts, tournaments.pairing)}
                    <select name="pairing">
                        <option value="swiss">{tr!(texts, tournaments.swiss_name)}</option>
                        <option value="round_robin">{tr!(texts, tournaments.round_robin)}</option>
                    </select>
                </label>
                <label>{tr!(texts, tournaments.rounds)}<input type="number" name="rounds" min="1" max="11" value="4" /></label>
                <label>{tr!(texts, tournaments.starts_in)}<input type="number" name="minutes" min="1" max="43200" value="60" required /></label>
                {if admin {
                    view! { <label class="check"><input type="checkbox" name="private" value="1" />{tr!(texts, tournaments.make_private)}</label> }.into_any()
                } else {
                    view! { <input type="hidden" name="private" value="1" /> }.into_any()
                }}
                <button type="submit" data-testid="create-tournament-button">{tr!(texts, tournaments.create_button)}</button>
            </form>
        </section>
    }
}
