//! The preview of the move being built, computed in the browser by the rules crate with the
//! game's dictionary: each word, whether it is valid, its breakdown, the bonuses and the total.

use leptos::prelude::*;
use rules::{play::Bonus, RuleError, ScoredPlay};

use super::{report::ReportButton, table::Table};
use crate::dictionary::{LexiconState, Lexicons};
use dictionaries::versions::ReportKind;

/// What the preview shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Judgement {
    /// Nothing staged.
    Nothing,
    /// The dictionary is on its way.
    Loading,
    /// The rules refuse the placement itself (not in line, not connected…).
    Refused(RuleError),
    /// Scored.
    Scored(Box<ScoredPlay>),
}

/// The live judgement of the staged tiles.
pub fn judgement(table: Table) -> Memo<Judgement> {
    let lexicons = Lexicons::expect();
    Memo::new(move |_| {
        let placement = table.placement();
        // Powers alone are a play too ("play only powers").
        if placement.tiles.is_empty() && placement.powers.is_empty() {
            return Judgement::Nothing;
        }
        let Some(page) = table.page.get() else {
            return Judgement::Nothing;
        };
        let view = page.view;
        // The game's own version: a publish since it started does not change its word check.
        match lexicons.at(&page.dictionary_url) {
            LexiconState::Ready(lexicon) => match view.preview(&placement, &*lexicon) {
                Ok(scored) => Judgement::Scored(Box::new(scored)),
                Err(error) => Judgement::Refused(error),
            },
            _ => Judgement::Loading,
        }
    })
}

fn bonus_name(bonus: Bonus) -> &'static str {
    match bonus {
        Bonus::Bingo(_) => "Bingo",
        Bonus::Placement(_) => "Placement bonus",
        Bonus::Combo(_) => "Word combo",
    }
}

/// What a bonus is for, shown when its name is tapped.
fn bonus_explained(bonus: Bonus) -> &'static str {
    match bonus {
        Bonus::Bingo(_) => "For using a whole hand's worth of tiles in one play.",
        Bonus::Placement(_) => {
            "For the tiles placed this turn, powers included: 5 → +5, 6 → +15, 7 → +40, 8 → +50, 9 or more → +60."
        }
        Bonus::Combo(_) => {
            "For the words formed this turn: 3 → +5, 4 → +10, 5 or more → +20."
        }
    }
}

/// A word's sum before its multipliers: "letters worth 11 × 2 × 1.5 length".
fn breakdown(word: &rules::play::WordScore) -> String {
    let mut parts = format!("letters worth {}", word.letters);
    if word.word_factor != 1 {
        parts.push_str(&format!(" × {}", word.word_factor));
    }
    if word.golden_factor != 1 {
        parts.push_str(&format!(" × {} golden", word.golden_factor));
    }
    if let Some(halves) = word.length_halves {
        parts.push_str(&format!(" × {} length", f64::from(halves) / 2.0));
    }
    parts
}

/// The preview panel.
#[component]
pub fn Preview(judgement: Memo<Judgement>, game: Signal<String>) -> impl IntoView {
    view! {
        <section class="preview" class:empty=move || judgement.with(|j| *j == Judgement::Nothing) aria-live="polite" data-testid="preview">
            {move || match judgement.get() {
                Judgement::Nothing => view! { <p class="muted">"Place tiles to see the words and the score."</p> }.into_any(),
                Judgement::Loading => view! { <p class="muted">"Loading the dictionary…"</p> }.into_any(),
                Judgement::Refused(error) => view! { <p class="error" data-testid="preview-refused">{error.to_string()}</p> }.into_any(),
                Judgement::Scored(scored) => {
                    let invalid = scored.invalid_words();
                    view! {
                        <ul class="words">
                            {scored.words.iter().map(|w| {
                                let parts = breakdown(w);
                                let class = if w.valid { "word valid" } else { "word invalid" };
                                view! {
                                    <li class=class>
                                        <strong>{w.word.to_uppercase()}</strong>
                                        {if w.valid { "" } else { " — not in the dictionary" }}
                                        {(!w.valid).then(|| view! { " " <ReportButton game word=w.word.clone() kind=ReportKind::Missing /> })}
                                        <span class="breakdown">{parts}" = "{w.points}</span>
                                    </li>
                                }
                            }).collect_view()}
                            // Words an Alfa Morf changed with no new tile in them: judged, not scored.
                            {scored.checked_words.iter().map(|w| {
                                let class = if w.valid { "word valid checked" } else { "word invalid checked" };
                                view! {
                                    <li class=class>
                                        <strong>{w.word.to_uppercase()}</strong>
                                        {if w.valid { " — changed, not scored" } else { " — not in the dictionary" }}
                                        {(!w.valid).then(|| view! { " " <ReportButton game word=w.word.clone() kind=ReportKind::Missing /> })}
                                    </li>
                                }
                            }).collect_view()}
                            // The die is rolled when the play is committed, not before.
                            {(!scored.dice.is_empty()).then(|| view! {
                                <li class="bonus dice" data-testid="dice-pending">
                                    "🎲 Dice: × a roll of 1–6 when you play (counted as 1 here)"
                                </li>
                            })}
                            {scored.bonuses.iter().map(|b| view! {
                                <li class="bonus">
                                    <details>
                                        <summary>{bonus_name(*b)}</summary>
                                        <small class="muted">{bonus_explained(*b)}</small>
                                    </details>
                                    <span class="breakdown">"+"{b.points()}</span>
                                </li>
                            }).collect_view()}
                        </ul>
                        <p class="total">
                            {if invalid.is_empty() {
                                view! { <span data-testid="preview-total">{scored.total}</span>" points" }.into_any()
                            } else {
                                view! { <span class="error">{format!("Not a word: {}", invalid.join(", ").to_uppercase())}</span> }.into_any()
                            }}
                        </p>
                    }.into_any()
                }
            }}
        </section>
    }
}
