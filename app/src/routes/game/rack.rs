//! The hand: tap a tile to pick it up, drag it to the board or to another place in the hand,
//! shuffle, recall; in exchange mode, tap tiles to choose them.

use leptos::{ev, prelude::*};
use rules::{HandTile, Played};

use super::{
    board::TileFace,
    table::{DragFrom, Table},
};

/// The hand.
#[component]
pub fn Rack(table: Table) -> impl IntoView {
    let drop_on_rack = move |ev: ev::DragEvent| {
        ev.prevent_default();
        table.drop_on_hand(None);
    };
    view! {
        <div class="rack" role="group" aria-label=crate::t!(rack.your_tiles) data-testid="rack"
            on:dragover=move |ev: ev::DragEvent| ev.prevent_default()
            on:drop=drop_on_rack>
            {move || {
                let tiles = table.tiles()?;
                let texts = table.language.get();
                let in_hand = table.rack();
                Some(table.hand_order().into_iter().map(|slot| {
                    let tile = table.hand_tile(slot)?;
                    if !in_hand.contains(&slot) {
                        // Out on the board: its place stays, faded; a tap takes it back.
                        return Some(view! {
                            <button type="button" class="hand-slot" data-staged-slot=slot
                                aria-label=crate::tr!(texts, rack.take_back) on:click=move |_| table.take_back(slot)></button>
                        }.into_any());
                    }
                    let (played, name) = match tile {
                        HandTile::Letter(letter) => (Played::Letter(letter), tiles.char_of(letter).to_string()),
                        HandTile::Blank => (Played::Blank(rules::Letter(0)), crate::tr!(texts, rack.blank).to_string()),
                        HandTile::Stop => (Played::Stop, crate::tr!(texts, rack.stop).to_string()),
                        HandTile::Arrow => (Played::Stop, crate::tr!(texts, board.arrow).to_string()),
                    };
                    let selected = move || table.selected.get() == Some(slot);
                    let chosen = move || table.exchanging.get().is_some_and(|c| c.contains(&slot));
                    let class = move || {
                        let mut class = String::from("tile hand-tile");
                        if selected() { class.push_str(" selected"); }
                        if chosen() { class.push_str(" chosen"); }
                        if tile == HandTile::Blank { class.push_str(" blank"); }
                        class
                    };
                    let click = move |_| {
                        if table.exchanging.get_untracked().is_some() {
                            table.exchanging.update(|c| if let Some(c) = c {
                                if let Some(i) = c.iter().position(|s| *s == slot) { c.remove(i); } else { c.push(slot); }
                            });
                        } else {
                            table.selected.update(|s| *s = if *s == Some(slot) { None } else { Some(slot) });
                        }
                    };
                    let drop_here = move |ev: ev::DragEvent| {
                        ev.prevent_default();
                        ev.stop_propagation();
                        table.drop_on_hand(Some(slot));
                    };
                    Some(view! {
                        <button type="button" class=class draggable="true" data-slot=slot
                            aria-label=name aria-pressed=move || (selected() || chosen()).to_string()
                            on:click=click
                            on:dragstart=move |_| table.dragging.set(Some(DragFrom::Hand(slot)))
                            on:pointerdown=move |ev| super::finger::pick_up(table, DragFrom::Hand(slot), &ev)
                            on:dragend=move |_| table.dragging.set(None)
                            on:dragover=move |ev: ev::DragEvent| ev.prevent_default()
                            on:drop=drop_here>
                            {match tile {
                                HandTile::Blank => view! { <span class="letter">" "</span> }.into_any(),
                                HandTile::Arrow => view! { <span class="letter">"↳"</span> }.into_any(),
                                _ => view! { <TileFace tiles played /> }.into_any(),
                            }}
                        </button>
                    }.into_any())
                }).collect_view())
            }}
        </div>
    }
}

/// The letter picker: for a blank (or an Alfa Power or Golden Tile, placed like one), or for the
/// letter Alfa Morf turns a tile into.
#[component]
pub fn BlankPicker(table: Table) -> impl IntoView {
    move || {
        let morph = table.morphing.get().is_some();
        if !morph && table.naming_blank.get().is_none() {
            return None;
        }
        let tiles = table.tiles()?;
        let letters = (0..tiles.letters.len())
            .map(|i| {
                let letter = rules::Letter(i as u8);
                let ch = tiles.char_of(letter);
                let pick = move |_| {
                    if morph {
                        table.name_morph(letter)
                    } else {
                        table.name_blank(letter)
                    }
                };
                view! { <button type="button" class="tile" on:click=pick>{ch.to_string()}</button> }
            })
            .collect_view();
        let question = if morph {
            crate::t!(rack.morf_question)
        } else {
            crate::t!(rack.blank_question)
        };
        Some(view! {
            <div class="sheet" role="dialog" aria-modal="true" aria-label=question>
                <p>{question}</p>
                <div class="picker">{letters}</div>
                <button type="button" on:click=move |_| { table.naming_blank.set(None); table.morphing.set(None); }>{crate::t!(controls.cancel)}</button>
            </div>
        })
    }
}
