//! `/u/<name>`: a player's public record, rendered on the server (readable without JavaScript):
//! rank per dictionary with its history drawn as an SVG, counts, win rate by ruleset, best play,
//! the last 20 finished games, and the viewer's record against the player.

use leptos::prelude::*;

use super::plain::{self, utc};
use crate::{i18n::Texts, tr};
use domain::{profile_path, HeadToHead};
use store::profiles::{Opponent, Profile, RankLine};

/// A ruleset's name by the key the results keep.
pub(super) fn ruleset_title(texts: Texts, key: &str) -> &'static str {
    match key {
        "alfakraft" => tr!(texts, ruleset.alfa_kraft),
        "classic" => tr!(texts, ruleset.classic),
        "feud" => tr!(texts, ruleset.feud),
        "alfapet" => tr!(texts, ruleset.alfapet_plain),
        "longwords" => tr!(texts, ruleset.long_words),
        "daily" => tr!(texts, ruleset.daily),
        _ => tr!(texts, ruleset.other),
    }
}

/// Who is looking, for the top bar and the head-to-head line.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// Their name, when signed in.
    pub name: Option<String>,
    /// An admin.
    pub admin: bool,
    /// Their record against the profile's player (not on their own profile).
    pub head_to_head: Option<HeadToHead>,
    /// The language they read.
    pub texts: crate::i18n::Texts,
    /// Where they stand with the player, when signed up and not on their own profile.
    pub relation: Option<Relation>,
    /// What became of their last form on this page (`?said=`).
    pub said: Option<String>,
}

/// Where the viewer stands with the profile's player.
#[derive(Debug, Clone, Copy, Default)]
pub struct Relation {
    /// The viewer follows them.
    pub follows: bool,
    /// The viewer blocked them.
    pub blocks: bool,
}

/// Follow or unfollow, block or unblock, and report: plain forms to the server functions, which
/// send the browser back here.
fn social(texts: Texts, name: &str, relation: Relation) -> impl IntoView {
    let form = |action: &'static str, label: &'static str, testid: &'static str| {
        view! {
            <form method="post" action=action class="inline">
                <input type="hidden" name="name" value=name.to_string() />
                <button type="submit" data-testid=testid>{label}</button>
            </form>
        }
    };
    view! {
        <section class="card social" aria-label=tr!(texts, friends.title)>
            {match relation.follows {
                true => form("/api/friends/unfollow", tr!(texts, friends.unfollow), "unfollow"),
                false => form("/api/friends/follow", tr!(texts, friends.follow), "follow"),
            }}
            {match relation.blocks {
                true => form("/api/blocks/unblock", tr!(texts, friends.unblock), "unblock"),
                false => form("/api/blocks/block", tr!(texts, friends.block), "block"),
            }}
            {relation.blocks.then(|| view! { <p class="hint" data-testid="unblock-note">{tr!(texts, friends.unblock_note)}</p> })}
            <details>
                <summary>{tr!(texts, friends.report)}</summary>
                <form method="post" action="/api/moderation/report" class="form">
                    <input type="hidden" name="name" value=name.to_string() />
                    <label>{tr!(texts, chat.report_reason)}
                        <input name="reason" required maxlength="500" data-testid="report-reason" />
                    </label>
                    <button type="submit" data-testid="report-player">{tr!(texts, chat.send_report)}</button>
                </form>
            </details>
        </section>
    }
}

/// A rank history as a line chart: one point per rated game, the rank after it, against the
/// starting rank.
pub fn chart(texts: Texts, points: &[i32]) -> String {
    let low = points.iter().copied().min().unwrap_or(1200).min(1200) - 10;
    let high = points.iter().copied().max().unwrap_or(1200).max(1200) + 10;
    let label = tr!(texts, profile.chart, low, high);
    line_chart(points, (low, high), Some(1200), &label, "rank-chart")
}

