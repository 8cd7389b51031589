//! The board: every premium labelled, tiles with their values, the move being built on top, and
//! three ways to put a tile down: drag and drop, tap a tile then a cell, or the keyboard (a cursor,
//! Space to turn it, letters to type, Backspace to take back, arrows to move, Enter to play).

use crate::tr;
use leptos::{ev, prelude::*};
use rules::{Board, Direction, HandTile, Played, Pos, Premium, Square, TileSet};

use super::table::{Cursor, DragFrom, Table, BAR_SLOTS};
use crate::i18n::{Language, Texts};

fn premium_class(premium: Premium) -> &'static str {
    match premium {
        Premium::Plain => "",
        Premium::DoubleLetter => "dl",
        Premium::TripleLetter => "tl",
        Premium::QuadrupleLetter => "ql",
        Premium::DoubleWord => "dw",
        Premium::TripleWord => "tw",
        Premium::QuadrupleWord => "qw",
        Premium::NegativeLetter => "nl",
    }
}

fn premium_name(texts: Texts, premium: Premium) -> &'static str {
    match premium {
        Premium::Plain => "",
        Premium::DoubleLetter => tr!(texts, square.double_letter),
        Premium::TripleLetter => tr!(texts, square.triple_letter),
        Premium::QuadrupleLetter => tr!(texts, square.quadruple_letter),
        Premium::DoubleWord => tr!(texts, square.double_word),
        Premium::TripleWord => tr!(texts, square.triple_word),
        Premium::QuadrupleWord => tr!(texts, square.quadruple_word),
        Premium::NegativeLetter => tr!(texts, square.negative_letter),
    }
}

/// A premium's short label on the board, in the reader's language: `TW` in English, `TO` in
/// Swedish (as the Swedish apps write it).
fn premium_label(texts: Texts, premium: Premium) -> &'static str {
    match premium {
        Premium::Plain => "",
        Premium::DoubleLetter => tr!(texts, square.dl),
        Premium::TripleLetter => tr!(texts, square.tl),
        Premium::QuadrupleLetter => tr!(texts, square.ql),
        Premium::DoubleWord => tr!(texts, square.dw),
        Premium::TripleWord => tr!(texts, square.tw),
        Premium::QuadrupleWord => tr!(texts, square.qw),
        Premium::NegativeLetter => tr!(texts, square.nl),
    }
}

/// What an empty cell shows: its premium, or the star on the start cell.
fn cell_label(texts: Texts, board: &Board, pos: Pos) -> &'static str {
    if pos == board.start() {
        "★"
    } else {
        premium_label(texts, board.premium(pos))
    }
}

/// The premiums a board has, in a fixed order, for its legend.
fn premiums_of(board: &Board) -> Vec<Premium> {
    let mut found: Vec<Premium> = board
        .cells()
        .map(|(pos, _)| board.premium(pos))
        .filter(|p| *p != Premium::Plain)
        .collect();
    found.sort_by_key(|p| premium_class(*p));
    found.dedup();
    found
}

/// What each kind of square does, for the board in play: reachable from under the board.
#[component]
pub fn Legend(board: Signal<Option<Board>>) -> impl IntoView {
    let language = Language::expect();
    move || {
        let board = board.get()?;
        let texts = language.get();
        let items = premiums_of(&board)
            .into_iter()
            .map(|premium| {
                let what = match premium {
                    Premium::NegativeLetter => tr!(texts, square.negative_effect).to_string(),
                    p if p.letter_factor() != 1 => tr!(texts, square.letter_effect, factor = p.letter_factor()),
                    p => tr!(texts, square.word_effect, factor = p.word_factor()),
                };
                view! {
                    <li><span class=format!("swatch cell {}", premium_class(premium))>{premium_label(texts, premium)}</span>
                        {format!("{}: {what}", premium_name(texts, premium))}</li>
                }
            })
            .collect_view();
        Some(view! {
            <details class="legend" data-testid="legend">
                <summary>{tr!(texts, square.legend)}</summary>
                <ul>
                    {items}
                    <li><span class="swatch cell">"★"</span>{tr!(texts, square.start)}</li>
                </ul>
            </details>
        })
    }
}

