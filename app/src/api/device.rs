//! Games played on the player's device against a bot, sent to their account once over, so their
//! history, analysis, GCG and results keep working as for a game played on the server.

use crate::wire::Wire;
use leptos::{prelude::*, server_fn::codec::Json};

use super::Refusal;
pub use domain::{DeviceGame, DEVICE_GAME_ACTIONS};

/// Keeps a finished device game in the caller's account (a signed-up player's: a guest has no
/// account to keep it in) once its moves replay under the rules; the stored game's id. Sending
/// the same game again answers the same id.
#[server(input = Json, output = Wire, endpoint = "games/device")]
pub async fn record_device_game(
    game: DeviceGame,
) -> Result<Result<String, Refusal>, ServerFnError> {
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
