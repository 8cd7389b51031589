//! `/u/<name>`: a player's public record, rendered on the server (readable without JavaScript):
//! rank per dictionary with its history drawn as an SVG, counts, win rate by ruleset, best play,
//! the last 20 finished games, and the viewer's record against the player.

use leptos::prelude::*;

use super::plain::{self, utc};
use crate::{
    domain::{profile_path, HeadToHead, Streak},
    store::{
        profiles::{Opponent, Profile, RankLine},
        results::ruleset_title,
    },
};

/// Who is looking, for the top bar and the head-to-head line.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// Their name, when signed in.
    pub name: Option<String>,
    /// An admin.
    pub admin: bool,
    /// Their record against the profile's player (not on their own profile).
    pub head_to_head: Option<HeadToHead>,
}

/// A rank history as a line chart: one point per rated game, the rank after it.
pub fn chart(points: &[i32]) -> String {
    const WIDTH: f64 = 320.0;
    const HEIGHT: f64 = 100.0;
    const PAD: f64 = 8.0;
    let low = points.iter().copied().min().unwrap_or(1200).min(1200) - 10;
    let high = points.iter().copied().max().unwrap_or(1200).max(1200) + 10;
    let x = |i: usize| {
        if points.len() < 2 {
            WIDTH / 2.0
        } else {
            PAD + (WIDTH - 2.0 * PAD) * i as f64 / (points.len() - 1) as f64
        }
    };
    let y = |rank: i32| PAD + (HEIGHT - 2.0 * PAD) * f64::from(high - rank) / f64::from(high - low);
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{:.1},{:.1}", x(i), y(*r)))
        .collect();
    let dots: String = points
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                "<circle class=\"point\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"><title>{r}</title></circle>",
                x(i),
                y(*r)
            )
        })
        .collect();
    format!(
        "<svg class=\"rank-chart\" data-testid=\"rank-chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         role=\"img\" aria-label=\"Rank after each rated game, from {low} to {high}\">\
         <line class=\"start\" x1=\"0\" x2=\"{WIDTH}\" y1=\"{s:.1}\" y2=\"{s:.1}\"></line>\
         <polyline points=\"{}\"></polyline>{dots}\
         <text x=\"2\" y=\"10\">{high}</text><text x=\"2\" y=\"{HEIGHT}\">{low}</text></svg>",
        line.join(" "),
        s = y(1200),
    )
}

fn rank_row(line: RankLine) -> impl IntoView {
    let svg = chart(&line.points);
    let games = match line.games {
        1 => "1 rated game".to_string(),
        n => format!("{n} rated games"),
    };
    view! {
        <div class="rank-line" data-testid=format!("rank-{}", line.dictionary.as_str())>
            <h3>{line.dictionary.name()}" "<span class="rank-now">{line.rank.to_string()}</span></h3>
            <p class="muted">{games}</p>
            <div class="chart" inner_html=svg></div>
        </div>
    }
}

fn percent(part: u32, whole: u32) -> String {
    (100 * part + whole / 2)
        .checked_div(whole)
        .map_or_else(|| "—".into(), |p| format!("{p}%"))
}

fn result_word(result: &str) -> &'static str {
    match result {
        "win" => "Won",
        "draw" => "Drawn",
        _ => "Lost",
    }
}