fn column_name(col: u8) -> char {
    char::from(b'A' + col)
}

/// A tile's face: letter and value (a blank shows its letter and no value).
#[component]
pub fn TileFace(tiles: &'static TileSet, played: Played) -> impl IntoView {
    let (letter, value) = match played {
        Played::Letter(letter) | Played::AlfaPower(letter) | Played::Golden(letter) => {
            (tiles.char_of(letter).to_string(), Some(tiles.value(letter)))
        }
        Played::Blank(letter) => (rules::case::lower(tiles.char_of(letter)).to_string(), None),
        Played::Stop => ("■".to_string(), None),
    };
    let mark = match played {
        Played::AlfaPower(_) => Some(("α", crate::t!(power.alfa_power_tile))),
        Played::Golden(_) => Some(("★", crate::t!(power.golden_tile))),
        _ => None,
    };
    view! {
        <span class="letter">{letter}</span>
        {value.map(|v| view! { <sub>{v}</sub> })}
        {mark.map(|(mark, name)| view! { <span class="kind-mark" title=name aria-label=name>{mark}</span> })}
    }
}

/// A played tile's class: earned Alfa Power and Golden Tiles stay marked for the rest of the game.
fn tile_class(played: Played) -> &'static str {
    match played {
        Played::AlfaPower(_) => "tile alfa-power",
        Played::Golden(_) => "tile golden",
        _ => "tile",
    }
}

fn square_tile(square: Square) -> Option<Played> {
    match square {
        Square::Empty => None,
        Square::Stop => Some(Played::Stop),
        Square::Tile(t) => Some(match t.kind {
            rules::board::TileKind::Normal => Played::Letter(t.letter),
            rules::board::TileKind::Blank => Played::Blank(t.letter),
            rules::board::TileKind::AlfaPower => Played::AlfaPower(t.letter),
            rules::board::TileKind::Golden => Played::Golden(t.letter),
        }),
    }
}

