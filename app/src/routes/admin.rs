//! The admins' dictionary panel: `/admin` lists every dictionary with its versions, takes uploads
//! and word edits, and holds the players' word reports and the audit log; `/admin/<id>/<version>`
//! shows one version's report, looks words up in it beside the active version, and publishes it
//! (or rolls back to it). Anyone but an admin sees "Page not found" (and the server answers 404).

use dictionaries::{
    versions::{AuditEntry, DictionaryOverview, ReportGroup, ReportKind, VersionSummary},
    DictionaryId,
};
use leptos::{form::ActionForm, prelude::*};
use leptos_router::hooks::{use_navigate, use_params_map};

use crate::api::{
    admin::{
        admin_overview, admin_version, AdminActivate, AdminDecideReport, AdminEdit, AdminLookup,
        Panel, VersionDetail,
    },
    Refusal,
};
use crate::routes::not_found::NotFound;
use leptos_meta::Title;

/// A unix-ms instant as `2026-12-01 14:05 UTC`: the same on the server and in the browser, so the
/// hydrated page matches the rendered one.
pub fn utc(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000);
    let (days, minute_of_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year}-{month:02}-{day:02} {:02}:{:02} UTC",
        minute_of_day / 60,
        minute_of_day % 60
    )
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

/// What a refused or failed answer shows: refusals for want of rights are "Page not found".
fn refused(error: Result<Refusal, ServerFnError>) -> AnyView {
    match error {
        Ok(Refusal::AdminsOnly | Refusal::SignInFirst) => view! { <NotFound /> }.into_any(),
        Ok(refusal) => view! { <main class="page"><p class="error" role="alert">{refusal.to_string()}</p></main> }
            .into_any(),
        Err(error) => view! { <main class="page"><p class="error" role="alert">{format!("The server failed: {error}")}</p></main> }
            .into_any(),
    }
}

fn flatten<T>(
    answer: Result<Result<T, Refusal>, ServerFnError>,
) -> Result<T, Result<Refusal, ServerFnError>> {
    match answer {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(refusal)) => Err(Ok(refusal)),
        Err(error) => Err(Err(error)),
    }
}

/// The last answer of a form, as a line under it.
#[component]
fn Outcome<T: Clone + Send + Sync + 'static>(
    value: Signal<Option<Result<Result<T, Refusal>, ServerFnError>>>,
    #[prop(into)] ok: Callback<T, String>,
) -> impl IntoView {
    move || {
        value.get().map(|answer| match flatten(answer) {
            Ok(done) => view! { <p class="ok" role="status" data-testid="form-ok">{ok.run(done)}</p> }.into_any(),
            Err(Ok(refusal)) => view! { <p class="error" role="alert" data-testid="form-error">{refusal.to_string()}</p> }.into_any(),
            Err(Err(error)) => view! { <p class="error" role="alert" data-testid="form-error">{format!("The server failed: {error}")}</p> }.into_any(),
        })
    }
}

/// `/admin`.
#[component]
pub fn AdminPage() -> impl IntoView {
    let decide = ServerAction::<AdminDecideReport>::new();
    let panel = Resource::new(move || decide.version().get(), |_| admin_overview());
    view! {
        <Title text="Dictionaries · Admin" />
        <Suspense fallback=|| view! { <main class="page"><p class="muted">"Loading…"</p></main> }>
            {move || panel.get().map(|answer| match flatten(answer) {
                Ok(panel) => view! { <Overview panel decide /> }.into_any(),
                Err(error) => refused(error),
            })}
        </Suspense>
    }
}

#[component]
fn Overview(panel: Panel, decide: ServerAction<AdminDecideReport>) -> impl IntoView {
    let ids: Vec<DictionaryId> = panel.dictionaries.iter().map(|d| d.id).collect();
    view! {
        <main class="page admin" data-testid="admin">
            <h1>"Dictionaries"</h1>
            <p class="lead">"New games get a dictionary's active version; games already started keep theirs until they end."</p>
            <div class="admin-dictionaries">
                {panel.dictionaries.into_iter().map(|d| view! { <DictionaryCard d /> }).collect_view()}
            </div>
            <div class="admin-forms">
                <UploadForm ids=ids.clone() />
                <EditForm ids />
            </div>
            <ReportQueue reports=panel.reports decide />
            <AuditLog audit=panel.audit />
        </main>
    }
    .into_any()
}

#[component]
fn DictionaryCard(d: DictionaryOverview) -> impl IntoView {
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
                                    <td>{format!("{} · {}", v.origin.as_str(), v.created_by.unwrap_or_else(|| "—".into()))}<br /><span class="muted">{utc(v.created_at)}</span></td>
                                    <td class="note">{v.note}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}

