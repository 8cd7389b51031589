//! The preview of the move being built, computed in the browser by the rules crate with the
//! game's dictionary: each word, whether it is valid, its breakdown, the bonuses and the total.

use crate::tr;
use leptos::prelude::*;
use rules::{play::Bonus, RuleError, ScoredPlay};

use super::{report::ReportButton, table::Table};
use crate::dictionary::{LexiconState, Lexicons};
use crate::i18n::{Language, Texts};
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

/// A bonus's name: "Bingo".
pub(super) fn bonus_name(texts: Texts, bonus: Bonus) -> &'static str {
    match bonus {
        Bonus::Bingo(_) => tr!(texts, preview.bingo),
        Bonus::Placement(_) => tr!(texts, preview.placement),
        Bonus::Combo(_) => tr!(texts, preview.combo),
    }
}

/// What a bonus is for, shown when its name is tapped.
fn bonus_explained(texts: Texts, bonus: Bonus) -> &'static str {
    match bonus {
        Bonus::Bingo(_) => tr!(texts, preview.bingo_explained),
        Bonus::Placement(_) => tr!(texts, preview.placement_explained),
        Bonus::Combo(_) => tr!(texts, preview.combo_explained),
    }
}

/// A word's sum before its multipliers: "letters worth 11 × 2 × 1.5 length".
fn breakdown(texts: Texts, word: &rules::play::WordScore) -> String {
    let mut parts = tr!(texts, preview.letters_worth, points = word.letters);
    if word.word_factor != 1 {
        parts.push_str(&format!(" × {}", word.word_factor));
    }
    if word.golden_factor != 1 {
        parts.push_str(" × ");
        parts.push_str(&tr!(texts, preview.golden, factor = word.golden_factor));
    }
    if let Some(halves) = word.length_halves {
        // Whole and half steps, without pulling float formatting into the bundle.
        let factor = match halves % 2 {
            0 => (halves / 2).to_string(),
            _ => format!("{}{}5", halves / 2, tr!(texts, number.decimal)),
        };
        parts.push_str(" × ");
        parts.push_str(&tr!(texts, preview.length, factor));
    }
    parts
}

/// The preview panel.
#[component]
pub fn Preview(judgement: Memo<Judgement>, game: Signal<String>) -> impl IntoView {
    let language = Language::expect();
    view! {
        <section class="preview" class:empty=move || judgement.with(|j| *j == Judgement::Nothing) aria-live="polite" data-testid="preview">
            {move || { let texts = language.get(); match judgement.get() {
                Judgement::Nothing => view! { <p class="muted">{tr!(texts, preview.nothing)}</p> }.into_any(),
                Judgement::Loading => view! { <p class="muted">{tr!(texts, preview.loading)}</p> }.into_any(),
                Judgement::Refused(error) => view! { <p class="error" data-testid="preview-refused">{crate::i18n::rule_error(texts, &error)}</p> }.into_any(),
                Judgement::Scored(scored) => {
                    let invalid = scored.invalid_words();
                    view! {
                        <ul class="words">
                            {scored.words.iter().map(|w| {
                                let parts = breakdown(texts, w);
                                let class = if w.valid { "word valid" } else { "word invalid" };
                                view! {
                                    <li class=class>
                                        <strong>{rules::case::upper_str(&w.word)}</strong>
                                        {if w.valid { "" } else { tr!(texts, preview.not_in_dictionary) }}
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
                                        <strong>{rules::case::upper_str(&w.word)}</strong>
                                        {if w.valid { tr!(texts, preview.changed_not_scored) } else { tr!(texts, preview.not_in_dictionary) }}
                                        {(!w.valid).then(|| view! { " " <ReportButton game word=w.word.clone() kind=ReportKind::Missing /> })}
                                    </li>
                                }
                            }).collect_view()}
                            // The die is rolled when the play is committed, not before.
                            {(!scored.dice.is_empty()).then(|| view! {
                                <li class="bonus dice" data-testid="dice-pending">
                                    {tr!(texts, preview.dice_pending)}
                                </li>
                            })}
                            {scored.bonuses.iter().map(|b| view! {
                                <li class="bonus">
                                    <details>
                                        <summary>{bonus_name(texts, *b)}</summary>
                                        <small class="muted">{bonus_explained(texts, *b)}</small>
                                    </details>
                                    <span class="breakdown">"+"{b.points()}</span>
                                </li>
                            }).collect_view()}
                        </ul>
                        <p class="total">
                            {if invalid.is_empty() {
                                view! { <span data-testid="preview-total">{scored.total}</span>" "{tr!(texts, preview.points)} }.into_any()
                            } else {
                                view! { <span class="error">{tr!(texts, preview.not_a_word, words = rules::case::upper_str(&invalid.join(", ")))}</span> }.into_any()
                            }}
                        </p>
                    }.into_any()
                }
            }}}
        </section>
    }
}