/// A line chart of `points`, evenly spaced, between `low` and `high`, with a dashed line at
/// `baseline`; `label` is what a screen reader says of it.
pub fn line_chart(
    points: &[i32],
    (low, high): (i32, i32),
    baseline: Option<i32>,
    label: &str,
    testid: &str,
) -> String {
    const WIDTH: f64 = 320.0;
    const HEIGHT: f64 = 100.0;
    const PAD: f64 = 8.0;
    let x = |i: usize| {
        if points.len() < 2 {
            WIDTH / 2.0
        } else {
            PAD + (WIDTH - 2.0 * PAD) * i as f64 / (points.len() - 1) as f64
        }
    };
    let span = f64::from((high - low).max(1));
    let y = |value: i32| PAD + (HEIGHT - 2.0 * PAD) * f64::from(high - value) / span;
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
    let base = baseline.map_or_else(String::new, |b| {
        format!(
            "<line class=\"start\" x1=\"0\" x2=\"{WIDTH}\" y1=\"{s:.1}\" y2=\"{s:.1}\"></line>",
            s = y(b)
        )
    });
    format!(
        "<svg class=\"rank-chart\" data-testid=\"{testid}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         role=\"img\" aria-label=\"{label}\">{base}\
         <polyline points=\"{}\"></polyline>{dots}\
         <text x=\"2\" y=\"10\">{high}</text><text x=\"2\" y=\"{HEIGHT}\">{low}</text></svg>",
        line.join(" "),
        label = label.replace('"', "&quot;"),
    )
}

fn rank_row(texts: Texts, line: RankLine) -> impl IntoView {
    let svg = chart(texts, &line.points);
    let games = line.games;
    let games = tr!(texts, profile.rated_games, games);
    view! {
        <div class="rank-line" data-testid=format!("rank-{}", line.dictionary.as_str())>
            <h3>{crate::i18n::dictionary_name(texts, line.dictionary)}" "<span class="rank-now">{line.rank.to_string()}</span></h3>
            <p class="muted">{games}</p>
            <div class="chart" inner_html=svg></div>
        </div>
    }
}

fn percent(texts: Texts, part: u32, whole: u32) -> String {
    (100 * part + whole / 2)
        .checked_div(whole)
        .map_or_else(|| "—".into(), |value| tr!(texts, number.percent, value))
}

fn result_word(texts: Texts, result: &str) -> &'static str {
    match result {
        "win" => tr!(texts, profile.won),
        "draw" => tr!(texts, profile.drawn),
        _ => tr!(texts, profile.lost),
    }
}

