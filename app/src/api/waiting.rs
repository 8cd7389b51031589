//! The correspondence clock's forgiveness: vacations, which pause a player's Casual clocks for
//! days they choose (the settings page's forms), and nudges, which remind an opponent who has
//! kept the caller waiting over a day (the game page's button).

use crate::wire::{Form, Wire};
use leptos::{prelude::*, server_fn::codec::Json};

#[cfg(feature = "ssr")]
use super::server::{as_member, as_member_form};
use super::Refusal;

/// Starts the caller's vacation of `days` days (a form's number), pausing their clock in every
/// Casual game.
#[server(input = Form, output = Wire, endpoint = "vacation/start")]
pub async fn start_vacation(days: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        let days = days
            .trim()
            .parse::<i64>()
            .map_err(|_| Refusal::Invalid("the days of a vacation are a whole number".into()))?;
        store::vacations::start(&services.db, user.id, days).await?;
        Ok(())
    })
    .await
}

/// Ends the caller's vacation now: their clocks run again, and the days not begun come back.
#[server(input = Form, output = Wire, endpoint = "vacation/end")]
pub async fn end_vacation() -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        store::vacations::end(&services.db, user.id).await?;
        Ok(())
    })
    .await
}

/// Nudges the player to move in game `id`, whom the caller has waited for over a day: a push
/// notice, and a letter in their language if they asked for deadline mail.
#[server(input = Json, output = Wire, endpoint = "games/nudge")]
pub async fn nudge(id: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member(async move |services, user| {
        let base = services.mail_base.clone().unwrap_or_default();
        let link = format!("{base}/game/{id}");
        store::nudges::nudge(&services.db, &id, user.id, |nudged| {
            let lang = nudged
                .language
                .as_deref()
                .and_then(crate::i18n::Lang::parse);
            let texts = crate::i18n::Texts::of(lang.unwrap_or_default());
            crate::i18n::letters::nudge(texts, &nudged.nudger, &link)
        })
        .await
    })
    .await
}
