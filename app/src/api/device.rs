//! Games played on the player's device against a bot, sent to their account while they go on
//! (a copy, so the game is not lost with the device and can go on on another) and once over,
//! so their history, analysis, GCG and results keep working as for a game played on the server.

use crate::wire::Wire;
use leptos::{prelude::*, server_fn::codec::Json};
use serde::{Deserialize, Serialize};

use super::Refusal;
pub use domain::{DeviceCopy, DeviceGame, DeviceKept, DEVICE_COPIES, DEVICE_GAME_ACTIONS};

/// A game going on on one of the player's devices, as their account keeps it, with where its
/// dictionary version's words are fetched (what another device needs to go on with it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountCopy {
    pub copy: DeviceCopy,
    pub dictionary_url: String,
}

/// Keeps a device game in the caller's account (a signed-up player's: a guest has no account to
/// keep it in) once its moves replay under the rules: over, as a game of theirs (sending it again
/// answers the same id); going on, as the latest copy.
#[server(input = Json, output = Wire, endpoint = "games/device")]
pub async fn record_device_game(
    game: DeviceGame,
) -> Result<Result<DeviceKept, Refusal>, ServerFnError> {
    super::server::as_member(async |services, user| {
        let lexicon = match services.lexicon(&game.dictionary).await {
            Ok(lexicon) => lexicon,
            // No such version here: the record names what this server never had.
            Err(store::StoreError::Data(_)) => {
                let why = format!("there is no dictionary {}", game.dictionary);
                return Err(Refusal::Invalid(why).into());
            }
            Err(error) => return Err(error),
        };
        store::seating::device::record(&services.db, &user, &game, &*lexicon).await
    })
    .await
}

/// The games going on on the caller's devices, as their account keeps them, newest first.
#[server(output = Wire, endpoint = "games/device/copies")]
pub async fn device_copies() -> Result<Result<Vec<AccountCopy>, Refusal>, ServerFnError> {
    super::server::as_member(async |services, user| {
        let mut copies = Vec::new();
        for copy in store::seating::device::copies(&services.db, &user).await? {
            let dictionary_url = services
                .library
                .named(&copy.game.dictionary)
                .await?
                .url
                .clone();
            copies.push(AccountCopy {
                copy,
                dictionary_url,
            });
        }
        Ok(copies)
    })
    .await
}

/// Forgets the caller's copy of the device game `key` (discarded on the device).
#[server(output = Wire, endpoint = "games/device/discard")]
pub async fn discard_device_game(key: String) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member(async |services, user| {
        store::seating::device::discard(&services.db, &user, &key).await
    })
    .await
}
