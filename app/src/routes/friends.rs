//! `/friends`, rendered on the server: the people the caller follows (online now or not, their
//! rank, Challenge, Unfollow), the people they played lately (Follow), and a form to follow
//! anyone by name. The forms post to the server functions, which send the browser back here.

use leptos::prelude::*;

use super::plain;
use crate::api::friends::{FriendCard, FriendsPage};
use crate::api::profile_path;
use crate::i18n::Texts;
use crate::tr;

/// One player with the form that changes whether the caller follows them.
fn row(texts: Texts, friend: FriendCard) -> impl IntoView {
    let online = friend.online;
    let (action, label) = match friend.followed {
        true => ("/api/friends/unfollow", tr!(texts, friends.unfollow)),
        false => ("/api/friends/follow", tr!(texts, friends.follow)),
    };
    let presence = if online {
        tr!(texts, game.online)
    } else {
        tr!(texts, game.away)
    };
    view! {
        <li class="friend" data-friend=friend.name.clone() data-online=online.to_string()>
            <span role="img" class=if online { "presence online" } else { "presence" } aria-label=presence title=presence></span>
            " "<a href=profile_path(&friend.name)>{friend.name.clone()}</a>
            " "<span class="muted">{format!("({})", friend.rank)}</span>
            " "<a class="button small" data-testid="challenge" href=format!("/?friend={}#new-game-title", friend.name)>{tr!(texts, friends.challenge)}</a>
            <form method="post" action=action class="inline">
                <input type="hidden" name="name" value=friend.name.clone() />
                <button type="submit" class="small">{label}</button>
            </form>
        </li>
    }
}

/// The page for `viewer`.
pub fn page(
    texts: Texts,
    viewer: &str,
    admin: bool,
    friends: FriendsPage,
    said: Option<String>,
) -> String {
    let dictionary = crate::i18n::dictionary_name(texts, friends.dictionary);
    let main = view! {
        <main class="page friends" data-testid="friends">
            <h1>{tr!(texts, friends.title)}</h1>
            {said.map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            <p class="muted">{tr!(texts, friends.ranks_in, dictionary)}</p>
            <section class="card" aria-labelledby="following-title">
                <h2 id="following-title">{tr!(texts, friends.following)}</h2>
                {if friends.following.is_empty() {
                    view! { <p class="muted">{tr!(texts, friends.none_yet)}</p> }.into_any()
                } else {
                    view! { <ul class="friend-list" data-testid="following">{friends.following.into_iter().map(|f| row(texts, f)).collect_view()}</ul> }.into_any()
                }}
                <form method="post" action="/api/friends/follow" class="form inline">
                    <label>{tr!(texts, friends.follow_by_name)}
                        <input name="name" required maxlength="40" autocomplete="off" data-testid="follow-name" />
                    </label>
                    <button type="submit">{tr!(texts, friends.follow)}</button>
                </form>
            </section>
            <section class="card" aria-labelledby="recent-title">
                <h2 id="recent-title">{tr!(texts, friends.recent)}</h2>
                {if friends.recent.is_empty() {
                    view! { <p class="muted">{tr!(texts, friends.no_recent)}</p> }.into_any()
                } else {
                    view! { <ul class="friend-list" data-testid="recent">{friends.recent.into_iter().map(|f| row(texts, f)).collect_view()}</ul> }.into_any()
                }}
            </section>
            <p><a href="/settings">{tr!(texts, settings.title)}</a></p>
        </main>
    };
    plain::document(texts, tr!(texts, friends.title), Some(viewer), admin, main)
}
