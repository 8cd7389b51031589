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

fn state_of(v: &VersionSummary) -> &'static str {
    match (v.active, v.published_at) {
        (true, _) => "active",
        (false, Some(_)) => "earlier",
        (false, None) => "draft",
    }
}

/// A whole document around `main`, with the admin's top bar.
fn document(title: &str, admin: &str, main: impl IntoView + 'static) -> String {
    plain::document(
        crate::i18n::Words::english(),
        &format!("{title} · Admin"),
        Some(admin),
        true,
        main,
    )
}

/// A change refused or failed, and why, with the way back (the server sets the status).
pub fn not_done(message: &str) -> String {
    let message = message.to_string();
    let body = Owner::new().with(move || {
        view! {
            <main class="page">
                <h1>"Not done"</h1>
                <p class="error" data-testid="admin-error">{message}</p>
                <p><a href="/admin">"Back to the dictionaries"</a></p>
            </main>
        }
        .to_html()
    });
    plain::html(crate::i18n::Words::english(), "Not done", &body)
}

fn flash_view(flash: Flash) -> impl IntoView {
    view! {
        {flash.ok.map(|ok| view! { <p class="ok flash" role="status" data-testid="form-ok">{ok}</p> })}
        {flash.error.map(|error| view! { <p class="error flash" role="alert" data-testid="form-error">{error}</p> })}
    }
}

/// `/admin/builds/<key>`: a draft being built, with a progress bar; the page reloads itself each
/// second, and the server sends it on to the draft once it exists.
pub fn building(
    admin: &str,
    dictionary: dictionaries::DictionaryId,
    stage: &'static str,
    done: u64,
    total: u64,
) -> String {
    let percent = (done * 100).checked_div(total).unwrap_or(0);
    let main = view! {
        <main class="page admin" data-testid="building">
            <meta http-equiv="refresh" content="1" />
            <h1>{format!("Building a draft of {}", dictionary.name())}</h1>
            <section class="card">
                <p role="status">{format!("{stage}: {done} of {total}")}</p>
                <progress class="building" max=total.max(1) value=done aria-label="Build progress">{format!("{percent} %")}</progress>
                <p class="hint">"The draft's report opens by itself when it is ready. Nothing changes for players until you publish it."</p>
            </section>
        </main>
    };
    document("Building", admin, main)
}

/// `/admin`: every dictionary, the upload and edit forms, the report queue and the audit log.
pub fn overview(admin: &str, panel: Panel, flash: Flash) -> String {
    let ids: Vec<(String, String)> = panel
        .dictionaries
        .iter()
        .map(|d| (d.id.as_str().to_string(), d.id.name().to_string()))
        .collect();
    let main = view! {
        <main class="page admin" data-testid="admin">
            <h1>"Dictionaries"</h1>
            <p class="lead">"New games get a dictionary's active version; games already started keep theirs until they end."</p>
            {flash_view(flash)}
            <div class="admin-dictionaries">
                {panel.dictionaries.into_iter().map(dictionary_card).collect_view()}
            </div>
            <div class="admin-forms">
                {upload_form(&ids)}
                {edit_form(&ids)}
            </div>
            {report_queue(panel.reports)}
            {audit_log(panel.audit)}
        </main>
    };
    document("Dictionaries", admin, main)
}

