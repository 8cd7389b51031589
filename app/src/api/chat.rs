//! A game's chat for its players: reading it (which marks it seen), writing in it, and turning
//! chat off or on for oneself. A new message reaches the players' pages on the game's live
//! stream as a `chat` event, and the page asks for the chat again.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::Refusal;
use crate::wire::{Form, Wire};

/// One message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Its id, to report it.
    pub id: i64,
    /// Its author's name.
    pub name: String,
    /// Whether the reader wrote it.
    pub mine: bool,
    pub text: String,
    /// When, unix ms.
    pub sent_at: i64,
}

/// A game's chat as one of its players sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatView {
    /// Oldest first.
    pub lines: Vec<ChatLine>,
    /// Why the reader cannot write, when they cannot (muted, suspended).
    pub silenced: Option<Refusal>,
    /// The chat is off in this game: `Some(true)` when the reader turned it off, `Some(false)`
    /// when another player did (then it has no lines).
    pub off: Option<bool>,
}

/// Game `game`'s chat (`None`: it has none), marked seen.
#[server(input = Form, output = Wire, endpoint = "chat/read")]
pub async fn chat(game: String) -> Result<Result<Option<ChatView>, Refusal>, ServerFnError> {
    super::server::as_player(async |services, user| server::view(&services, &game, user.id).await)
        .await
}

/// Writes `text` in game `game`'s chat; answers the chat with it.
#[server(input = Form, output = Wire, endpoint = "chat/send")]
pub async fn send_chat(
    game: String,
    text: String,
) -> Result<Result<Option<ChatView>, Refusal>, ServerFnError> {
    super::server::as_player(async |services, user| {
        store::chat::send(&services.db, &game, &user, &text).await?;
        server::view(&services, &game, user.id).await
    })
    .await
}

/// Turns the caller's chat off (`off`) or on again.
#[server(input = Form, output = Wire, endpoint = "chat/setting")]
pub async fn set_chat_off(off: bool) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async |services, user| {
        Ok(store::chat::set_chat_off(&services.db, user.id, off).await?)
    })
    .await
}

#[cfg(feature = "ssr")]
pub mod server {
    use store::{chat, Services, StoreError};

    use super::{ChatLine, ChatView};

    /// Game `game`'s chat as `reader` sees it, marked seen; `None` when it has none.
    pub async fn view(
        services: &Services,
        game: &str,
        reader: i64,
    ) -> Result<Option<ChatView>, StoreError> {
        view_at(
            services,
            &store::seating::table(&services.db, game).await?,
            reader,
        )
        .await
    }

    /// [`view`], from the game's table read already (by the game page).
    pub async fn view_at(
        services: &Services,
        table: &store::seating::Table,
        reader: i64,
    ) -> Result<Option<ChatView>, StoreError> {
        let game = table.game.id.as_str();
        let (lines, silenced) = match chat::room_at(&services.db, table, reader).await? {
            chat::Room::Closed => return Ok(None),
            chat::Room::Off { by_reader } => {
                return Ok(Some(ChatView {
                    lines: Vec::new(),
                    silenced: None,
                    off: Some(by_reader),
                }))
            }
            chat::Room::Open { lines, silenced } => (lines, silenced),
        };
        // A chat with no message has nothing to mark seen.
        if !lines.is_empty() {
            chat::mark_seen(&services.db, game, reader).await?;
        }
        Ok(Some(ChatView {
            lines: lines
                .into_iter()
                .map(|l| ChatLine {
                    id: l.id,
                    mine: l.author == reader,
                    name: l.name,
                    text: l.body,
                    sent_at: l.sent_at,
                })
                .collect(),
            silenced,
            off: None,
        }))
    }
}
