//! Players' word reports: from a game, "this is a word" (the dictionary refused it) or "this is
//! not a word" (it accepted it); and the list of one's own reports with what became of them.

use crate::wire::Wire;
use dictionaries::versions::{MyReport, ReportKind};
use leptos::{prelude::*, server_fn::codec::Json};

use super::Refusal;

/// Reports `word` in the dictionary of game `game`, which must be one of the caller's.
#[server(input = Json, output = Wire, endpoint = "reports/file")]
pub async fn report_word(
    game: String,
    word: String,
    kind: ReportKind,
) -> Result<Result<(), Refusal>, ServerFnError> {
    use store::{games, library::reports, seating};
    super::server::as_player(async move |services, user| {
        // Someone else's game answers "no such game", as everywhere.
        seating::my_seats(&services.db, &game, user.id).await?;
        let row = games::row(&services.db, &game).await?;
        let at = dictionaries::DictionaryRef::parse(&row.config.dictionary).ok_or_else(|| {
            store::StoreError::Data(format!("no dictionary {}", row.config.dictionary))
        })?;
        reports::file(&services.db, &user, at.id, &word, kind, &game).await
    })
    .await
}

/// The caller's reports, newest first.
#[server(input = Json, output = Wire, endpoint = "reports/mine")]
pub async fn my_reports() -> Result<Result<Vec<MyReport>, Refusal>, ServerFnError> {
    super::server::as_player(async |services, user| {
        use dictionaries::versions::ReportStatus;
        use rules::Lexicon;
        let mut reports = store::library::reports::mine(&services.db, &user).await?;
        // What the admins accepted may still wait in a draft: it is in effect once the active
        // version has it.
        for report in &mut reports {
            if report.status == ReportStatus::Accepted {
                let active = services.library.active(report.dictionary).await?;
                let listed = active.lexicon.contains(&report.word);
                report.in_effect = listed == (report.kind == ReportKind::Missing);
            }
        }
        Ok(reports)
    })
    .await
}
