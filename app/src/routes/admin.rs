//! The admins' dictionary panel, rendered on the server only: `/admin` lists every dictionary
//! with its versions, takes uploads and word edits, and holds the players' word reports and the
//! audit log; `/admin/<id>/<version>` shows one version's report, looks words up in it beside the
//! active version, and publishes it (or rolls back to it). The pages are plain HTML forms that
//! post to `server/src/admin.rs` and come back with a message: they need no JavaScript and add
//! nothing to the wasm bundle every player downloads.

use dictionaries::versions::{
    AuditEntry, DictionaryOverview, ReportGroup, ReportKind, VersionSummary,
};
use leptos::prelude::*;

use super::plain::{self, utc};
use crate::api::admin::{Lookup, Panel, VersionDetail};
use crate::i18n::Texts;
use crate::tr;

/// A message carried back to a page after a form: what was done, or why not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flash {
    /// What was done.
    pub ok: Option<String>,
    /// Why it was not.
    pub error: Option<String>,
}

fn size(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes >= 1024 * 1024 {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    } else {
        format!("{:.0} kB", bytes as f64 / 1024.0)
    }
}

/// A version's state: its class (the same in every language) and its name.
fn state_of(texts: Texts, v: &VersionSummary) -> (&'static str, &'static str) {
    match (v.active, v.published_at) {
        (true, _) => ("active", tr!(texts, admin.state_active)),
        (false, Some(_)) => ("earlier", tr!(texts, admin.state_earlier)),
        (false, None) => ("draft", tr!(texts, admin.state_draft)),
    }
}

/// A whole document around `main`, with the admin's top bar.
fn document(texts: Texts, title: &str, admin: &str, main: impl IntoView + 'static) -> String {
    plain::document(
        texts,
        &tr!(texts, admin.title_suffix, title),
        Some(admin),
        true,
        main,
    )
}

/// A change refused or failed, and why, with the way back (the server sets the status).
pub fn not_done(texts: Texts, message: &str) -> String {
    let message = message.to_string();
    let body = Owner::new().with(move || {
        view! {
            <main class="page">
                <h1>{tr!(texts, admin.not_done)}</h1>
                <p class="error" data-testid="admin-error">{message}</p>
                <p><a href="/admin">{tr!(texts, admin.back)}</a></p>
            </main>
        }
        .to_html()
    });
    plain::html(texts, tr!(texts, admin.not_done), &body)
}

pub(crate) fn flash_view(flash: Flash) -> impl IntoView {
    view! {
        {flash.ok.map(|ok| view! { <p class="ok flash" role="status" data-testid="form-ok">{ok}</p> })}
        {flash.error.map(|error| view! { <p class="error flash" role="alert" data-testid="form-error">{error}</p> })}
    }
}

/// `/admin/builds/<key>`: a draft being built, with a progress bar; the page reloads itself each
/// second, and the server sends it on to the draft once it exists.
pub fn building(
    texts: Texts,
    admin: &str,
    dictionary: dictionaries::DictionaryId,
    stage: dictionaries::wordlist::Stage,
    done: u64,
    total: u64,
) -> String {
    let percent = (done * 100).checked_div(total).unwrap_or(0);
    let main = view! {
        <main class="page admin" data-testid="building">
            <meta http-equiv="refresh" content="1" />
            <h1>{tr!(texts, admin.building_title, dictionary = crate::i18n::dictionary_name(texts, dictionary))}</h1>
            <section class="card">
                <p role="status">{tr!(texts, admin.building_stage, stage = crate::i18n::build_stage(texts, stage), done, total)}</p>
                <progress class="building" max=total.max(1) value=done aria-label=tr!(texts, admin.build_progress)>{format!("{percent} %")}</progress>
                <p class="hint">{tr!(texts, admin.building_hint)}</p>
            </section>
        </main>
    };
    document(texts, tr!(texts, admin.building), admin, main)
}

/// `/admin`: every dictionary, the upload and edit forms, the report queue and the audit log.
pub fn overview(texts: Texts, admin: &str, panel: Panel, flash: Flash) -> String {
    let ids: Vec<(String, String)> = panel
        .dictionaries
        .iter()
        .map(|d| {
            (
                d.id.as_str().to_string(),
                crate::i18n::dictionary_name(texts, d.id).to_string(),
            )
        })
        .collect();
    let main = view! {
        <main class="page admin" data-testid="admin">
            <h1>{tr!(texts, admin.dictionaries)}</h1>
            <p class="lead">{tr!(texts, admin.lead)}</p>
            {flash_view(flash)}
            <div class="admin-dictionaries">
                {panel.dictionaries.into_iter().map(|d| dictionary_card(texts, d)).collect_view()}
            </div>
            <div class="admin-forms">
                {upload_form(texts, &ids)}
                {edit_form(texts, &ids)}
            </div>
            {report_queue(texts, panel.reports)}
            {audit_log(texts, panel.audit)}
        </main>
    };
    document(texts, tr!(texts, admin.dictionaries), admin, main)
}