fn dictionary_card(d: DictionaryOverview) -> impl IntoView {
    let id = d.id;
    let active = d.versions.iter().find(|v| v.active).cloned();
    view! {
        <section class="card admin-dictionary" data-dictionary=id.as_str()>
            <h2>{id.name()}<span class="muted">" · "{id.as_str()}</span></h2>
            <dl class="facts">
                <dt>"Alphabet"</dt><dd class="alphabet">{d.alphabet.clone()}</dd>
                {active.map(|v| view! {
                    <dt>"Active"</dt>
                    <dd data-testid="active-version">
                        {format!("version {} · {} words · {} · {}", v.version, v.word_count, size(v.fst_bytes), &v.sha256[..12])}
                    </dd>
                    <dt>"Published"</dt>
                    <dd>{match (v.published_by, v.published_at) {
                        (Some(by), Some(at)) => format!("by {by}, {}", utc(at)),
                        (None, Some(at)) => format!("shipped, {}", utc(at)),
                        _ => "—".into(),
                    }}</dd>
                })}
            </dl>
            <div class="table-scroll">
                <table class="versions">
                    <thead><tr><th>"Version"</th><th>"State"</th><th class="num">"Words"</th><th>"Made"</th><th>"Note"</th></tr></thead>
                    <tbody>
                        {d.versions.into_iter().map(|v| {
                            let state = state_of(&v);
                            view! {
                                <tr class=state data-version=v.version>
                                    <td><a href=format!("/admin/{}/{}", id.as_str(), v.version)>{format!("v{}", v.version)}</a></td>
                                    <td><span class=format!("badge {state}")>{state}</span></td>
                                    <td class="num">{v.word_count}</td>
                                    <td>{match v.created_by {
                                        Some(by) => format!("{} by {by}", v.origin.as_str()),
                                        None => v.origin.as_str().to_string(),
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
fn upload_form(ids: &[(String, String)]) -> impl IntoView {
    view! {
        <section class="card">
            <h2>"Upload a word list"</h2>
            <p class="hint">"Plain UTF-8 text, one word per line (lines starting with # and blank lines are skipped), or a hunspell .dic with its .aff, expanded to every form. The upload becomes a draft: nothing changes until you publish it."</p>
            <form class="form" method="post" action="/admin/upload" enctype="multipart/form-data"
                data-testid="upload-form"
                onsubmit="this.querySelector('.building').hidden = false; this.querySelector('button').disabled = true">
                <label>"Dictionary" <select name="dictionary">{dictionary_options(ids)}</select></label>
                <label>"File: a word list, or a hunspell .dic" <input type="file" name="file" required accept=".txt,.dic,text/plain" /></label>
                <label>"Affix file (.aff, with a .dic only)" <input type="file" name="aff" accept=".aff" /></label>
                <label>"Note" <input type="text" name="note" maxlength="500" placeholder="where the list comes from" /></label>
                <button class="primary" type="submit">"Upload and check"</button>
                <div class="building" role="status" hidden>
                    <p class="muted">"Uploading and building the draft…"</p>
                    <progress aria-label="Building the draft"></progress>
                </div>
            </form>
        </section>
    }
}

fn edit_form(ids: &[(String, String)]) -> impl IntoView {
    view! {
        <section class="card">
            <h2>"Add or remove words"</h2>
            <p class="hint">"On top of the active version, one word per line. The result is a draft."</p>
            <form class="form" method="post" action="/admin/edit" data-testid="edit-form">
                <label>"Dictionary" <select name="dictionary">{dictionary_options(ids)}</select></label>
                <label>"Add" <textarea name="add" rows="3" autocapitalize="none" spellcheck="false"></textarea></label>
                <label>"Remove" <textarea name="remove" rows="3" autocapitalize="none" spellcheck="false"></textarea></label>
                <label>"Reason" <input type="text" name="reason" required maxlength="500" /></label>
                <button class="primary" type="submit">"Make a draft"</button>
            </form>
        </section>
    }
}

fn report_queue(reports: Vec<ReportGroup>) -> impl IntoView {
    view! {
        <section class="card" data-testid="report-queue">
            <h2>"Word reports"</h2>
            {if reports.is_empty() {
                view! { <p class="muted">"No open reports."</p> }.into_any()
            } else {
                view! {
                    <ul class="report-list">
                        {reports.into_iter().map(|r| {
                            let says = match r.kind {
                                ReportKind::Missing => "is a word (refused)",
                                ReportKind::Wrong => "is not a word (accepted)",
                            };
                            let reporters = format!(
                                " · {} · {} reporter{}",
                                r.dictionary.name(),
                                r.reporters,
                                if r.reporters == 1 { "" } else { "s" }
                            );
                            view! {
                                <li class="report" data-word=r.word.clone()>
                                    <span><strong>{r.word.to_uppercase()}</strong>" "{says}<span class="muted">{reporters}</span></span>
                                    <span class="actions">{decide_form(&r, true)}{decide_form(&r, false)}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
}

fn decide_form(r: &ReportGroup, accept: bool) -> impl IntoView {
    view! {
        <form method="post" action="/admin/decide">
            <input type="hidden" name="dictionary" value=r.dictionary.as_str() />
            <input type="hidden" name="word" value=r.word.clone() />
            <input type="hidden" name="kind" value=r.kind.as_str() />
            <input type="hidden" name="accept" value=accept.to_string() />
            <button type="submit" class=if accept { "primary" } else { "" }>
                {if accept { "Accept" } else { "Dismiss" }}
            </button>
        </form>
    }
}

fn audit_log(audit: Vec<AuditEntry>) -> impl IntoView {
    view! {
        <section class="card" data-testid="audit-log">
            <h2>"Audit log"</h2>
            <div class="table-scroll">
                <table>
                    <thead><tr><th>"When"</th><th>"Who"</th><th>"What"</th><th class="num">"Words"</th><th>"Reason"</th></tr></thead>
                    <tbody>
                        {audit.into_iter().map(|e| view! {
                            <tr data-action=e.action.as_str()>
                                <td>{utc(e.at)}</td>
                                <td>{e.user.unwrap_or_else(|| "—".into())}</td>
                                <td>{format!("{} {}@{}", e.action.as_str(), e.dictionary.as_str(), e.version)}</td>
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
pub fn version(admin: &str, detail: VersionDetail, lookup: Option<Lookup>, flash: Flash) -> String {
    let VersionDetail {
        version: v,
        report,
        active,
    } = detail;
    let id = v.dictionary;
    let state = state_of(&v);
    let action = match (v.active, v.published_at) {
        (true, _) => None,
        (false, None) => Some("Publish"),
        (false, Some(_)) => Some("Roll back to this version"),
    };
    let title = format!("{} · version {}", id.name(), v.version);
    let warnings = report.warnings.clone();
    let here = format!("/admin/{}/{}", id.as_str(), v.version);
    let number = v.version;
    let main = view! {
        <main class="page admin" data-testid="admin-version">
            <p><a href="/admin">"← Dictionaries"</a></p>
            <h1>{title.clone()}" "<span class=format!("badge {state}") data-testid="version-state">{state}</span></h1>
            {flash_view(flash)}
            <dl class="facts card">
                <dt>"Words"</dt><dd data-testid="accepted">{report.accepted}</dd>
                <dt>"Made"</dt><dd>{match &v.created_by {
                    Some(by) => format!("{} by {by}, {}", v.origin.as_str(), utc(v.created_at)),
                    None => format!("{}, {}", v.origin.as_str(), utc(v.created_at)),
                }}</dd>
                <dt>"Note"</dt><dd>{v.note.clone()}</dd>
                <dt>"FST"</dt><dd class="hash">{format!("{} · sha256 {}", size(v.fst_bytes), v.sha256)}</dd>
                {v.published_at.map(|at| view! { <dt>"First published"</dt><dd>{match &v.published_by {
                    Some(by) => format!("by {by}, {}", utc(at)),
                    None => format!("on first start, {}", utc(at)),
                }}</dd> })}
            </dl>

            <section class="card" data-testid="report">
                <h2>"Report"</h2>
                {(!warnings.is_empty()).then(|| view! {
                    <ul class="warnings" data-testid="warnings">
                        {warnings.iter().map(|w| view! { <li class="error">{w.to_string()}</li> }).collect_view()}
                    </ul>
                })}
                <p data-testid="diff">{match report.based_on {
                    Some(base) => format!("Against version {base}: {} added, {} removed.", report.added, report.removed),
                    None => "Not compared with another version.".into(),
                }}</p>
                {(!report.first_added.is_empty()).then(|| view! {
                    <details open><summary>{format!("Added ({} shown)", report.first_added.len())}</summary>
                        <p class="word-cloud" data-testid="added">{report.first_added.join(" ")}</p></details>
                })}
                {(!report.first_removed.is_empty()).then(|| view! {
                    <details open><summary>{format!("Removed ({} shown)", report.first_removed.len())}</summary>
                        <p class="word-cloud" data-testid="removed">{report.first_removed.join(" ")}</p></details>
                })}
                <h3 data-testid="rejected-total">{format!("{} line{} rejected", report.rejected_total, if report.rejected_total == 1 { "" } else { "s" })}</h3>
                {(!report.rejected.is_empty()).then(|| view! {
                    <div class="table-scroll">
                        <table data-testid="rejected">
                            <thead><tr><th class="num">"Line"</th><th>"Text"</th><th>"Why"</th></tr></thead>
                            <tbody>
                                {report.rejected.iter().map(|r| view! {
                                    <tr><td class="num">{r.line}</td><td><code>{r.text.clone()}</code></td><td>{r.problem.to_string()}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                })}
            </section>

            <section class="card">
                <h2>"Try a word"</h2>
                <form class="form inline" method="get" action=here.clone() data-testid="lookup-form">
                    <input type="text" name="word" required maxlength="40" autocapitalize="none" spellcheck="false" aria-label="Word"
                        value=lookup.as_ref().map(|l| l.word.clone()).unwrap_or_default() />
                    <button type="submit">"Look up"</button>
                </form>
                {lookup.map(|l| view! {
                    <p class="ok" role="status" data-testid="lookup">{format!(
                        "{}: {} in version {number}, {} in the active version {}",
                        l.word.to_uppercase(),
                        if l.in_version { "yes" } else { "no" },
                        if l.in_active { "yes" } else { "no" },
                        l.active,
                    )}</p>
                })}
            </section>

            {action.map(|label| view! {
                <section class="card">
                    <h2>{label}</h2>
                    <p class="hint">{format!("New games will get version {number} instead of version {active}; games already started keep theirs.")}</p>
                    <form class="form" method="post" action="/admin/activate" data-testid="activate-form">
                        <input type="hidden" name="dictionary" value=id.as_str() />
                        <input type="hidden" name="version" value=number />
                        <label>"Reason" <input type="text" name="reason" maxlength="500" /></label>
                        {(!warnings.is_empty()).then(|| view! {
                            <label class="checkbox"><input type="checkbox" name="confirm" value="true" />"I have read the warnings above and want this version active"</label>
                        })}
                        <button class="primary" type="submit">{label}</button>
                    </form>
                </section>
            })}
        </main>
    };
    document(&title, admin, main)
}
