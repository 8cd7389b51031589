//! Dragging with a finger. Touch screens send no HTML5 drag events (a finger drag scrolled the
//! page), so a tile touched follows pointer events instead and lands where the finger lifts,
//! through the same drop logic as a mouse drag. A touch that does not move stays a tap.

use leptos::{ev, prelude::*};
use rules::{HandTile, Pos};

use super::table::{DragFrom, Edges, Finger, Table};

/// How far, in CSS pixels, a finger moves before a touch is a drag rather than a tap.
const SLOP: f64 = 8.0;

fn point(ev: &ev::PointerEvent) -> (f64, f64) {
    (f64::from(ev.client_x()), f64::from(ev.client_y()))
}

/// A touch on a tile, a staged tile or a power: it may become a drag.
pub fn pick_up(table: Table, from: DragFrom, ev: &ev::PointerEvent) {
    if ev.pointer_type() != "touch" {
        return;
    }
    // A touch captures the pointer to the tile it starts on. Released, the events follow the
    // finger, and a lift elsewhere is no click on the tile picked up.
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if let Some(element) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            let _ = element.release_pointer_capture(ev.pointer_id());
        }
    }
    table.dragging.set(Some(from));
    let already = table.finger.get_untracked().is_some();
    table.finger.set(Some(Finger {
        start: point(ev),
        at: None,
        armed: Edges::default(),
    }));
    if !already {
        pan_while_held(table);
    }
}

/// The finger moves: past the slop, the tile follows it.
pub fn follow(table: Table, ev: &ev::PointerEvent) {
    let Some(finger) = table.finger.get_untracked() else {
        return;
    };
    let (x, y) = point(ev);
    if finger.at.is_none() && (x - finger.start.0).hypot(y - finger.start.1) < SLOP {
        return;
    }
    ev.prevent_default();
    table.finger.set(Some(Finger {
        at: Some((x, y)),
        armed: finger.armed.union(clear_of((x, y))),
        ..finger
    }));
}

/// How near, in CSS pixels, an edge of the zoomed board a finger pans it.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
const EDGE: f64 = 36.0;

/// The edges a point inside the placing board is well clear of; none outside it. A tile coming
/// up from the hand crosses the lower edge on its way in, and that must not pan.
#[cfg(feature = "hydrate")]
fn clear_of((x, y): (f64, f64)) -> Edges {
    let Some(r) = placing_frame().map(|f| f.get_bounding_client_rect()) else {
        return Edges::default();
    };
    if x < r.left() || x > r.right() || y < r.top() || y > r.bottom() {
        return Edges::default();
    }
    let distances = [x - r.left(), y - r.top(), r.right() - x, r.bottom() - y];
    distances
        .iter()
        .enumerate()
        .filter(|(_, d)| **d >= EDGE)
        .fold(Edges::default(), |edges, (i, _)| edges.with(i))
}

#[cfg(not(feature = "hydrate"))]
fn clear_of(_: (f64, f64)) -> Edges {
    Edges::default()
}

#[cfg(feature = "hydrate")]
fn placing_frame() -> Option<web_sys::Element> {
    document()
        .query_selector(".board-frame.placing")
        .ok()
        .flatten()
}

/// While a finger holds a tile near an armed edge of the zoomed board, the board scrolls toward
/// that edge a step each frame, so a tile reaches cells scrolled out of view by resting there.
/// Each frame rather than each move: a resting finger sends few moves, and the browser
/// coalesces those it sends.
#[cfg(feature = "hydrate")]
fn pan_while_held(table: Table) {
    const STEP: f64 = 8.0;
    let Some(finger) = table.finger.get_untracked() else {
        return;
    };
    if let (Some((x, y)), Some(frame)) = (finger.at, placing_frame()) {
        let r = frame.get_bounding_client_rect();
        let inside = x >= r.left() && x <= r.right() && y >= r.top() && y <= r.bottom();
        let toward =
            |index: usize, distance: f64| inside && finger.armed.has(index) && distance < EDGE;
        let dx = if toward(0, x - r.left()) {
            -STEP
        } else if toward(2, r.right() - x) {
            STEP
        } else {
            0.0
        };
        let dy = if toward(1, y - r.top()) {
            -STEP
        } else if toward(3, r.bottom() - y) {
            STEP
        } else {
            0.0
        };
        if dx != 0.0 || dy != 0.0 {
            frame.scroll_by_with_x_and_y(dx, dy);
        }
    }
    let _ = request_animation_frame(move || pan_while_held(table));
}

