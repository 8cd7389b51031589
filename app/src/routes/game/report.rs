//! One tap to tell the admins about a word: "it is a word" beside a word the dictionary refused in
//! the preview, "not a word" beside a word of a play in the history. What became of the report
//! shows on the start page.

use dictionaries::versions::ReportKind;
use leptos::prelude::*;

use crate::api::reports::ReportWord;

/// The button, then what the server said.
#[component]
pub fn ReportButton(game: Signal<String>, word: String, kind: ReportKind) -> impl IntoView {
    let report = crate::acting::acting(|r: &ReportWord| {
        crate::api::reports::report_word(r.game.clone(), r.word.clone(), r.kind)
    });
    let (label, title) = match kind {
        ReportKind::Missing => (crate::t!(report.is_a_word), crate::t!(report.missing_title)),
        ReportKind::Wrong => (crate::t!(report.flag), crate::t!(report.wrong_title)),
    };
    move || {
        match report.value() {
        Some(Ok(Ok(()))) => {
            view! { <span class="reported" data-testid="reported">{crate::t!(report.thanks)}</span> }
                .into_any()
        }
        Some(Ok(Err(refusal))) => {
            view! { <span class="error">{crate::i18n::worded(move |texts| crate::i18n::refusal(texts, &refusal))}</span> }.into_any()
        }
        Some(Err(error)) => {
            view! { <span class="error">{crate::i18n::worded(move |texts| crate::tr!(texts, report.not_sent, error = error.to_string()))}</span> }.into_any()
        }
        None => {
            let word = word.clone();
            view! {
                <button type="button" class="link report" data-testid="report-word" title=title
                    disabled=move || report.pending().get()
                    on:click=move |_| {
                        report.dispatch(ReportWord { game: game.get_untracked(), word: word.clone(), kind });
                    }>
                    {label}
                </button>
            }
            .into_any()
        }
    }
    }
}
