//! Moderation: a player reports a player or a message; an admin works the queue in the panel
//! (`/admin/moderation`, server-rendered, posting to `server/src/moderation.rs`, which calls
//! [`ops`]).

use leptos::prelude::*;

use super::Refusal;
use crate::wire::{Form, Wire};

/// Reports the player called `name`, or (with `message`) one of their chat messages, for
/// `reason`.
#[server(input = Form, output = Wire, endpoint = "moderation/report")]
pub async fn report_player(
    name: String,
    #[server(default)] message: Option<i64>,
    reason: String,
) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async |services, user| {
        store::moderation::report(&services.db, &user, &name, message, &reason).await
    })
    .await
}

/// What the moderation panel does, for a caller already known to be an admin.
#[cfg(feature = "ssr")]
pub mod ops {
    use store::{
        accounts::User,
        moderation::{self, ModerationAction, SanctionKind, Verdict},
        Services, StoreError,
    };

    /// How long a sanction lasts, as the panel's form says it.
    pub fn until(kind: SanctionKind, amount: &str) -> Result<Option<i64>, StoreError> {
        if amount.trim() == "forever" {
            return Ok(None);
        }
        let unit = match kind {
            SanctionKind::Mute => 3_600_000,
            SanctionKind::Suspend => 24 * 3_600_000,
        };
        let n: i64 = amount
            .trim()
            .parse()
            .ok()
            .filter(|n| (1..=3650).contains(n))
            .ok_or_else(|| domain::Refusal::Invalid(format!("{amount:?} is not a duration")))?;
        Ok(Some(store::db::now_ms() + n * unit))
    }

    /// Decides about the player `user` (closing `report`, when given): `action` is a dismissal,
    /// a mute or a suspension, `amount` hours (a mute) or days (a suspension), or `forever`.
    pub async fn decide(
        services: &Services,
        admin: &User,
        user: i64,
        report: Option<i64>,
        action: ModerationAction,
        amount: &str,
        reason: &str,
    ) -> Result<(), StoreError> {
        let verdict = match action {
            ModerationAction::Dismiss => Verdict::Dismiss,
            ModerationAction::Mute => {
                Verdict::Sanction(SanctionKind::Mute, until(SanctionKind::Mute, amount)?)
            }
            ModerationAction::Suspend => {
                Verdict::Sanction(SanctionKind::Suspend, until(SanctionKind::Suspend, amount)?)
            }
            ModerationAction::Lift => {
                let refusal = domain::Refusal::Invalid("a sanction is lifted on its own".into());
                return Err(refusal.into());
            }
        };
        moderation::decide(&services.db, admin, user, report, verdict, reason).await
    }
}
