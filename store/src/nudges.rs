//! Nudges: a player waiting over a day in a Casual game between people may remind the player to
//! move, once a day in each game, by push (if they keep turn notices on) and by mail (if they
//! asked for deadline mail). Not a player on vacation: their clock is paused.

use domain::{Notice, OpponentKind, Refusal};
use rules::game::Format;

use crate::{
    db::{now_ms, Database},
    games, mail, push,
    rows::Json,
    vacations::{self, DAY_MS},
    StoreError,
};

/// When `user` may nudge in a game, as its page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nudging {
    /// Not in this game now: not their opponent's Casual turn, or the opponent is a bot or on
    /// vacation.
    Never,
    /// From then on, unix ms (now or earlier: at once).
    From(i64),
}

/// The game as a nudge needs it.
#[derive(sqlx::FromRow)]
struct Waiting {
    config: Json<rules::GameConfig>,
    status: String,
    opponent: String,
    updated_at: i64,
    nudged_at: Option<i64>,
    /// The player to move, if a person.
    to_move_user: Option<i64>,
    /// Whether `user` holds a seat.
    seated: i64,
}

async fn waiting(db: &Database, game: &str, user: i64) -> Result<Option<Waiting>, sqlx::Error> {
    sqlx::query_as(
        "SELECT g.config, g.status, g.opponent, g.updated_at, g.nudged_at,
                (SELECT s.user_id FROM game_seats s WHERE s.game_id = g.id AND s.seat = g.to_move)
                    AS to_move_user,
                (SELECT COUNT(*) FROM game_seats s WHERE s.game_id = g.id AND s.user_id = $2)
                    AS seated
         FROM games g WHERE g.id = $1",
    )
    .bind(game)
    .bind(user)
    .fetch_optional(&db.pool)
    .await
}

impl Waiting {
    /// When `user` may nudge, leaving vacations aside.
    fn nudging(&self, user: i64) -> Nudging {
        let between_people =
            OpponentKind::parse(&self.opponent).is_some_and(|opponent| opponent.between_people());
        match self.to_move_user {
            Some(other)
                if other != user
                    && self.seated > 0
                    && between_people
                    && self.status == "playing"
                    && self.config.0.format == Format::Casual =>
            {
                let waited = self.updated_at + DAY_MS;
                Nudging::From(self.nudged_at.map_or(waited, |at| waited.max(at + DAY_MS)))
            }
            _ => Nudging::Never,
        }
    }
}

/// When `user` may nudge in `game`.
pub async fn nudging(db: &Database, game: &str, user: i64) -> Result<Nudging, sqlx::Error> {
    Ok(nudging_whom(db, game, user).await?.0)
}

/// [`nudging`], with the player to move when they are a person.
async fn nudging_whom(
    db: &Database,
    game: &str,
    user: i64,
) -> Result<(Nudging, Option<i64>), sqlx::Error> {
    let Some(waiting) = waiting(db, game, user).await? else {
        return Ok((Nudging::Never, None));
    };
    let nudging = waiting.nudging(user);
    let other = waiting.to_move_user;
    match (nudging, other) {
        (Nudging::From(_), Some(other))
            if vacations::until_of(db, &[other])
                .await?
                .contains_key(&other) =>
        {
            Ok((Nudging::Never, Some(other)))
        }
        _ => Ok((nudging, other)),
    }
}

/// The player nudged, as the letter to them needs it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Nudged {
    /// Who nudged.
    pub nudger: String,
    /// Their verified address, if they asked for deadline mail.
    pub email: Option<String>,
    /// The language they chose, if any.
    pub language: Option<String>,
}

/// `user` nudges the player to move in `game`: a push notice, and the mail `letter` writes (a
/// subject and a body, in the nudged player's language) if they asked for deadline mail.
/// Refused when a nudge is not `user`'s to send now.
pub async fn nudge(
    db: &Database,
    game: &str,
    user: i64,
    letter: impl FnOnce(&Nudged) -> (String, String),
) -> Result<(), StoreError> {
    let now = now_ms();
    let other = match nudging_whom(db, game, user).await? {
        (Nudging::From(from), other) if from <= now => other,
        (Nudging::From(_), _) => {
            return Err(Refusal::Invalid(
                "a nudge waits until your opponent has had a day, and then one a day".into(),
            )
            .into())
        }
        (Nudging::Never, _) => None,
    };
    let Some(other) = other else {
        return Err(Refusal::Invalid("there is no one to nudge in this game".into()).into());
    };
    let (_writer, mut tx) = db.begin_write().await?;
    let claimed = sqlx::query(
        "UPDATE games SET nudged_at = $2 WHERE id = $1 AND status = 'playing'
         AND updated_at <= $2 - $3 AND (nudged_at IS NULL OR nudged_at <= $2 - $3)",
    )
    .bind(game)
    .bind(now)
    .bind(DAY_MS)
    .execute(&mut *tx)
    .await?;
    if claimed.rows_affected() != 1 {
        return Err(
            Refusal::Invalid("this game was nudged or moved on a moment ago".into()).into(),
        );
    }
    let nudged: Nudged = sqlx::query_as(
        "SELECT f.name AS nudger, CASE WHEN u.mail_deadlines = 1 THEN u.email END AS email,
                u.language
         FROM users u, users f WHERE u.id = $1 AND f.id = $2",
    )
    .bind(other)
    .bind(user)
    .fetch_one(&mut *tx)
    .await?;
    if let Some(email) = &nudged.email {
        let (subject, body) = letter(&nudged);
        mail::outbox::enqueue(&mut tx, email, &subject, &body).await?;
    }
    tx.commit().await?;
    let notice = Notice::Nudge {
        game: game.to_string(),
        from: nudged.nudger,
    };
    push::notify_later(db, other, notice);
    games::tell_players(db, game).await;
    Ok(())
}