#[cfg(not(feature = "hydrate"))]
fn pan_while_held(_: Table) {}

/// The finger lifts: a drag lands on the cell or hand tile under it; a tap is left to the click.
pub fn lift(table: Table) {
    let Some(finger) = table.finger.get_untracked() else {
        return;
    };
    table.finger.set(None);
    let Some((x, y)) = finger.at else {
        table.dragging.set(None);
        return;
    };
    match target_at(x, y) {
        Some(Target::Cell(pos)) => table.drop_on_cell(pos),
        Some(Target::Hand(slot)) => table.drop_on_hand(slot),
        None => table.dragging.set(None),
    }
}

/// The drag is called off (the browser took the touch).
pub fn cancel(table: Table) {
    // A mouse's native drag starts with a pointercancel too: that drag is not ours to end.
    if table.finger.get_untracked().is_some() {
        table.finger.set(None);
        table.dragging.set(None);
    }
}

// Only the browser looks under a point.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
enum Target {
    Cell(Pos),
    Hand(Option<usize>),
}

/// What lies under a point of the page.
#[cfg(feature = "hydrate")]
fn target_at(x: f64, y: f64) -> Option<Target> {
    let element = document().element_from_point(x as f32, y as f32)?;
    if let Some(pos) = cell_pos(&element) {
        return Some(Target::Cell(pos));
    }
    if let Some(tile) = element.closest("[data-slot]").ok().flatten() {
        return Some(Target::Hand(tile.get_attribute("data-slot")?.parse().ok()));
    }
    element
        .closest("[data-testid=rack]")
        .ok()
        .flatten()
        .map(|_| Target::Hand(None))
}

/// The board cell `element` is in, from its `data-cell` ("row,col").
#[cfg(feature = "hydrate")]
pub(super) fn cell_pos(element: &web_sys::Element) -> Option<Pos> {
    let cell = element.closest("[data-cell]").ok().flatten()?;
    let text = cell.get_attribute("data-cell")?;
    let (row, col) = text.split_once(',')?;
    Some(Pos {
        row: row.parse().ok()?,
        col: col.parse().ok()?,
    })
}

#[cfg(not(feature = "hydrate"))]
fn target_at(_: f64, _: f64) -> Option<Target> {
    None
}

/// The tile under the finger while it drags.
#[component]
pub fn FingerTile(table: Table) -> impl IntoView {
    move || {
        let (x, y) = table.finger.get()?.at?;
        let tiles = table.tiles()?;
        let face = match table.dragging.get()? {
            DragFrom::Hand(slot) => match table.hand_tile(slot)? {
                HandTile::Letter(letter) => tiles.char_of(letter).to_string(),
                HandTile::Blank => " ".into(),
                HandTile::Arrow => "↳".into(),
                HandTile::Stop => "■".into(),
            },
            DragFrom::Board(pos) => table
                .staged_at(pos)?
                .played
                .letter()
                .map_or(" ".into(), |letter| tiles.char_of(letter).to_string()),
            DragFrom::Bar(index) => table
                .bar_item(index)
                .map_or("★".into(), |p| p.name().chars().take(1).collect()),
        };
        // Whole pixels: formatting an `f64` would bring the float printer into the bundle.
        let (x, y) = (x.round() as i32, y.round() as i32);
        Some(view! {
            <div class="finger-tile tile" aria-hidden="true" style=format!("left: {x}px; top: {y}px")>
                {rules::case::upper_str(&face)}
            </div>
        })
    }
}
