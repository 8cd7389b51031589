//! Tournaments' forms: a player enters, checks in or withdraws; an admin makes a public
//! tournament and anyone a private one. The pages (`/tournaments`, `/tournaments/<id>`) are
//! rendered on the server (`routes::tournaments`); these forms post here and are sent back.

use crate::wire::{Form, Wire};
use leptos::prelude::*;

#[cfg(feature = "ssr")]
use super::server::{as_admin, as_member, as_member_form, back_to_page};
use super::Refusal;

/// Enters the caller in `tournament`.
#[server(input = Form, output = Wire, endpoint = "tournaments/enter")]
pub async fn enter(tournament: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        store::tournaments::enter(&services.db, &tournament, &user).await
    })
    .await
}

/// Checks the caller in to `tournament`.
#[server(input = Form, output = Wire, endpoint = "tournaments/check-in")]
pub async fn check_in(tournament: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        store::tournaments::check_in(&services.db, &tournament, user.id).await
    })
    .await
}

/// Withdraws the caller from `tournament`.
#[server(input = Form, output = Wire, endpoint = "tournaments/withdraw")]
pub async fn withdraw(tournament: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        store::tournaments::withdraw(&services.db, &tournament, user.id).await
    })
    .await
}

/// Makes a tournament: its `name`, `ruleset` (`classic`, `alfakraft`, …), `dictionary`,
/// `format` (`blitz`, `casual`), `pairing` (`swiss`, `round_robin`), a Swiss's `rounds`, and
/// its start in `minutes`; `private` when set (always, for anyone but an admin). Answers with
/// its id, and sends a plain form to its page.
// A plain HTML form posts its fields by name: one argument each.
#[allow(clippy::too_many_arguments)]
#[server(input = Form, output = Wire, endpoint = "tournaments/create")]
pub async fn create(
    name: String,
    ruleset: String,
    dictionary: String,
    format: String,
    pairing: String,
    rounds: String,
    minutes: String,
    private: Option<String>,
) -> Result<Result<String, Refusal>, ServerFnError> {
    use store::tournaments::{NewTournament, Pairing};
    let new = (move || -> Result<NewTournament, Refusal> {
        let dictionary = dictionaries::DictionaryId::parse(&dictionary)
            .ok_or_else(|| Refusal::Invalid(format!("there is no dictionary {dictionary:?}")))?;
        let variant = crate::routes::leagues::ruleset_choices(dictionary.language())
            .into_iter()
            .find(|(key, _)| *key == ruleset)
            .map(|(_, variant)| variant)
            .ok_or_else(|| Refusal::Invalid(format!("there is no ruleset {ruleset:?}")))?;
        let format = match format.as_str() {
            "blitz" => rules::game::Format::Blitz,
            "casual" => rules::game::Format::Casual,
            _ => return Err(Refusal::Invalid("the clock is blitz or casual".into())),
        };
        let pairing = match pairing.as_str() {
            "swiss" => Pairing::Swiss,
            "round_robin" => Pairing::RoundRobin,
            _ => return Err(Refusal::Invalid("pairing is swiss or round_robin".into())),
        };
        let number = |text: &str, range: std::ops::RangeInclusive<i64>, what: &str| {
            text.trim()
                .parse::<i64>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(|| Refusal::Invalid(format!("{what} must be a number from {range:?}")))
        };
        let rounds = match pairing {
            Pairing::Swiss => number(&rounds, 1..=store::tournaments::MOST_ROUNDS, "rounds")?,
            Pairing::RoundRobin => 0,
        };
        let minutes = number(&minutes, 1..=43_200, "the start in minutes")?;
        Ok(NewTournament {
            name: name.clone(),
            variant,
            dictionary,
            format,
            pairing,
            rounds,
            private: private.is_some(),
            starts_at: store::db::now_ms() + minutes * 60_000,
        })
    })();
    let public = new.as_ref().is_ok_and(|new| !new.private);
    let make = async move |services: store::Services, user: store::accounts::User| {
        let new = new?;
        store::tournaments::create(&services.db, new, &user).await
    };
    // A public tournament is an admin's (with their second factor); a private one anyone's.
    let answer = if public {
        as_admin(make).await?
    } else {
        as_member(make).await?
    };
    match &answer {
        Ok(id) if crate::wire::accepts("text/html") => {
            leptos_axum::redirect(&format!("/tournaments/{id}"), false)
        }
        _ => back_to_page(&answer),
    }
    Ok(answer)
}
