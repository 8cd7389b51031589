//! The Daily Challenge: today's state per dictionary for the start page, and starting (or
//! resuming) an attempt. The attempt itself is played through the game functions like any game.

use crate::wire::Wire;
use dictionaries::DictionaryId;
use leptos::{prelude::*, server_fn::codec::Json};

use super::{DailyHome, Refusal};

/// Today's Daily Challenges and the caller's state and streak in them (a visitor has none).
#[server(input = Json, output = Wire, endpoint = "daily/today")]
pub async fn daily_today() -> Result<DailyHome, ServerFnError> {
    use super::server::{current_user, failed, services, session};
    use store::daily;
    let services = services()?;
    let user = current_user(&services, &session().await?).await?;
    let today = daily::today();
    let user_id = user.as_ref().map(|u| u.id);
    let cards = daily::cards(&services.db, user_id, today)
        .await
        .map_err(failed)?;
    let streak = match user_id {
        Some(id) => daily::streak(&services.db, id, today)
            .await
            .map_err(failed)?,
        None => Default::default(),
    };
    Ok(DailyHome {
        day: today.to_string(),
        cards,
        streak,
    })
}

/// Starts today's puzzle in `dictionary`, or resumes the caller's attempt; answers its game id.
/// A visitor becomes a guest and plays at once; signing up later keeps the attempt.
#[server(input = Json, output = Wire, endpoint = "daily/start")]
pub async fn start_daily(
    dictionary: DictionaryId,
) -> Result<Result<String, Refusal>, ServerFnError> {
    use super::server::{answer, services, user_or_guest};
    use store::daily;
    let services = services()?;
    let user = match user_or_guest(&services).await? {
        Ok(user) => user,
        Err(refusal) => return Ok(Err(refusal)),
    };
    answer(daily::start(&services.db, &user, dictionary, daily::today()).await)
}