/// The page.
pub fn page(profile: Profile, viewer: Viewer) -> String {
    let title = profile.name.clone();
    let totals = profile.totals.clone();
    let average = if totals.played == 0 {
        "—".to_string()
    } else {
        (totals.points / i64::from(totals.played)).to_string()
    };
    let name = profile.name.clone();
    let head_to_head = viewer.head_to_head.map(|record| {
        view! { <p class="lead" data-testid="profile-head-to-head">{format!("You against {name}: {record}")}</p> }
    });
    let main = view! {
        <main class="page profile">
            <h1 data-testid="profile-name">{profile.name.clone()}
                {profile.guest.then(|| view! { " " <small class="muted">"(guest)"</small> })}</h1>
            <p class="muted">{format!("Playing since {}", &utc(profile.joined)[..10])}</p>
            {head_to_head}
            <section class="card" aria-labelledby="ranks-title">
                <h2 id="ranks-title">"Rank"</h2>
                {if profile.ranks.is_empty() {
                    view! { <p class="muted" data-testid="no-rank">"No rated game yet: every dictionary starts at 1200."</p> }.into_any()
                } else {
                    view! {
                        <div class="rank-lines">{profile.ranks.into_iter().map(rank_row).collect_view()}</div>
                        <p class="muted">"A rank with ? rests on fewer than 10 rated games."</p>
                    }.into_any()
                }}
            </section>
            <section class="card" aria-labelledby="numbers-title">
                <h2 id="numbers-title">"Numbers"</h2>
                <dl class="facts" data-testid="profile-numbers">
                    <dt>"Games"</dt><dd data-testid="games-played">{totals.played}</dd>
                    <dt>"Won · drawn · lost"</dt><dd>{format!("{} · {} · {}", totals.won, totals.drawn, totals.lost)}</dd>
                    <dt>"Win rate"</dt><dd>{percent(totals.won, totals.played)}</dd>
                    <dt>"Highest score"</dt><dd>{totals.highest}</dd>
                    <dt>"Average score"</dt><dd>{average}</dd>
                    <dt>"Bingos"</dt><dd>{totals.bingos}</dd>
                    <dt>"Daily Challenge streak"</dt><dd data-testid="daily-streak">{format!(
                        "{} now, {} at best", Streak::days(profile.daily_streak.current), Streak::days(profile.daily_streak.best)
                    )}</dd>
                    <dt>"Best play"</dt><dd>{match profile.best {
                        Some(best) => view! {
                            <a href=format!("/game/{}/turn/{}", best.game_id, best.turn + 1) data-testid="best-play">
                                {format!("{} for {}", best.word, best.score)}
                            </a>
                        }.into_any(),
                        None => "—".into_any(),
                    }}</dd>
                </dl>
                {(!profile.rulesets.is_empty()).then(|| view! {
                    <table class="by-ruleset">
                        <thead><tr><th>"Ruleset"</th><th>"Games"</th><th>"Win rate"</th></tr></thead>
                        <tbody>{profile.rulesets.into_iter().map(|r| view! {
                            <tr><th scope="row">{ruleset_title(&r.ruleset)}</th><td>{r.played}</td><td>{percent(r.won, r.played)}</td></tr>
                        }).collect_view()}</tbody>
                    </table>
                })}
            </section>
            <section class="card" aria-labelledby="recent-title">
                <h2 id="recent-title">"Last games"</h2>
                {if profile.recent.is_empty() {
                    view! { <p class="muted">"No finished game yet."</p> }.into_any()
                } else {
                    view! {
                        <div class="table-scroll"><table class="recent" data-testid="recent-games">
                            <thead><tr><th>"Ended"</th><th>"Against"</th><th>"Game"</th><th>"Score"</th><th>"Result"</th><th>"Rank"</th></tr></thead>
                            <tbody>{profile.recent.into_iter().map(|g| view! {
                                <tr data-game=g.game_id.clone()>
                                    <td>{utc(g.ended_at)[..10].to_string()}</td>
                                    <td>{match g.opponent {
                                        Opponent::Player(name) => { let href = profile_path(&name); view! { <a href=href>{name}</a> }.into_any() }
                                        Opponent::Bot(level) => format!("{level} bot").into_any(),
                                        Opponent::Unknown => "—".into_any(),
                                    }}</td>
                                    <td>{format!("{} · {}", ruleset_title(&g.ruleset), g.dictionary)}</td>
                                    <td>{format!("{}–{}", g.score, g.opponent_score)}</td>
                                    <td>{result_word(&g.result)}</td>
                                    <td class="rank-change">{g.rank_change.map(|c| format!("{c:+}")).unwrap_or_default()}</td>
                                </tr>
                            }).collect_view()}</tbody>
                        </table></div>
                    }.into_any()
                }}
            </section>
        </main>
    };
    plain::document(&title, viewer.name.as_deref(), viewer.admin, main)
}
