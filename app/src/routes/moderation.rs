//! `/admin/moderation`, rendered on the server for admins: the open reports of players and
//! messages (with the message's context and the player's record), what to do about each, and
//! the sanctions in force with a way to lift them. The forms post to `server/src/moderation.rs`.

use leptos::prelude::*;

use super::plain::{self, utc};
use crate::i18n::Texts;
use crate::tr;
use store::moderation::{History, ModerationAction, QueuedReport, Sanction, SanctionKind};

fn until_text(texts: Texts, until: Option<i64>) -> String {
    match until {
        Some(until) => tr!(texts, moderation.until, until = utc(until)),
        None => tr!(texts, moderation.for_good).into(),
    }
}

fn kind_text(texts: Texts, kind: SanctionKind) -> &'static str {
    match kind {
        SanctionKind::Mute => tr!(texts, moderation.mute),
        SanctionKind::Suspend => tr!(texts, moderation.suspend),
    }
}

/// The decision form for one report.
fn action_name(texts: Texts, action: ModerationAction) -> &'static str {
    match action {
        ModerationAction::Dismiss => tr!(texts, moderation.dismiss),
        ModerationAction::Mute => tr!(texts, moderation.mute),
        ModerationAction::Suspend => tr!(texts, moderation.suspend),
        ModerationAction::Lift => tr!(texts, moderation.lift),
    }
}

fn decide_form(texts: Texts, report: &QueuedReport) -> impl IntoView {
    view! {
        <form method="post" action="/admin/moderation/decide" class="form" data-testid="decide">
            <input type="hidden" name="report" value=report.id.to_string() />
            <input type="hidden" name="user" value=report.reported.0.to_string() />
            <label>{tr!(texts, moderation.action)}
                <select name="action">
                    <option value="dismiss">{tr!(texts, moderation.dismiss)}</option>
                    <option value="mute">{tr!(texts, moderation.mute)}</option>
                    <option value="suspend">{tr!(texts, moderation.suspend)}</option>
                </select>
            </label>
            <label>{tr!(texts, moderation.amount)}
                <input name="amount" value="24" />
            </label>
            <label>{tr!(texts, moderation.reason)}
                <input name="reason" required maxlength="500" />
            </label>
            <button type="submit">{tr!(texts, moderation.decide)}</button>
        </form>
    }
}

fn report_view(texts: Texts, report: QueuedReport, history: History) -> impl IntoView {
    let reported = report.message;
    view! {
        <li class="card" data-report=report.id.to_string()>
            <p><strong>{report.reported.1.clone()}</strong>" · "
                {tr!(texts, moderation.reported_by, name = report.reporter.clone(), when = utc(report.created_at))}</p>
            <p>{tr!(texts, moderation.reason)}": "<q>{report.reason.clone()}</q></p>
            {(!report.context.is_empty()).then(|| view! {
                <ol class="chat-lines" data-testid="context">
                    {report.context.iter().map(|line| view! {
                        <li class=if Some(line.id) == reported { "chat-line reported" } else { "chat-line" }>
                            <strong>{line.author.clone()}</strong>" "{line.body.clone()}
                        </li>
                    }).collect_view()}
                </ol>
            })}
            <p class="muted">{tr!(texts, moderation.record, reports = history.reports)}</p>
            <ul class="muted">
                {history.decisions.into_iter().map(|d| view! {
                    <li>{format!("{} · {} · {} · {}", utc(d.at), action_name(texts, d.action), d.admin, d.reason)}</li>
                }).collect_view()}
            </ul>
            {decide_form(texts, &report)}
        </li>
    }
}

/// The page: `queue` with each reported player's history, and `sanctioned` players.
pub fn page(
    texts: Texts,
    admin: &str,
    queue: Vec<(QueuedReport, History)>,
    sanctioned: Vec<(String, Sanction)>,
    flash: super::admin::Flash,
) -> String {
    let main = view! {
        <main class="page admin" data-testid="moderation">
            <h1>{tr!(texts, moderation.title)}</h1>
            {super::admin::flash_view(flash)}
            <p class="lead">{tr!(texts, moderation.lead)}</p>
            <section aria-labelledby="queue-title">
                <h2 id="queue-title">{tr!(texts, moderation.queue)}</h2>
                {if queue.is_empty() {
                    view! { <p class="muted">{tr!(texts, moderation.empty)}</p> }.into_any()
                } else {
                    view! { <ul class="reports" data-testid="queue">{queue.into_iter().map(|(r, h)| report_view(texts, r, h)).collect_view()}</ul> }.into_any()
                }}
            </section>
            <section aria-labelledby="sanctioned-title">
                <h2 id="sanctioned-title">{tr!(texts, moderation.sanctioned)}</h2>
                <ul data-testid="sanctioned">
                    {sanctioned.into_iter().map(|(name, s)| view! {
                        <li>{format!("{name}: {} · {} · {}", kind_text(texts, s.kind), until_text(texts, s.until), s.reason)}
                            <form method="post" action="/admin/moderation/lift" class="inline">
                                <input type="hidden" name="sanction" value=s.id.to_string() />
                                <input name="reason" required maxlength="500" aria-label=tr!(texts, moderation.reason) placeholder=tr!(texts, moderation.reason) />
                                <button type="submit">{tr!(texts, moderation.lift)}</button>
                            </form>
                        </li>
                    }).collect_view()}
                </ul>
            </section>
            <p><a href="/admin">{tr!(texts, admin.back)}</a></p>
        </main>
    };
    plain::document(texts, tr!(texts, moderation.title), Some(admin), true, main)
}
