//! Friends: following and unfollowing players, the Friends page's lists (the people one
//! follows with who is online and their rank, recent opponents), and answering a challenge.
//! A challenge itself is made by `games/create` with [`super::Opponent::Friend`].
//!
//! These take forms, so the pages without scripts (a profile, `/friends`) post to them directly;
//! such a post is sent back to its page (`super::server::as_member_form`).

use dictionaries::DictionaryId;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::{GameCard, Refusal, ShownRank};
use crate::wire::{Form, Wire};

/// A player on the Friends page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FriendCard {
    pub name: String,
    /// Whether they have a live page open now.
    pub online: bool,
    /// Whether the caller follows them.
    pub followed: bool,
    /// Their rank in the caller's dictionary ([`FriendsPage::dictionary`]).
    pub rank: ShownRank,
}

/// A challenge waiting for the caller's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeCard {
    /// Who challenges.
    pub from: String,
    /// The game offered, as the games list shows it.
    pub game: GameCard,
}

/// The Friends page and panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FriendsPage {
    /// The dictionary the ranks are in: the one the caller has played most rated games in.
    pub dictionary: DictionaryId,
    /// The people the caller follows, online ones first.
    pub following: Vec<FriendCard>,
    /// The people the caller played lately.
    pub recent: Vec<FriendCard>,
    /// Challenges waiting for the caller's answer.
    pub challenges: Vec<ChallengeCard>,
}

/// Follows the player called `name`.
#[server(input = Form, output = Wire, endpoint = "friends/follow")]
pub async fn follow(name: String) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async |services, user| {
        store::friends::follow(&services.db, &user, &name).await
    })
    .await
}

/// Stops following the player called `name`.
#[server(input = Form, output = Wire, endpoint = "friends/unfollow")]
pub async fn unfollow(name: String) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async |services, user| {
        store::friends::unfollow(&services.db, &user, &name).await
    })
    .await
}

/// The caller's friends, recent opponents and waiting challenges.
#[server(input = Form, output = Wire, endpoint = "friends/list")]
pub async fn friends() -> Result<Result<FriendsPage, Refusal>, ServerFnError> {
    super::server::as_member(async |services, user| server::friends(&services, user.id).await).await
}

/// Accepts (the game starts; answers its id) or declines a challenge.
#[server(input = Form, output = Wire, endpoint = "friends/answer")]
pub async fn answer_challenge(
    game: String,
    accept: bool,
) -> Result<Result<String, Refusal>, ServerFnError> {
    super::server::as_member_form(async |services, user| {
        store::seating::answer_challenge(&services.db, &user, &game, accept).await?;
        Ok(game)
    })
    .await
}

#[cfg(feature = "ssr")]
pub mod server {
    use dictionaries::DictionaryId;
    use domain::GameSummary;
    use rules::GameState;
    use store::{friends, ranks, Services, StoreError};

    use super::{ChallengeCard, FriendCard, FriendsPage};
    use crate::api::play::server as cards;

    /// The dictionary `user` played most rated games in (English before any).
    pub async fn main_dictionary(
        services: &Services,
        user: i64,
    ) -> Result<DictionaryId, StoreError> {
        let ranks = ranks::of(&services.db, user).await?;
        Ok(ranks
            .iter()
            .max_by_key(|r| r.games)
            .map_or(DictionaryId::English, |r| r.dictionary))
    }

    /// What the FriendsPage page shows `user`.
    pub async fn friends(services: &Services, user: i64) -> Result<FriendsPage, StoreError> {
        let db = &services.db;
        let dictionary = main_dictionary(services, user).await?;
        let (following, ranks) = friends::following(db, user).await?;
        let recent = friends::recent_opponents(db, user).await?;
        let recent_ranks =
            ranks::of_players(db, &recent.iter().map(|f| f.id).collect::<Vec<_>>()).await?;
        let card = |f: friends::Friend, ranks: &ranks::Ranks| FriendCard {
            rank: ranks.of(f.id, dictionary),
            name: f.name,
            online: f.online,
            followed: f.followed,
        };
        let mut challenges = Vec::new();
        for challenge in friends::challenges(db, user).await? {
            let seats = store::seating::seats(db, &challenge.game.id).await?;
            // A challenge waits for its answer: no move yet, nothing to read but the config.
            let summary = GameSummary::of(&GameState::new(challenge.game.config.clone()));
            let people = store::seating::people(&seats);
            let ranks = ranks::of_players(db, &people).await?;
            let online = store::presence::online_among(db, &people).await?;
            challenges.push(ChallengeCard {
                from: challenge.from.1,
                game: cards::card(&challenge.game, &seats, summary, user, &online, &ranks),
            });
        }
        Ok(FriendsPage {
            dictionary,
            following: following.into_iter().map(|f| card(f, &ranks)).collect(),
            recent: recent.into_iter().map(|f| card(f, &recent_ranks)).collect(),
            challenges,
        })
    }
}
