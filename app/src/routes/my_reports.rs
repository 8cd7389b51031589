//! The words a player reported from their games and what the admins made of them, on the start
//! page under their games; nothing when they have reported none.

use dictionaries::versions::{ReportKind, ReportStatus};
use leptos::prelude::*;

use crate::api::reports::my_reports;
use crate::tr;

/// The list.
#[component]
pub fn MyReports() -> impl IntoView {
    let reports = crate::loaded::load(|| (), |_| my_reports());
    let language = crate::i18n::Language::expect();
    view! {
        <Transition fallback=|| ()>
            {move || reports.get().and_then(Result::ok).and_then(Result::ok).filter(|r| !r.is_empty()).map(|reports| { let texts = language.get(); view! {
                <section class="my-reports" aria-labelledby="my-reports-title">
                    <h2 id="my-reports-title">{tr!(texts, reports.title)}</h2>
                    <ul class="game-list" data-testid="my-reports">
                        {reports.into_iter().map(|r| {
                            let said = match r.kind {
                                ReportKind::Missing => tr!(texts, reports.is_word),
                                ReportKind::Wrong => tr!(texts, reports.is_not_word),
                            };
                            let (status, class) = match (r.status, r.kind) {
                                (ReportStatus::Open, _) => (tr!(texts, reports.open), "status"),
                                (ReportStatus::Accepted, ReportKind::Missing) if r.in_effect => (tr!(texts, reports.added), "status ok"),
                                (ReportStatus::Accepted, ReportKind::Wrong) if r.in_effect => (tr!(texts, reports.removed), "status ok"),
                                (ReportStatus::Accepted, ReportKind::Missing) => (tr!(texts, reports.will_add), "status"),
                                (ReportStatus::Accepted, ReportKind::Wrong) => (tr!(texts, reports.will_remove), "status"),
                                (ReportStatus::Dismissed, _) => (tr!(texts, reports.dismissed), "status muted"),
                            };
                            view! {
                                <li class="card row" data-word=r.word.clone()>
                                    <span><strong>{rules::case::upper_str(&r.word)}</strong>" "{said}
                                        <span class="muted">{format!(" · {}", crate::i18n::dictionary_name(texts, r.dictionary))}</span></span>
                                    <span class=class>{status}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
            }})}
        </Transition>
    }
}
