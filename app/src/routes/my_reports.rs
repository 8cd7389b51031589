//! The words a player reported from their games and what the admins made of them, on the start
//! page under their games; nothing when they have reported none.

use dictionaries::versions::{ReportKind, ReportStatus};
use leptos::prelude::*;

use crate::api::reports::my_reports;

/// The list.
#[component]
pub fn MyReports() -> impl IntoView {
    let reports = crate::loaded::load(|| (), |_| my_reports());
    view! {
        <Transition fallback=|| ()>
            {move || reports.get().and_then(Result::ok).and_then(Result::ok).filter(|r| !r.is_empty()).map(|reports| view! {
                <section class="my-reports" aria-labelledby="my-reports-title">
                    <h2 id="my-reports-title">"Your word reports"</h2>
                    <ul class="game-list" data-testid="my-reports">
                        {reports.into_iter().map(|r| {
                            let said = match r.kind {
                                ReportKind::Missing => "is a word",
                                ReportKind::Wrong => "is not a word",
                            };
                            let (status, class) = match (r.status, r.kind) {
                                (ReportStatus::Open, _) => ("waiting for an admin", "status"),
                                (ReportStatus::Accepted, ReportKind::Missing) => ("accepted: it will be added", "status ok"),
                                (ReportStatus::Accepted, ReportKind::Wrong) => ("accepted: it will be removed", "status ok"),
                                (ReportStatus::Dismissed, _) => ("dismissed", "status muted"),
                            };
                            view! {
                                <li class="card row" data-word=r.word.clone()>
                                    <span><strong>{r.word.to_uppercase()}</strong>" "{said}
                                        <span class="muted">{format!(" · {}", r.dictionary.name())}</span></span>
                                    <span class=class>{status}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
            })}
        </Transition>
    }
}