fn dictionary_card(texts: Texts, d: DictionaryOverview) -> impl IntoView {
    let id = d.id;
    let active = d.versions.iter().find(|v| v.active).cloned();
    view! {
        <section class="card admin-dictionary" data-dictionary=id.as_str()>
            <h2>{crate::i18n::dictionary_name(texts, id)}<span class="muted">" · "{id.as_str()}</span></h2>
            <dl class="facts">
                <dt>{tr!(texts, admin.alphabet)}</dt><dd class="alphabet">{d.alphabet.clone()}</dd>
                {active.map(|v| view! {
                    <dt>{tr!(texts, admin.active)}</dt>
                    <dd data-testid="active-version">
                        {tr!(texts, admin.active_line, version = v.version, words = v.word_count, size = size(v.fst_bytes), hash = &v.sha256[..12])}
                    </dd>
                    <dt>{tr!(texts, admin.published)}</dt>
                    <dd>{match (v.published_by, v.published_at) {
                        (Some(who), Some(at)) => tr!(texts, admin.by_at, who, at = utc(at)),
                        (None, Some(at)) => tr!(texts, admin.shipped_at, at = utc(at)),
                        _ => "—".into(),
                    }}</dd>
                })}
            </dl>
            <div class="table-scroll">
                <table class="versions">
                    <thead><tr><th>{tr!(texts, admin.version)}</th><th>{tr!(texts, admin.state)}</th><th class="num">{tr!(texts, admin.words)}</th><th>{tr!(texts, admin.made)}</th><th>{tr!(texts, admin.note)}</th></tr></thead>
                    <tbody>
                        {d.versions.into_iter().map(|v| {
                            let (state, state_name) = state_of(texts, &v);
                            view! {
                                <tr class=state data-version=v.version>
                                    <td><a href=format!("/admin/{}/{}", id.as_str(), v.version)>{format!("v{}", v.version)}</a></td>
                                    <td><span class=format!("badge {state}")>{state_name}</span></td>
                                    <td class="num">{v.word_count}</td>
                                    <td>{match v.created_by {
                                        Some(who) => tr!(texts, admin.origin_by, origin = crate::i18n::origin(texts, v.origin), who),
                                        None => crate::i18n::origin(texts, v.origin).to_string(),
                                    }}<br /><span class="muted">{utc(v.created_at)}</span></td>
                                    <td class="note">{v.note}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

fn dictionary_options(ids: &[(String, String)]) -> impl IntoView {
    ids.iter()
        .map(|(id, name)| view! { <option value=id.clone()>{name.clone()}</option> })
        .collect_view()
}

/// The file goes to `POST /admin/upload`, which answers with the draft's page; a line of script
/// shows that the list is uploading and building meanwhile.
fn upload_form(texts: Texts, ids: &[(String, String)]) -> impl IntoView {
    view! {
        <section class="card">
            <h2>{tr!(texts, admin.upload_title)}</h2>
            <p class="hint">{tr!(texts, admin.upload_hint)}</p>
            <form class="form" method="post" action="/admin/upload" enctype="multipart/form-data"
                data-testid="upload-form"
                onsubmit="this.querySelector('.building').hidden = false; this.querySelector('button').disabled = true">
                <label>{tr!(texts, admin.dictionary)}" " <select name="dictionary">{dictionary_options(ids)}</select></label>
                <label>{tr!(texts, admin.file)}" " <input type="file" name="file" required accept=".txt,.dic,text/plain" /></label>
                <label>{tr!(texts, admin.aff)}" " <input type="file" name="aff" accept=".aff" /></label>
                <label>{tr!(texts, admin.note)}" " <input type="text" name="note" maxlength="500" placeholder=tr!(texts, admin.note_placeholder) /></label>
                <button class="primary" type="submit">{tr!(texts, admin.upload)}</button>
                <div class="building" role="status" hidden>
                    <p class="muted">{tr!(texts, admin.uploading)}</p>
                    <progress aria-label=tr!(texts, admin.building_draft)></progress>
                </div>
            </form>
        </section>
    }
}

fn edit_form(texts: Texts, ids: &[(String, String)]) -> impl IntoView {
    view! {
        <section class="card">
            <h2>{tr!(texts, admin.edit_title)}</h2>
            <p class="hint">{tr!(texts, admin.edit_hint)}</p>
            <form class="form" method="post" action="/admin/edit" data-testid="edit-form">
                <label>{tr!(texts, admin.dictionary)}" " <select name="dictionary">{dictionary_options(ids)}</select></label>
                <label>{tr!(texts, admin.add)}" " <textarea name="add" rows="3" autocapitalize="none" spellcheck="false"></textarea></label>
                <label>{tr!(texts, admin.remove)}" " <textarea name="remove" rows="3" autocapitalize="none" spellcheck="false"></textarea></label>
                <label>{tr!(texts, admin.reason)}" " <input type="text" name="reason" required maxlength="500" /></label>
                <button class="primary" type="submit">{tr!(texts, admin.make_draft)}</button>
            </form>
        </section>
    }
}

fn report_queue(texts: Texts, reports: Vec<ReportGroup>) -> impl IntoView {
    view! {
        <section class="card" data-testid="report-queue">
            <h2>{tr!(texts, admin.reports)}</h2>
            {if reports.is_empty() {
                view! { <p class="muted">{tr!(texts, admin.no_reports)}</p> }.into_any()
            } else {
                view! {
                    <ul class="report-list">
                        {reports.into_iter().map(|r| {
                            let says = match r.kind {
                                ReportKind::Missing => tr!(texts, admin.says_word),
                                ReportKind::Wrong => tr!(texts, admin.says_not_word),
                            };
                            let count = r.reporters;
                            let reporters = format!(
                                " · {} · {}",
                                crate::i18n::dictionary_name(texts, r.dictionary),
                                tr!(texts, admin.reporters, count)
                            );
                            view! {
                                <li class="report" data-word=r.word.clone()>
                                    <span><strong>{r.word.to_uppercase()}</strong>" "{says}<span class="muted">{reporters}</span></span>
                                    <span class="actions">{decide_form(texts, &r, true)}{decide_form(texts, &r, false)}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
}

fn decide_form(texts: Texts, r: &ReportGroup, accept: bool) -> impl IntoView {
    view! {
        <form method="post" action="/admin/decide">
            <input type="hidden" name="dictionary" value=r.dictionary.as_str() />
            <input type="hidden" name="word" value=r.word.clone() />
            <input type="hidden" name="kind" value=r.kind.as_str() />
            <input type="hidden" name="accept" value=accept.to_string() />
            <button type="submit" class=if accept { "primary" } else { "" }>
                {if accept { tr!(texts, admin.accept) } else { tr!(texts, admin.dismiss) }}
            </button>
        </form>
    }
}

fn audit_log(texts: Texts, audit: Vec<AuditEntry>) -> impl IntoView {
    view! {
        <section class="card" data-testid="audit-log">
            <h2>{tr!(texts, admin.audit)}</h2>
            <div class="table-scroll">
                <table>
                    <thead><tr><th>{tr!(texts, admin.when)}</th><th>{tr!(texts, admin.who)}</th><th>{tr!(texts, admin.what)}</th><th class="num">{tr!(texts, admin.words)}</th><th>{tr!(texts, admin.reason)}</th></tr></thead>
                    <tbody>
                        {audit.into_iter().map(|e| view! {
                            <tr data-action=e.action.as_str()>
                                <td>{utc(e.at)}</td>
                                <td>{e.user.unwrap_or_else(|| "—".into())}</td>
                                <td>{format!("{} {}@{}", crate::i18n::audit_action(texts, e.action), e.dictionary.as_str(), e.version)}</td>
                                <td class="num">{format!("{} (+{} −{})", e.words, e.added, e.removed)}</td>
                                <td class="note">{e.reason}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// `/admin/<id>/<version>`: the version, its report, a look-up (`lookup`, when asked) and the
/// publish or roll-back form.
pub fn version(
    texts: Texts,
    admin: &str,
    detail: VersionDetail,
    lookup: Option<Lookup>,
    flash: Flash,
) -> String {
    let VersionDetail {
        version: v,
        report,
        active,
    } = detail;
    let id = v.dictionary;
    let (state, state_name) = state_of(texts, &v);
    // A rollback names its reason, as an edit does; a draft's publish has its build's note.
    let (action, reason_needed) = match (v.active, v.published_at) {
        (true, _) => (None, false),
        (false, None) => (Some(tr!(texts, admin.publish)), false),
        (false, Some(_)) => (Some(tr!(texts, admin.roll_back)), true),
    };
    let title = tr!(
        texts,
        admin.version_title,
        dictionary = crate::i18n::dictionary_name(texts, id),
        version = v.version
    );
    let warnings = report.warnings.clone();
    let here = format!("/admin/{}/{}", id.as_str(), v.version);
    let number = v.version;
    let main = view! {
        <main class="page admin" data-testid="admin-version">
            <p><a href="/admin">{tr!(texts, admin.to_dictionaries)}</a></p>
            <h1>{title.clone()}" "<span class=format!("badge {state}") data-testid="version-state" data-state=state>{state_name}</span></h1>
            {flash_view(flash)}
            <dl class="facts card">
                <dt>{tr!(texts, admin.words)}</dt><dd data-testid="accepted">{report.accepted}</dd>
                <dt>{tr!(texts, admin.made)}</dt><dd>{match &v.created_by {
                    Some(who) => tr!(texts, admin.origin_by_at, origin = crate::i18n::origin(texts, v.origin), who, at = utc(v.created_at)),
                    None => tr!(texts, admin.made_at, origin = crate::i18n::origin(texts, v.origin), at = utc(v.created_at)),
                }}</dd>
                <dt>{tr!(texts, admin.note)}</dt><dd>{v.note.clone()}</dd>
                <dt>"FST"</dt><dd class="hash">{format!("{} · sha256 {}", size(v.fst_bytes), v.sha256)}</dd>
                {v.published_at.map(|at| view! { <dt>{tr!(texts, admin.first_published)}</dt><dd>{match &v.published_by {
                    Some(who) => tr!(texts, admin.by_at, who, at = utc(at)),
                    None => tr!(texts, admin.on_first_start, at = utc(at)),
                }}</dd> })}
            </dl>

            <section class="card" data-testid="report">
                <h2>{tr!(texts, admin.report)}</h2>
                {(!warnings.is_empty()).then(|| view! {
                    <ul class="warnings" data-testid="warnings">
                        {warnings.iter().map(|w| view! { <li class="error">{crate::i18n::warning(texts, w)}</li> }).collect_view()}
                    </ul>
                })}
                <p data-testid="diff">{match report.based_on {
                    Some(base) => tr!(texts, admin.against, base, added = report.added, removed = report.removed),
                    None => tr!(texts, admin.not_compared).into(),
                }}</p>
                {(!report.first_added.is_empty()).then(|| view! {
                    <details open><summary>{tr!(texts, admin.added_shown, count = report.first_added.len())}</summary>
                        <p class="word-cloud" data-testid="added">{report.first_added.join(" ")}</p></details>
                })}
                {(!report.first_removed.is_empty()).then(|| view! {
                    <details open><summary>{tr!(texts, admin.removed_shown, count = report.first_removed.len())}</summary>
                        <p class="word-cloud" data-testid="removed">{report.first_removed.join(" ")}</p></details>
                })}
                <h3 data-testid="rejected-total">{tr!(texts, admin.rejected, count = report.rejected_total)}</h3>
                {(!report.rejected.is_empty()).then(|| view! {
                    <div class="table-scroll">
                        <table data-testid="rejected">
                            <thead><tr><th class="num">{tr!(texts, admin.line)}</th><th>{tr!(texts, admin.text)}</th><th>{tr!(texts, admin.why)}</th></tr></thead>
                            <tbody>
                                {report.rejected.iter().map(|r| view! {
                                    <tr><td class="num">{r.line}</td><td><code>{r.text.clone()}</code></td><td>{crate::i18n::line_problem(texts, &r.problem)}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                })}
            </section>

            <section class="card">
                <h2>{tr!(texts, admin.try_word)}</h2>
                <form class="form inline" method="get" action=here.clone() data-testid="lookup-form">
                    <input type="text" name="word" required maxlength="40" autocapitalize="none" spellcheck="false" aria-label=tr!(texts, admin.word)
                        value=lookup.as_ref().map(|found| found.word.clone()).unwrap_or_default() />
                    <button type="submit">{tr!(texts, admin.look_up)}</button>
                </form>
                {lookup.map(|found| {
                    let yes_no = |yes: bool| if yes { tr!(texts, admin.yes) } else { tr!(texts, admin.no) };
                    view! {
                        <p class="ok" role="status" data-testid="lookup">{tr!(
                            texts,
                            admin.lookup,
                            word = found.word.to_uppercase(),
                            in_version = yes_no(found.in_version),
                            version = number,
                            in_active = yes_no(found.in_active),
                            active = found.active,
                        )}</p>
                    }
                })}
            </section>

            {action.map(|label| view! {
                <section class="card">
                    <h2>{label}</h2>
                    <p class="hint">{tr!(texts, admin.new_games_get, version = number, active)}</p>
                    <form class="form" method="post" action="/admin/activate" data-testid="activate-form">
                        <input type="hidden" name="dictionary" value=id.as_str() />
                        <input type="hidden" name="version" value=number />
                        <label>{tr!(texts, admin.reason)}" " <input type="text" name="reason" maxlength="500" required=reason_needed /></label>
                        {(!warnings.is_empty()).then(|| view! {
                            <label class="checkbox"><input type="checkbox" name="confirm" value="true" />{tr!(texts, admin.confirm)}</label>
                        })}
                        <button class="primary" type="submit">{label}</button>
                    </form>
                </section>
            })}
        </main>
    };
    document(texts, &title, admin, main)
}
