//! Leagues' forms: a player registers for a season taking registrations (or takes it back), an
//! admin makes a league. The pages (`/leagues`, `/leagues/<id>`) are rendered on the server
//! (`routes::leagues`); these forms post here and are sent back to them.

use crate::wire::{Form, Wire};
use leptos::prelude::*;

#[cfg(feature = "ssr")]
use super::server::{as_admin, as_member_form, back_to_page};
use super::Refusal;

/// Registers the caller for season `season`.
#[server(input = Form, output = Wire, endpoint = "leagues/register")]
pub async fn register(season: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        store::leagues::register(&services.db, &season, &user).await
    })
    .await
}

/// Takes the caller's registration for season `season` back.
#[server(input = Form, output = Wire, endpoint = "leagues/unregister")]
pub async fn unregister(season: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        store::leagues::unregister(&services.db, &season, user.id).await
    })
    .await
}

/// Makes a league (admins): its `name`, its `ruleset` (`classic`, `alfakraft`, `feud`,
/// `alfapet`, `longwords`) and `dictionary` (`en`, `sv`, …), its first season taking
/// registrations for `days` days.
#[server(input = Form, output = Wire, endpoint = "leagues/create")]
pub async fn create(
    name: String,
    ruleset: String,
    dictionary: String,
    days: String,
) -> Result<Result<(), Refusal>, ServerFnError> {
    let answer = as_admin(async move |services, _| {
        let dictionary = dictionaries::DictionaryId::parse(&dictionary)
            .ok_or_else(|| Refusal::Invalid(format!("there is no dictionary {dictionary:?}")))?;
        let variant = crate::routes::leagues::ruleset_choices(dictionary.language())
            .into_iter()
            .find(|(key, _)| *key == ruleset)
            .map(|(_, variant)| variant)
            .ok_or_else(|| Refusal::Invalid(format!("there is no ruleset {ruleset:?}")))?;
        let days = days
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|d| (1..=30).contains(d))
            .ok_or_else(|| Refusal::Invalid("registration lasts 1 to 30 days".into()))?;
        let starts_at = store::db::now_ms() + days * 86_400_000;
        store::leagues::create(&services.db, &name, variant, dictionary, starts_at).await?;
        Ok(())
    })
    .await?;
    back_to_page(&answer);
    Ok(answer)
}