/// A board to look at (history), without the move in progress.
#[component]
pub fn StillBoard(
    board: Board,
    tiles: &'static TileSet,
    #[prop(optional)] highlight: Vec<Pos>,
) -> impl IntoView {
    let width = board.width();
    let texts = Language::expect().get_untracked();
    let cells = board
        .cells()
        .map(|(pos, square)| {
            let premium = board.premium(pos);
            let label = cell_label(texts, &board, pos);
            let class = format!(
                "cell {}{}{}{}",
                premium_class(premium),
                if square == Square::Empty { "" } else { " filled" },
                if highlight.contains(&pos) { " last" } else { "" },
                if pos == board.start() { " start" } else { "" }
            );
            view! {
                <div class=class>
                    {match square_tile(square) {
                        Some(played) => view! { <span class=tile_class(played)><TileFace tiles played /></span> }.into_any(),
                        None => view! { <span class="premium">{label}</span> }.into_any(),
                    }}
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="board still" style=format!("--cols: {width}") role="img" aria-label=crate::t!(board.after_turn)>
            {cells}
        </div>
    }
}

/// The live board.
#[component]
pub fn LiveBoard(table: Table, #[prop(into)] on_enter: Callback<()>) -> impl IntoView {
    let board = Memo::new(move |_| {
        table
            .page
            .with(|p| p.as_ref().map(|p| p.view.board.clone()))
    });
    let last_play = Memo::new(move |_| {
        table.page.with(|p| {
            p.as_ref()
                .and_then(|p| p.view.history.last())
                .map(|turn| match &turn.event {
                    rules::game::TurnEvent::Play { tiles, .. } => {
                        tiles.iter().map(|t| t.pos).collect()
                    }
                    _ => Vec::new(),
                })
                .unwrap_or_default()
        })
    });
    // The tile set on its own: a new score or clock reading in the page redraws no cell.
    let tile_set = Memo::new(move |_| table.tiles());
    let language = table.language;
    // Where powers were used in earlier plays: the cells keep a small mark for the game.
    let used = Memo::new(move |_| {
        table.page.with(|p| {
            p.as_ref().map_or_else(Vec::new, |p| {
                p.view
                    .history
                    .iter()
                    .filter_map(|turn| match &turn.event {
                        rules::game::TurnEvent::Play { powers, .. } => Some(powers),
                        _ => None,
                    })
                    .flatten()
                    .map(|staged| (staged.target(), staged.power()))
                    .collect::<Vec<_>>()
            })
        })
    });
    let keydown = move |ev: ev::KeyboardEvent| {
        if let Some(handled) = key(table, &ev.key(), on_enter) {
            if handled {
                ev.prevent_default();
            }
        }
    };
    view! {
        <div class="board live" tabindex="0" role="grid" aria-label=crate::t!(board.keys)
            style=move || format!("--cols: {}", board.get().map_or(15, |b| b.width()))
            on:keydown=keydown
            on:click=move |ev: ev::MouseEvent| {
                if let Some(pos) = cell_of(&ev) {
                    tap(table, pos);
                }
            }
            on:dragover=move |ev: ev::DragEvent| {
                if cell_of(&ev).is_some() {
                    ev.prevent_default();
                }
            }
            on:drop=move |ev: ev::DragEvent| {
                if let Some(pos) = cell_of(&ev) {
                    ev.prevent_default();
                    table.drop_on_cell(pos);
                }
            }>
            {move || {
                let Some(board) = board.get() else { return ().into_any() };
                let texts = language.get();
                let tiles = tile_set.get().unwrap_or_else(|| rules::TileSet::by_id("feud_en").expect("feud_en"));
                // Rows for assistive technology; `display: contents` leaves the CSS grid as it is.
                let cells: Vec<(Pos, Square)> = board.cells().collect();
                cells
                    .chunks(usize::from(board.width()))
                    .map(|row| {
                        let row = row
                            .iter()
                            .map(|&(pos, square)| view! { <Cell table pos square premium=board.premium(pos) face=cell_label(texts, &board, pos) tiles last=last_play used /> })
                            .collect_view();
                        view! { <div class="board-row" role="row">{row}</div> }
                    })
                    .collect_view()
                    .into_any()
            }}
        </div>
    }
}

/// A tap on a cell (the board listens for all of them): on a phone the board zooms around it; an
/// arrow or power picked up goes where it targets, a staged tile comes back, a picked tile goes
/// down, and an empty cell takes the cursor (a second tap turns it).
fn tap(table: Table, pos: Pos) {
    // On a phone the board zooms around the first cell tapped (and stays put for the next taps,
    // so a cell does not slide away from the finger).
    if table.focus.get_untracked().is_none() {
        table.focus.set(Some(pos));
    }
    if let Some(slot) = table
        .selected
        .get_untracked()
        .filter(|slot| *slot >= BAR_SLOTS || table.hand_tile(*slot) == Some(HandTile::Arrow))
    {
        table.place(slot, pos);
        return;
    }
    if let Some(staged) = table.staged_at(pos) {
        table.unstage(staged.pos);
        table.cursor.set(Some(Cursor {
            pos,
            dir: Direction::Across,
        }));
        return;
    }
    if let Some(slot) = table.selected.get_untracked() {
        table.place(slot, pos);
        return;
    }
    let empty = table.page.with_untracked(|p| {
        p.as_ref()
            .is_some_and(|p| p.view.board.square(pos) == Square::Empty)
    });
    if empty {
        table.cursor.update(|c| {
            *c = Some(match *c {
                Some(c) if c.pos == pos => Cursor {
                    pos,
                    dir: c.dir.other(),
                },
                _ => Cursor {
                    pos,
                    dir: Direction::Across,
                },
            })
        });
    }
}

/// The cell an event happened in, from its `data-cell`.
fn cell_of(ev: &ev::Event) -> Option<Pos> {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let element: web_sys::Element = ev.target()?.dyn_into().ok()?;
        super::finger::cell_pos(&element)
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = ev;
        None
    }
}

/// One square of the live board. Taps and drops are the board's to handle (one listener each
/// for the whole board, not three per cell), and the cursor's direction is a class: a page
/// hydrates 225 cells, so each keeps to two reactive parts (its class, and its inside).
#[component]
fn Cell(
    table: Table,
    pos: Pos,
    square: Square,
    premium: Premium,
    /// What the cell shows while empty.
    face: &'static str,
    tiles: &'static TileSet,
    last: Memo<Vec<Pos>>,
    /// Powers used on the board in earlier plays.
    used: Memo<Vec<(Pos, rules::Power)>>,
) -> impl IntoView {
    let staged = move || table.staged_at(pos);
    let class = move || {
        let mut class = format!("cell {}", premium_class(premium));
        if face == "★" {
            class.push_str(" start");
        }
        if square != Square::Empty {
            class.push_str(" filled");
        }
        if staged().is_some() {
            class.push_str(" staged");
        }
        if let Some(cursor) = table.cursor.get().filter(|c| c.pos == pos) {
            class.push_str(match cursor.dir {
                Direction::Across => " cursor across",
                Direction::Down => " cursor down",
            });
        }
        if last.with(|last| last.contains(&pos)) {
            class.push_str(" last");
        }
        class
    };
    let language = Language::expect();
    // The cell's inside, one reactive part: what a screen reader says of it (its place, premium
    // or letter), the marks of powers on it (drafted now, or used in earlier plays), and its tile
    // or premium.
    let inside = move || {
        let texts = language.get();
        let here = staged();
        let at = format!("{}{}", column_name(pos.col), pos.row + 1);
        let label = match (square_tile(square), here) {
            (Some(played), _) | (None, Some(super::table::Staged { played, .. })) => {
                let letter = played
                    .letter()
                    .map(|letter| tiles.char_of(letter))
                    .unwrap_or('■');
                format!("{at}: {letter}")
            }
            _ if premium == Premium::Plain => at,
            _ => format!("{at}: {}", premium_name(texts, premium)),
        };
        let used_here = used.with(|u| {
            u.iter()
                .filter(|(at, _)| *at == pos)
                .map(|(_, power)| {
                    let name = tr!(texts, board.power_used, power = crate::i18n::power_name(texts, *power));
                    view! { <span class="used-power" title=name.clone() aria-label=name role="img">{super::powers::icon(*power)}</span> }
                })
                .collect_view()
        });
        let shown = match (square_tile(square), here) {
            (Some(played), _) => view! { <span class=tile_class(played)><TileFace tiles played /></span> }.into_any(),
            (None, Some(s)) => view! {
                <span class="tile new" draggable="true"
                    on:dragstart=move |_| table.dragging.set(Some(DragFrom::Board(s.pos)))
                    on:pointerdown=move |ev| super::finger::pick_up(table, DragFrom::Board(s.pos), &ev)>
                    <TileFace tiles played=s.played />
                    {move || (table.arrow_under() == Some(s.pos)).then(|| view! {
                        <span class="arrow-mark" title=crate::t!(board.arrow_title) aria-label=crate::t!(board.arrow)>"↳"</span>
                    })}
                </span>
            }.into_any(),
            (None, None) => view! { <span class="premium">{face}</span> }.into_any(),
        };
        view! {
            <span class="sr-only">{label}</span>
            {power_badge(table, pos, tiles)}
            {used_here}
            {shown}
        }
    };
    view! {
        <div class=class role="gridcell" data-cell=format!("{},{}", pos.row, pos.col)>
            {inside}
        </div>
    }
}

/// The mark of a power drafted onto a cell: Charge ×3, Dice, Rubber, or Alfa Morf's new letter.
fn power_badge(table: Table, pos: Pos, tiles: &'static TileSet) -> Option<impl IntoView> {
    use rules::powers::StagedPower;
    let power = table.powers.with(|p| {
        p.iter()
            .map(|(_, power)| *power)
            .find(|power| power.target() == pos)
    })?;
    let texts = table.language.get();
    let (class, text, label) = match power {
        StagedPower::Charge(_) => ("charge", "×3".to_string(), tr!(texts, board.charge_badge)),
        StagedPower::Dice(_) => ("dice", "🎲".to_string(), tr!(texts, board.dice_badge)),
        StagedPower::Rubber(_) => ("rubber", "⌫".to_string(), tr!(texts, power.rubber)),
        StagedPower::AlfaMorf(_, letter) => (
            "morf",
            format!("→{}", tiles.char_of(letter)),
            tr!(texts, power.alfa_morf),
        ),
    };
    Some(view! {
        <span class=format!("power-badge {class}") title=label aria-label=label data-testid=format!("badge-{class}")>{text}</span>
    })
}

/// Handles a key on the board; `Some(true)` when it was used.
fn key(table: Table, key: &str, on_enter: Callback<()>) -> Option<bool> {
    let board = table
        .page
        .with_untracked(|p| p.as_ref().map(|p| p.view.board.clone()))?;
    let tiles = table.tiles()?;
    let cursor = table.cursor.get_untracked();
    let start = || Cursor {
        pos: board.start(),
        dir: Direction::Across,
    };
    let step = |c: Cursor, dir: Direction, forward: bool| {
        c.pos
            .step(dir, forward)
            .filter(|p| board.contains(*p))
            .map(|pos| Cursor { pos, ..c })
    };
    match key {
        "ArrowRight" | "ArrowLeft" | "ArrowDown" | "ArrowUp" => {
            let c = cursor.unwrap_or_else(start);
            let (dir, forward) = match key {
                "ArrowRight" => (Direction::Across, true),
                "ArrowLeft" => (Direction::Across, false),
                "ArrowDown" => (Direction::Down, true),
                _ => (Direction::Down, false),
            };
            table.cursor.set(Some(step(c, dir, forward).unwrap_or(c)));
            Some(true)
        }
        " " => {
            let c = cursor.unwrap_or_else(start);
            table.cursor.set(Some(Cursor {
                dir: c.dir.other(),
                ..c
            }));
            Some(true)
        }
        "Enter" => {
            on_enter.run(());
            Some(true)
        }
        "Escape" => {
            table.recall();
            Some(true)
        }
        "Backspace" => {
            let last = table.staged.get_untracked().last().copied()?;
            table.unstage(last.pos);
            table.cursor.set(Some(Cursor {
                pos: last.pos,
                dir: cursor.map_or(Direction::Across, |c| c.dir),
            }));
            Some(true)
        }
        _ => {
            let mut chars = key.chars();
            let ch = chars.next()?;
            if chars.next().is_some() || !table.my_turn() {
                return None;
            }
            let letter = tiles.letter(ch)?;
            let mut c = cursor.unwrap_or_else(start);
            // Typing skips cells already holding tiles, as a word runs through them.
            while !table.is_free(c.pos) {
                c = step(c, c.dir, true)?;
            }
            let rack = table.rack();
            let slot = rack
                .iter()
                .copied()
                .find(|s| table.hand_tile(*s) == Some(HandTile::Letter(letter)))
                .map(|s| (s, Played::Letter(letter)))
                .or_else(|| {
                    rack.iter()
                        .copied()
                        .find(|s| table.hand_tile(*s) == Some(HandTile::Blank))
                        .map(|s| (s, Played::Blank(letter)))
                });
            let Some((slot, played)) = slot else {
                let letter = rules::case::upper(ch).to_string();
                table.message.set(Some(tr!(
                    table.language.get_untracked(),
                    board.not_in_hand,
                    letter
                )));
                return Some(true);
            };
            table.stage(slot, c.pos, played);
            let mut next = step(c, c.dir, true).unwrap_or(c);
            while next != c && !table.is_free(next.pos) {
                match step(next, next.dir, true) {
                    Some(n) => next = n,
                    None => break,
                }
            }
            table.cursor.set(Some(next));
            Some(true)
        }
    }
}
