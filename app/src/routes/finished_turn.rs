//! `/game/<id>/turn/<n>`: the board of a finished game after its turn `n`, which profiles link
//! to for a best play. Rendered on the server; only finished games are shown, and only what
//! their public history holds.

use leptos::prelude::*;
use rules::{Board, Pos, TileSet};

use super::{
    game::{board::StillBoard, history::describe},
    plain,
    profile::Viewer,
};
use crate::api::SeatHolder;
use crate::tr;

/// What the page shows.
pub struct FinishedTurn {
    /// The game's id.
    pub game_id: String,
    /// "Alfa Kraft · English · Casual".
    pub title: String,
    /// Who sat where.
    pub seats: Vec<SeatHolder>,
    /// The turn shown, from 1.
    pub turn: usize,
    /// Turns in the game.
    pub turns: usize,
    /// The turn itself.
    pub record: rules::game::TurnRecord,
    /// The board after it.
    pub board: Board,
    /// The tiles the board is played with.
    pub tiles: &'static TileSet,
}

/// The page.
pub fn page(shown: FinishedTurn, viewer: Viewer) -> String {
    let texts = viewer.texts;
    let highlight: Vec<Pos> = match &shown.record.event {
        rules::game::TurnEvent::Play { tiles, .. } => tiles.iter().map(|t| t.pos).collect(),
        _ => Vec::new(),
    };
    let said = describe(texts, &shown.record, &shown.seats);
    let link = |n: usize| format!("/game/{}/turn/{n}", shown.game_id);
    let (turn, turns) = (shown.turn, shown.turns);
    let scores = shown
        .record
        .scores
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(" – ");
    let main = plain::speaking(texts, || {
        view! {
            <main class="page finished-turn">
                <h1>{tr!(texts, history.turn_of, turn, turns)}</h1>
                <p class="muted">{shown.title.clone()}</p>
                <p class="lead" data-testid="turn-said">{said}</p>
                <p class="muted">{tr!(texts, history.scores_after)}" "{scores}</p>
                <nav class="actions">
                    {(turn > 1).then(|| view! { <a class="button" href=link(turn - 1)>{tr!(texts, finished_turn.earlier)}</a> })}
                    {(turn < turns).then(|| view! { <a class="button" href=link(turn + 1)>{tr!(texts, finished_turn.later)}</a> })}
                    <a class="button" href=format!("{}/cgp", link(turn)) download>{tr!(texts, analysis.download_cgp)}</a>
                    <a class="button" href=format!("/game/{}/gcg", shown.game_id) download>{tr!(texts, analysis.download_gcg)}</a>
                </nav>
                <StillBoard board=shown.board tiles=shown.tiles highlight />
            </main>
        }
    });
    plain::document(
        texts,
        &tr!(texts, finished_turn.title, turn),
        viewer.name.as_deref(),
        viewer.admin,
        main,
    )
}
