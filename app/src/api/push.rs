//! Web Push: the server's public key a device subscribes with, a device's subscription kept or
//! dropped, and the kinds of notification and quiet hours a player chooses.

use crate::wire::{Form, Wire};
use leptos::{prelude::*, server_fn::codec::Json};

#[cfg(feature = "ssr")]
use super::server::{as_member, as_member_form, services};
use super::Refusal;

/// The server's VAPID public key (base64url), the `applicationServerKey` of a subscription.
#[server(input = Json, output = Wire, endpoint = "push/key")]
pub async fn push_key() -> Result<Result<String, Refusal>, ServerFnError> {
    Ok(services()?.push_key.ok_or_else(|| {
        Refusal::Invalid("push notifications are not running on this server".into())
    }))
}

/// Keeps this device's subscription (from `PushManager.subscribe`) for the caller.
#[server(input = Json, output = Wire, endpoint = "push/subscribe")]
pub async fn subscribe(
    endpoint: String,
    p256dh: String,
    auth: String,
) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member(async move |services, user| {
        let extra = &services.push_test_origins;
        store::push::subscribe(&services.db, user.id, &endpoint, &p256dh, &auth, extra).await
    })
    .await
}

/// Forgets this device's subscription.
#[server(input = Json, output = Wire, endpoint = "push/unsubscribe")]
pub async fn unsubscribe(endpoint: String) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member(async move |services, user| {
        store::push::unsubscribe(&services.db, user.id, &endpoint).await
    })
    .await
}

/// Chooses the kinds of notification (a form's ticked checkboxes, named by
/// [`domain::PushKind::word`]) and the quiet hours: whole hours of the player's day, `quiet_from`
/// to `quiet_to` (both empty for none), which `offset` (minutes the player's clock is behind UTC,
/// as `Date.getTimezoneOffset` says) turns into UTC.
#[server(input = Form, output = Wire, endpoint = "push/choose")]
#[allow(clippy::too_many_arguments)]
pub async fn choose_push(
    #[server(default)] turn: String,
    #[server(default)] challenge: String,
    #[server(default)] rematch: String,
    #[server(default)] deadline: String,
    #[server(default)] over: String,
    #[server(default)] quiet_from: String,
    #[server(default)] quiet_to: String,
    #[server(default)] offset: String,
) -> Result<Result<(), Refusal>, ServerFnError> {
    use domain::PushKind;
    let ticked = [turn, challenge, rematch, deadline, over];
    let kinds: Vec<PushKind> = PushKind::ALL
        .into_iter()
        .zip(ticked)
        .filter(|(_, value)| !value.is_empty() && value != "false")
        .map(|(kind, _)| kind)
        .collect();
    as_member_form(async move |services, user| {
        let quiet = quiet_hours(&quiet_from, &quiet_to, &offset)?;
        store::push::choose(&services.db, user.id, &kinds, quiet).await
    })
    .await
}

/// Quiet hours from a form's hours of the player's day and their clock's offset.
#[cfg(feature = "ssr")]
fn quiet_hours(
    from: &str,
    to: &str,
    offset: &str,
) -> Result<Option<store::push::Quiet>, store::StoreError> {
    let hour = |text: &str| {
        text.trim()
            .parse::<i64>()
            .ok()
            .filter(|h| (0..24).contains(h))
    };
    let offset = offset
        .trim()
        .parse::<i64>()
        .unwrap_or(0)
        .clamp(-14 * 60, 14 * 60);
    let utc = |h: i64| (h * 60 + offset).rem_euclid(24 * 60);
    match (from.trim(), to.trim()) {
        ("", "") => Ok(None),
        _ => match (hour(from), hour(to)) {
            (Some(from), Some(to)) if from != to => Ok(Some(store::push::Quiet {
                start: utc(from),
                end: utc(to),
            })),
            _ => Err(Refusal::Invalid(
                "quiet hours run from one whole hour (0 to 23) to another".into(),
            )
            .into()),
        },
    }
}
