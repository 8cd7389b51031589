//! Blocking a player and lifting the block (from their profile, or from the settings page).
//! Forms, answered to pages without scripts by going back to them.

use leptos::prelude::*;

use super::Refusal;
use crate::wire::{Form, Wire};

/// Blocks the player called `name`: they can no longer challenge, invite, follow or write to the
/// caller, nor see or join the caller's lobby games. They are not told.
#[server(input = Form, output = Wire, endpoint = "blocks/block")]
pub async fn block(name: String) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async |services, user| {
        store::blocks::block(&services.db, &user, &name)
            .await
            .map(|_| ())
    })
    .await
}

/// Lifts the caller's block of the player called `name`.
#[server(input = Form, output = Wire, endpoint = "blocks/unblock")]
pub async fn unblock(name: String) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async |services, user| {
        store::blocks::unblock(&services.db, &user, &name).await
    })
    .await
}