fn dictionary_options(ids: &[DictionaryId]) -> impl IntoView {
    ids.iter()
        .map(|id| view! { <option value=id.as_str()>{id.name()}</option> })
        .collect_view()
}

/// A plain multipart form: the file goes to `POST /admin/upload`, which answers with the draft's
/// page. Hydrated, the page shows that the list is uploading and building meanwhile.
#[component]
fn UploadForm(ids: Vec<DictionaryId>) -> impl IntoView {
    let busy = RwSignal::new(false);
    view! {
        <section class="card">
            <h2>"Upload a word list"</h2>
            <p class="hint">"Plain UTF-8 text, one word per line (lines starting with # and blank lines are skipped), or a hunspell .dic with its .aff, expanded to every form. The upload becomes a draft: nothing changes until you publish it."</p>
            <form class="form" method="post" action="/admin/upload" enctype="multipart/form-data"
                data-testid="upload-form" on:submit=move |_| busy.set(true)>
                <label>"Dictionary" <select name="dictionary">{dictionary_options(&ids)}</select></label>
                <label>"File: a word list, or a hunspell .dic" <input type="file" name="file" required accept=".txt,.dic,text/plain" /></label>
                <label>"Affix file (.aff, with a .dic only)" <input type="file" name="aff" accept=".aff" /></label>
                <label>"Note" <input type="text" name="note" maxlength="500" placeholder="where the list comes from" /></label>
                <button class="primary" type="submit" disabled=move || busy.get()>"Upload and check"</button>
                <Show when=move || busy.get()>
                    <p class="muted" role="status">"Uploading and building the draft…"</p>
                    <progress class="building" aria-label="Building the draft"></progress>
                </Show>
            </form>
        </section>
    }
    .into_any()
}

#[component]
fn EditForm(ids: Vec<DictionaryId>) -> impl IntoView {
    let edit = ServerAction::<AdminEdit>::new();
    let value = Signal::derive(move || edit.value().get());
    // A new draft: show its report.
    Effect::new(move |_| {
        if let Some(Ok(Ok(at))) = value.get() {
            use_navigate()(
                &format!("/admin/{}/{}", at.id.as_str(), at.version),
                Default::default(),
            );
        }
    });
    view! {
        <section class="card">
            <h2>"Add or remove words"</h2>
            <p class="hint">"On top of the active version, one word per line. The result is a draft."</p>
            <ActionForm action=edit attr:class="form" attr:data-testid="edit-form">
                <label>"Dictionary" <select name="dictionary">{dictionary_options(&ids)}</select></label>
                <label>"Add" <textarea name="add" rows="3" autocapitalize="none" spellcheck="false"></textarea></label>
                <label>"Remove" <textarea name="remove" rows="3" autocapitalize="none" spellcheck="false"></textarea></label>
                <label>"Reason" <input type="text" name="reason" required maxlength="500" /></label>
                <button class="primary" type="submit" disabled=move || edit.pending().get()>"Make a draft"</button>
                <Outcome value ok=|at: dictionaries::DictionaryRef| format!("Draft {at} made.") />
            </ActionForm>
        </section>
    }
    .into_any()
}