/// The page.
pub fn page(profile: Profile, viewer: Viewer) -> String {
    let texts = viewer.texts;
    let title = profile.name.clone();
    let totals = profile.totals.clone();
    let average = if totals.played == 0 {
        "—".to_string()
    } else {
        (totals.points / i64::from(totals.played)).to_string()
    };
    let name = profile.name.clone();
    let head_to_head = viewer.head_to_head.map(|record| {
        view! { <p class="lead" data-testid="profile-head-to-head">{tr!(texts, profile.head_to_head, name, record = tr!(texts, summary.record, wins = record.wins, draws = record.draws, losses = record.losses))}</p> }
    });
    let said = viewer
        .said
        .map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> });
    let social_forms = viewer
        .relation
        .filter(|_| !profile.guest)
        .map(|relation| social(texts, &profile.name, relation));
    let main = view! {
        <main class="page profile">
            <h1 data-testid="profile-name">{profile.name.clone()}
                {profile.guest.then(|| view! { " " <small class="muted">{tr!(texts, profile.guest)}</small> })}</h1>
            <p class="muted">{tr!(texts, profile.since, day = &utc(profile.joined)[..10])}</p>
            {said}
            {head_to_head}
            {social_forms}
            <section class="card" aria-labelledby="ranks-title">
                <h2 id="ranks-title">{tr!(texts, profile.rank)}</h2>
                {if profile.ranks.is_empty() {
                    view! { <p class="muted" data-testid="no-rank">{tr!(texts, profile.no_rank)}</p> }.into_any()
                } else {
                    view! {
                        <div class="rank-lines">{profile.ranks.into_iter().map(|line| rank_row(texts, line)).collect_view()}</div>
                        <p class="muted">{tr!(texts, profile.provisional)}</p>
                    }.into_any()
                }}
            </section>
            <section class="card" aria-labelledby="numbers-title">
                <h2 id="numbers-title">{tr!(texts, profile.numbers)}</h2>
                <dl class="facts" data-testid="profile-numbers">
                    <dt>{tr!(texts, profile.games)}</dt><dd data-testid="games-played">{totals.played}</dd>
                    <dt>{tr!(texts, profile.won_drawn_lost)}</dt><dd>{format!("{} · {} · {}", totals.won, totals.drawn, totals.lost)}</dd>
                    <dt>{tr!(texts, profile.win_rate)}</dt><dd>{percent(texts, totals.won, totals.played)}</dd>
                    <dt>{tr!(texts, profile.highest)}</dt><dd>{totals.highest}</dd>
                    <dt>{tr!(texts, profile.average)}</dt><dd>{average}</dd>
                    <dt>{tr!(texts, profile.bingos)}</dt><dd>{totals.bingos}</dd>
                    <dt>{tr!(texts, profile.streak)}</dt><dd data-testid="daily-streak">{tr!(
                        texts, profile.streak_value, current = crate::i18n::days(texts, profile.daily_streak.current), best = crate::i18n::days(texts, profile.daily_streak.best)
                    )}</dd>
                    <dt>{tr!(texts, profile.best_play)}</dt><dd>{match profile.best {
                        Some(best) => view! {
                            <a href=format!("/game/{}/turn/{}", best.game_id, best.turn + 1) data-testid="best-play">
                                {tr!(texts, profile.word_for, word = best.word, score = best.score)}
                            </a>
                        }.into_any(),
                        None => "—".into_any(),
                    }}</dd>
                </dl>
                {(!profile.rulesets.is_empty()).then(|| view! {
                    <p><a href=format!("{}/statistics", profile_path(&profile.name)) data-testid="statistics-link">{tr!(texts, statistics.link)}</a></p>
                    <table class="by-ruleset">
                        <thead><tr><th>{tr!(texts, profile.ruleset)}</th><th>{tr!(texts, profile.games)}</th><th>{tr!(texts, profile.win_rate)}</th></tr></thead>
                        <tbody>{profile.rulesets.into_iter().map(|r| view! {
                            <tr><th scope="row">{ruleset_title(texts, &r.ruleset)}</th><td>{r.played}</td><td>{percent(texts, r.won, r.played)}</td></tr>
                        }).collect_view()}</tbody>
                    </table>
                })}
            </section>
            <section class="card" aria-labelledby="recent-title">
                <h2 id="recent-title">{tr!(texts, profile.last_games)}</h2>
                {if profile.recent.is_empty() {
                    view! { <p class="muted">{tr!(texts, profile.no_games)}</p> }.into_any()
                } else {
                    view! {
                        <div class="table-scroll"><table class="recent" data-testid="recent-games">
                            <thead><tr><th>{tr!(texts, profile.ended)}</th><th>{tr!(texts, profile.against)}</th><th class="game">{tr!(texts, profile.game)}</th><th>{tr!(texts, profile.score)}</th><th>{tr!(texts, profile.result)}</th><th>{tr!(texts, profile.rank)}</th></tr></thead>
                            <tbody>{profile.recent.into_iter().map(|g| { let game = format!("{} · {}", ruleset_title(texts, &g.ruleset), g.dictionary); view! {
                                <tr data-game=g.game_id.clone()>
                                    <td>{utc(g.ended_at)[..10].to_string()}</td>
                                    <td>{match g.opponent {
                                        Opponent::Player(name) => { let href = profile_path(&name); view! { <a href=href>{name}</a> }.into_any() }
                                        Opponent::Bot(level) => tr!(texts, profile.bot, level = crate::i18n::bot_level(texts, &level)).into_any(),
                                        Opponent::Deleted => tr!(texts, player.deleted).into_any(),
                                        Opponent::Unknown => "—".into_any(),
                                    }}
                                    // On a phone the game goes under the opponent, so the result and rank fit.
                                    <small class="game-under">{game.clone()}</small></td>
                                    <td class="game">{game}</td>
                                    <td>{format!("{}–{}", g.score, g.opponent_score)}</td>
                                    <td>{result_word(texts, &g.result)}</td>
                                    <td class="rank-change">{g.rank_change.map(|c| format!("{c:+}")).unwrap_or_default()}</td>
                                </tr>
                            }}).collect_view()}</tbody>
                        </table></div>
                    }.into_any()
                }}
            </section>
        </main>
    };
    plain::document(texts, &title, viewer.name.as_deref(), viewer.admin, main)
}
