//! The admins' dictionary panel as an API: every dictionary with its versions, the audit log and
//! the word report queue; word edits, look-ups in a version, publishing and rolling back. Every
//! server function here refuses anyone but an admin. The panel's pages (server-rendered, see
//! `routes::admin`) and its upload (`server/src/admin.rs`) call the same [`ops`].

use dictionaries::versions::{
    AuditEntry, DictionaryOverview, Report, ReportGroup, ReportKind, VersionSummary,
};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::Refusal;

/// What the panel's front page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Panel {
    /// Every dictionary and its versions.
    pub dictionaries: Vec<DictionaryOverview>,
    /// The latest 100 changes, newest first.
    pub audit: Vec<AuditEntry>,
    /// Open word reports, grouped by word.
    pub reports: Vec<ReportGroup>,
}

/// One version with what was found when it was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionDetail {
    /// The version.
    pub version: VersionSummary,
    /// Its report.
    pub report: Report,
    /// The dictionary's active version.
    pub active: u32,
}

/// A word looked up in a version and in the active version, side by side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lookup {
    /// The word, as looked up (lower case).
    pub word: String,
    /// Whether the version asked about has it.
    pub in_version: bool,
    /// Whether the active version has it.
    pub in_active: bool,
    /// The active version's number.
    pub active: u32,
}

/// What the panel does, for a caller already known to be an admin.
#[cfg(feature = "ssr")]
pub mod ops {
    use dictionaries::{
        versions::{Origin, ReportKind, ReportStatus},
        DictionaryId, DictionaryRef,
    };

    use super::{Lookup, Panel, VersionDetail};
    use domain::Refusal;
    use store::{
        accounts::User,
        library::{reports, versions},
        Services, StoreError,
    };

    /// The dictionary named `id`, or a refusal.
    pub fn dictionary(id: &str) -> Result<DictionaryId, Refusal> {
        DictionaryId::parse(id).ok_or_else(|| Refusal::Invalid(format!("no dictionary '{id}'")))
    }

    /// The front page's data.
    pub async fn panel(services: &Services) -> Result<Panel, StoreError> {
        Ok(Panel {
            dictionaries: versions::overview(&services.db).await?,
            audit: versions::audit_log(&services.db, 100).await?,
            reports: reports::queue(&services.db).await?,
        })
    }

    /// One version and its report.
    pub async fn version(
        services: &Services,
        at: DictionaryRef,
    ) -> Result<VersionDetail, StoreError> {
        let (version, report) = versions::version(&services.db, at)
            .await?
            .ok_or_else(|| Refusal::Invalid(format!("{at} does not exist")))?;
        let active = versions::active_ref(&services.db, at.id).await?.version;
        Ok(VersionDetail {
            version,
            report,
            active,
        })
    }

    /// Adds and removes words (each a list, one word per line) on top of the active version.
    pub async fn edit(
        services: &Services,
        admin: &User,
        id: DictionaryId,
        add: String,
        remove: String,
        reason: &str,
    ) -> Result<DictionaryRef, StoreError> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(Refusal::Dictionary(domain::DictionaryProblem::ReasonNeeded).into());
        }
        if add.trim().is_empty() && remove.trim().is_empty() {
            return Err(Refusal::Dictionary(domain::DictionaryProblem::NothingToEdit).into());
        }
        let alphabet = id.alphabet();
        let (at, _) = services
            .library
            .draft(
                admin,
                id,
                Origin::Edit,
                reason,
                Default::default(),
                move |base, _| Ok(dictionaries::wordlist::edit(base, &add, &remove, &alphabet)),
            )
            .await?;
        Ok(at)
    }

    /// Looks a word up in a version and in the active version.
    pub async fn lookup(
        services: &Services,
        at: DictionaryRef,
        word: &str,
    ) -> Result<Lookup, StoreError> {
        use rules::Lexicon;
        let word = word.trim().to_lowercase();
        let asked = services
            .library
            .get(at)
            .await
            .map_err(|_| Refusal::Invalid(format!("{at} does not exist")))?;
        let active = services.library.active(at.id).await?;
        Ok(Lookup {
            in_version: asked.lexicon.contains(&word),
            in_active: active.lexicon.contains(&word),
            active: active.at.version,
            word,
        })
    }

    /// Makes `at` the version new games get: publishes a draft, or rolls back to an earlier
    /// version. A version whose report carries warnings needs `confirm`. Says what was done.
    pub async fn activate(
        services: &Services,
        admin: &User,
        at: DictionaryRef,
        reason: &str,
        confirm: bool,
    ) -> Result<dictionaries::versions::AuditAction, StoreError> {
        let action = versions::activate(&services.db, at, admin, reason, confirm).await?;
        // This instance follows at once; the others when the change reaches them.
        services.library.refresh().await?;
        Ok(action)
    }

    /// Accepts (into a new draft: the word added, or removed) or dismisses every open report of
    /// a word; the draft, when one was made.
    pub async fn decide(
        services: &Services,
        admin: &User,
        id: DictionaryId,
        word: &str,
        kind: ReportKind,
        accept: bool,
    ) -> Result<Option<DictionaryRef>, StoreError> {
        let status = if accept {
            ReportStatus::Accepted
        } else {
            ReportStatus::Dismissed
        };
        let closed = reports::decide(&services.db, admin, id, word, kind, status).await?;
        if closed == 0 {
            return Err(Refusal::Dictionary(domain::DictionaryProblem::NoOpenReport(
                word.to_string(),
            ))
            .into());
        }
        if !accept {
            return Ok(None);
        }
        let (add, remove) = match kind {
            ReportKind::Missing => (word.to_string(), String::new()),
            ReportKind::Wrong => (String::new(), word.to_string()),
        };
        let says = match kind {
            ReportKind::Missing => "is a word",
            ReportKind::Wrong => "is not a word",
        };
        let note = format!("{closed} player report(s): '{word}' {says}");
        let at = edit(services, admin, id, add, remove, &note).await?;
        Ok(Some(at))
    }
}

