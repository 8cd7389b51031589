//! `/u/<name>/statistics`: a player's figures per ruleset and dictionary, each beside where the
//! player stands among players near their rank, with the average score month by month.
//! Rendered on the server from public facts only (the results of finished games).

use leptos::prelude::*;

use super::{
    plain,
    profile::{line_chart, Viewer},
};
use crate::{
    i18n::{dictionary_name, tenths, Texts},
    tr,
};
use domain::profile_path;
use store::statistics::{Line, Month, Standing, Totals, PEER_GAMES, RANK_BAND};

/// The page's figures for a player.
pub struct PlayerStatistics {
    pub name: String,
    pub lines: Vec<Line>,
}

/// The page.
pub fn page(statistics: PlayerStatistics, viewer: Viewer) -> String {
    let texts = viewer.texts;
    let title = tr!(texts, statistics.title, name = &statistics.name);
    let profile = profile_path(&statistics.name);
    let main = view! {
        <main class="page statistics">
            <h1>{title.clone()}</h1>
            <p><a href=profile>{tr!(texts, statistics.back, name = &statistics.name)}</a></p>
            {if statistics.lines.is_empty() {
                view! { <p class="muted" data-testid="no-statistics">{tr!(texts, statistics.none)}</p> }.into_any()
            } else {
                statistics.lines.into_iter().map(|line| line_card(texts, line)).collect_view().into_any()
            }}
        </main>
    };
    plain::document(texts, &title, viewer.name.as_deref(), viewer.admin, main)
}

fn line_card(texts: Texts, line: Line) -> impl IntoView {
    let Line {
        totals,
        standing,
        months,
    } = line;
    let heading = format!(
        "{} · {}",
        super::profile::ruleset_title(texts, &totals.ruleset),
        dictionaries::DictionaryId::parse(&totals.dictionary)
            .map_or(totals.dictionary.as_str(), |id| dictionary_name(texts, id))
    );
    let id = format!("stats-{}-{}", totals.ruleset, totals.dictionary);
    let ahead = move |pick: fn(&Standing) -> u8| {
        standing.map(|s| {
            let share = tr!(texts, number.percent, value = pick(&s));
            view! { <small class="percentile">{tr!(texts, statistics.ahead, share)}</small> }
        })
    };
    let losses = totals.games - totals.wins - totals.draws;
    view! {
        <section class="card stat-line" data-testid=id.clone() aria-labelledby=format!("{id}-title")>
            <h2 id=format!("{id}-title")>{heading}</h2>
            <dl class="facts">
                <dt>{tr!(texts, statistics.games)}</dt><dd data-stat="games">{totals.games}</dd>
                <dt>{tr!(texts, statistics.won_drawn_lost)}</dt>
                <dd data-stat="results">{format!("{} · {} · {}", totals.wins, totals.draws, losses)}</dd>
                <dt>{tr!(texts, statistics.win_rate)}</dt>
                <dd data-stat="win-rate">{tr!(texts, number.percent, value = totals.win_rate().round())}{ahead(|s| s.win_rate)}</dd>
                <dt>{tr!(texts, statistics.average_score)}</dt>
                <dd data-stat="average-score">{tenth(texts, totals.average_score())}{ahead(|s| s.average_score)}</dd>
                <dt>{tr!(texts, statistics.average_spread)}</dt>
                <dd data-stat="average-spread">{signed(texts, totals.average_spread())}{ahead(|s| s.average_spread)}</dd>
                <dt>{tr!(texts, statistics.bingos_per_game)}</dt>
                <dd data-stat="bingos">{hundredths(texts, totals.bingos_per_game())}{ahead(|s| s.bingos_per_game)}</dd>
                <dt>{tr!(texts, statistics.missed)}</dt>
                <dd data-stat="missed">{totals.missed_per_turn().map_or_else(|| "—".to_string(), |m| tenth(texts, m))}
                    {standing.and_then(|s| s.missed_per_turn).map(|share| view! {
                        <small class="percentile">{tr!(texts, statistics.ahead, share = tr!(texts, number.percent, value = share))}</small>
                    })}</dd>
                <dt>{tr!(texts, statistics.best_play)}</dt><dd data-stat="best-play">{totals.best_play}</dd>
                <dt>{tr!(texts, statistics.best_game)}</dt><dd data-stat="best-game">{totals.best_game}</dd>
                <dt>{tr!(texts, statistics.exchanges)}</dt><dd data-stat="exchanges">{totals.exchanges}</dd>
                <dt>{tr!(texts, statistics.timeouts)}</dt><dd data-stat="timeouts">{totals.timeouts}</dd>
            </dl>
            <p class="muted" data-testid="compared">{match standing {
                Some(s) => tr!(texts, statistics.compared, players = s.players, band = RANK_BAND, rank = s.rank, games = PEER_GAMES),
                None => tr!(texts, statistics.no_peers).to_string(),
            }}</p>
            {month_chart(texts, &totals, &months)}
        </section>
    }
}

/// The average score month by month, when there are two months or more to draw.
fn month_chart(texts: Texts, totals: &Totals, months: &[Month]) -> Option<impl IntoView> {
    let (first, last) = (months.first()?, months.last()?);
    if months.len() < 2 {
        return None;
    }
    let points: Vec<i32> = months.iter().map(|m| m.average_score).collect();
    let low = points.iter().copied().min().unwrap_or(0) - 10;
    let high = points.iter().copied().max().unwrap_or(0) + 10;
    let label = tr!(texts, statistics.chart, low, high);
    let testid = format!("chart-{}-{}", totals.ruleset, totals.dictionary);
    let svg = line_chart(&points, (low, high), None, &label, &testid);
    Some(view! {
        <h3>{tr!(texts, statistics.by_month)}</h3>
        <div class="chart" inner_html=svg></div>
        <p class="muted chart-span">{format!("{}-{:02} – {}-{:02}", first.year, first.month, last.year, last.month)}</p>
    })
}

fn tenth(texts: Texts, value: f64) -> String {
    tenths(texts, (value * 10.0).round() as i32)
}

fn signed(texts: Texts, value: f64) -> String {
    let shown = tenth(texts, value);
    if value > 0.0 && shown != tenth(texts, 0.0) {
        format!("+{shown}")
    } else {
        shown
    }
}

/// Two decimals, as the language writes them: bingos a game are mostly below one.
fn hundredths(texts: Texts, value: f64) -> String {
    let hundredths = (value * 100.0).round() as i64;
    format!(
        "{}{}{:02}",
        hundredths / 100,
        tr!(texts, number.decimal),
        hundredths % 100
    )
}