#[component]
fn ReportQueue(
    reports: Vec<ReportGroup>,
    decide: ServerAction<AdminDecideReport>,
) -> impl IntoView {
    let value = Signal::derive(move || decide.value().get());
    let said = |draft: Option<dictionaries::DictionaryRef>| match draft {
        Some(at) => format!("Accepted into draft {at}: publish it to make it count."),
        None => "Dismissed.".into(),
    };
    view! {
        <section class="card" data-testid="report-queue">
            <h2>"Word reports"</h2>
            <Outcome value ok=said />
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
                            view! {
                                <li class="report" data-word=r.word.clone()>
                                    <span><strong>{r.word.to_uppercase()}</strong>" "{says}
                                        <span class="muted">{format!(" · {} · {} reporter{}", r.dictionary.name(), r.reporters, if r.reporters == 1 { "" } else { "s" })}</span>
                                    </span>
                                    <span class="actions">{decide_form(decide, &r, true)}{decide_form(decide, &r, false)}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
    .into_any()
}

fn decide_form(
    decide: ServerAction<AdminDecideReport>,
    r: &ReportGroup,
    accept: bool,
) -> impl IntoView {
    let (dictionary, word, kind) = (
        r.dictionary.as_str(),
        r.word.clone(),
        format!("{:?}", r.kind),
    );
    view! {
        <ActionForm action=decide>
            <input type="hidden" name="dictionary" value=dictionary />
            <input type="hidden" name="word" value=word />
            <input type="hidden" name="kind" value=kind />
            <input type="hidden" name="accept" value=accept.to_string() />
            <button type="submit" class=if accept { "primary" } else { "" }
                disabled=move || decide.pending().get()>
                {if accept { "Accept" } else { "Dismiss" }}
            </button>
        </ActionForm>
    }
    .into_any()
}

#[component]
fn AuditLog(audit: Vec<AuditEntry>) -> impl IntoView {
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
    .into_any()
}

/// `/admin/<id>/<version>`.
#[component]
pub fn AdminVersionPage() -> impl IntoView {
    let params = use_params_map();
    let at = move || {
        params.with(|p| {
            (
                p.get("dictionary").unwrap_or_default(),
                p.get("version")
                    .and_then(|v| v.parse::<u32>().ok())
                    .unwrap_or(0),
            )
        })
    };
    let activate = ServerAction::<AdminActivate>::new();
    let detail = Resource::new(
        move || (at(), activate.version().get()),
        |((dictionary, version), _)| admin_version(dictionary, version),
    );
    view! {
        <Title text="Dictionary version · Admin" />
        <Suspense fallback=|| view! { <main class="page"><p class="muted">"Loading…"</p></main> }>
            {move || detail.get().map(|answer| match flatten(answer) {
                Ok(detail) => view! { <VersionView detail activate /> }.into_any(),
                Err(error) => refused(error),
            })}
        </Suspense>
    }
}

#[component]
fn VersionView(detail: VersionDetail, activate: ServerAction<AdminActivate>) -> impl IntoView {
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
    let warnings = report.warnings.clone();
    let lookup = ServerAction::<AdminLookup>::new();
    let found = Signal::derive(move || lookup.value().get());
    let activated = Signal::derive(move || activate.value().get());
    view! {
        <main class="page admin" data-testid="admin-version">
            <p><a href="/admin">"← Dictionaries"</a></p>
            <h1>{format!("{} · version {}", id.name(), v.version)}" "<span class=format!("badge {state}") data-testid="version-state">{state}</span></h1>
            <dl class="facts card">
                <dt>"Words"</dt><dd data-testid="accepted">{report.accepted}</dd>
                <dt>"Made"</dt><dd>{format!("{} by {}, {}", v.origin.as_str(), v.created_by.clone().unwrap_or_else(|| "—".into()), utc(v.created_at))}</dd>
                <dt>"Note"</dt><dd>{v.note.clone()}</dd>
                <dt>"FST"</dt><dd>{format!("{} · sha256 {}", size(v.fst_bytes), v.sha256)}</dd>
                {v.published_at.map(|at| view! { <dt>"First published"</dt><dd>{format!("{}, {}", v.published_by.clone().unwrap_or_else(|| "—".into()), utc(at))}</dd> })}
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
                <ActionForm action=lookup attr:class="form inline" attr:data-testid="lookup-form">
                    <input type="hidden" name="dictionary" value=id.as_str() />
                    <input type="hidden" name="version" value=v.version />
                    <input type="text" name="word" required maxlength="40" autocapitalize="none" spellcheck="false" aria-label="Word" />
                    <button type="submit">"Look up"</button>
                </ActionForm>
                <Outcome value=found ok=move |l: crate::api::admin::Lookup| format!(
                    "{}: {} in version {}, {} in the active version {}",
                    l.word.to_uppercase(),
                    if l.in_version { "yes" } else { "no" },
                    v.version,
                    if l.in_active { "yes" } else { "no" },
                    l.active,
                ) />
            </section>

            {action.map(|label| view! {
                <section class="card">
                    <h2>{label}</h2>
                    <p class="hint">{format!("New games will get version {} instead of version {active}; games already started keep theirs.", v.version)}</p>
                    <ActionForm action=activate attr:class="form" attr:data-testid="activate-form">
                        <input type="hidden" name="dictionary" value=id.as_str() />
                        <input type="hidden" name="version" value=v.version />
                        <label>"Reason" <input type="text" name="reason" maxlength="500" /></label>
                        {(!warnings.is_empty()).then(|| view! {
                            <label class="checkbox"><input type="checkbox" name="confirm" value="true" />"I have read the warnings above and want this version active"</label>
                        })}
                        <button class="primary" type="submit" disabled=move || activate.pending().get()>{label}</button>
                        <Outcome value=activated ok=|message: String| message />
                    </ActionForm>
                </section>
            })}
        </main>
    }
    .into_any()
}