/// The panel's front page.
#[server(input = leptos::server_fn::codec::Json, endpoint = "admin/overview")]
pub async fn admin_overview() -> Result<Result<Panel, Refusal>, ServerFnError> {
    super::server::as_admin(async |services, _admin| ops::panel(&services).await).await
}

/// One version and its report.
#[server(input = leptos::server_fn::codec::Json, endpoint = "admin/version")]
pub async fn admin_version(
    dictionary: String,
    version: u32,
) -> Result<Result<VersionDetail, Refusal>, ServerFnError> {
    super::server::as_admin(async move |services, _admin| {
        let id = ops::dictionary(&dictionary)?;
        ops::version(&services, dictionaries::DictionaryRef { id, version }).await
    })
    .await
}

/// Adds and removes words (each a list, one word per line) on top of the active version, making
/// a draft; answers which.
#[server(endpoint = "admin/edit")]
pub async fn admin_edit(
    dictionary: String,
    add: String,
    remove: String,
    reason: String,
) -> Result<Result<dictionaries::DictionaryRef, Refusal>, ServerFnError> {
    super::server::as_admin(async move |services, admin| {
        let id = ops::dictionary(&dictionary)?;
        ops::edit(&services, &admin, id, add, remove, &reason).await
    })
    .await
}

/// Looks a word up in a version (a draft, say) and in the active version.
#[server(endpoint = "admin/lookup")]
pub async fn admin_lookup(
    dictionary: String,
    version: u32,
    word: String,
) -> Result<Result<Lookup, Refusal>, ServerFnError> {
    super::server::as_admin(async move |services, _admin| {
        let id = ops::dictionary(&dictionary)?;
        ops::lookup(
            &services,
            dictionaries::DictionaryRef { id, version },
            &word,
        )
        .await
    })
    .await
}

/// Makes a version the one new games get: publishes a draft, or rolls back to an earlier
/// version. A draft whose report carries warnings needs `confirm`.
#[server(endpoint = "admin/activate")]
pub async fn admin_activate(
    dictionary: String,
    version: u32,
    reason: String,
    #[server(default)] confirm: bool,
) -> Result<Result<String, Refusal>, ServerFnError> {
    super::server::as_admin(async move |services, admin| {
        let id = ops::dictionary(&dictionary)?;
        let at = dictionaries::DictionaryRef { id, version };
        let action = ops::activate(&services, &admin, at, &reason, confirm).await?;
        Ok(format!("{at} is active ({})", action.as_str()))
    })
    .await
}

/// Accepts (into a new draft: the word added, or removed) or dismisses every open report of a
/// word; answers the draft when one was made.
#[server(endpoint = "admin/decide-report")]
pub async fn admin_decide_report(
    dictionary: String,
    word: String,
    kind: ReportKind,
    accept: bool,
) -> Result<Result<Option<dictionaries::DictionaryRef>, Refusal>, ServerFnError> {
    super::server::as_admin(async move |services, admin| {
        let id = ops::dictionary(&dictionary)?;
        ops::decide(&services, &admin, id, &word, kind, accept).await
    })
    .await
}
