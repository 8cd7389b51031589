//! `/help`: each ruleset in short, Alfa Kraft's powers with their prices, the bonuses, the clocks
//! and how ranks work. Rendered on the server (a page to read, nothing to hydrate); the figures
//! come from the rules crate, so the page cannot drift from the game.

use rules::Variant;

/// The page's section for a ruleset: the game page's "Rules" link goes straight to it.
pub fn anchor(variant: &Variant) -> &'static str {
    match variant {
        Variant::AlfaKraft { .. } => "alfa-kraft",
        Variant::Classic => "classic",
        Variant::Feud { .. } => "feud",
        Variant::Alfapet { .. } => "alfapet",
        Variant::LongWords { .. } => "long-words",
        Variant::Daily { .. } => "daily",
    }
}

#[cfg(feature = "ssr")]
pub use page::page;

#[cfg(feature = "ssr")]
mod page {
    use leptos::prelude::*;
    use rules::{powers::Power, ruleset::RuleSet, Language, Variant};

    use super::super::{game::powers, plain};
    use crate::i18n::{power_name, ruleset_name, Texts};
    use crate::tr;

    /// A bonus table as "5 → +5, 6 → +15": the rules list it highest first.
    fn steps(texts: Texts, table: &[(u8, i32)], last_open: bool) -> String {
        let mut steps: Vec<String> = table
            .iter()
            .rev()
            .map(|(at, bonus)| format!("{at} → +{bonus}"))
            .collect();
        if last_open {
            if let (Some(last), Some((at, bonus))) = (steps.last_mut(), table.first()) {
                *last = tr!(texts, help.or_more, at, bonus);
            }
        }
        steps.join(", ")
    }

    fn section(
        texts: Texts,
        variant: Variant,
        title: String,
        points: Vec<String>,
    ) -> impl IntoView {
        let rules = RuleSet::new(variant);
        let bingo = if rules.bingo_bonus > 0 {
            tr!(texts, help.bingo, bonus = rules.bingo_bonus)
        } else {
            String::new()
        };
        let board = tr!(
            texts,
            help.board,
            size = rules.layout.width,
            tiles = rules.hand_size,
            bingo
        );
        view! {
            <section class="card" id=super::anchor(&variant)>
                <h2>{title}</h2>
                <ul>
                    <li>{board}</li>
                    {points.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
                </ul>
            </section>
        }
    }

    /// The whole page, with the top bar for `viewer`.
    pub fn page(texts: Texts, viewer: Option<&str>, admin: bool) -> String {
        let alfa = RuleSet::new(Variant::AlfaKraft {
            language: Language::English,
        });
        let steps = |table| steps(texts, table, true);
        let (placement, combo) = (steps(alfa.placement_bonus), steps(alfa.combo_bonus));
        let name = |variant| ruleset_name(texts, &variant);
        let feud = Variant::Feud {
            language: Language::English,
            random_board: false,
        };
        let long_words = Variant::LongWords { hard_mode: false };
        let main = view! {
            <main class="page help">
                <h1>{tr!(texts, help.title)}</h1>
                <p>{tr!(texts, help.intro)}</p>
                <nav class="tabs" aria-label=tr!(texts, help.rulesets)>
                    <a href="#alfa-kraft">{tr!(texts, ruleset.alfa_kraft)}</a>
                    <a href="#classic">{tr!(texts, ruleset.classic)}</a>
                    <a href="#feud">{tr!(texts, ruleset.feud)}</a>
                    <a href="#alfapet">"Alfapet"</a>
                    <a href="#long-words">{tr!(texts, ruleset.long_words)}</a>
                    <a href="#daily">{tr!(texts, ruleset.daily)}</a>
                    <a href="#clocks">{tr!(texts, help.clocks)}</a>
                    <a href="#ranks">{tr!(texts, help.ranks)}</a>
                </nav>
                {section(texts, Variant::AlfaKraft { language: Language::English }, tr!(texts, ruleset.alfa_kraft).into(), vec![
                    tr!(texts, help.alfa_1).into(),
                    tr!(texts, help.alfa_placement, steps = placement),
                    tr!(texts, help.alfa_combo, steps = combo),
                    tr!(texts, help.alfa_earned).into(),
                    tr!(texts, help.alfa_coins).into(),
                    tr!(texts, help.alfa_end).into(),
                ])}
                <section class="card" id="powers">
                    <h2>{tr!(texts, help.powers_title)}</h2>
                    <table>
                        <thead><tr><th>{tr!(texts, help.power)}</th><th>{tr!(texts, help.price)}</th><th>{tr!(texts, help.what_it_does)}</th></tr></thead>
                        <tbody>
                            {Power::ALL.into_iter().map(|power| view! {
                                <tr>
                                    <td>{powers::icon(power)}" "{power_name(texts, power)}</td>
                                    <td>{power.price().map_or(tr!(texts, help.earned).to_string(), |price| crate::i18n::coins(texts, price))}</td>
                                    <td>{powers::describe(texts, power)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <p class="muted">{tr!(texts, help.powers_note)}</p>
                </section>
                {section(texts, Variant::Classic, name(Variant::Classic), vec![
                    tr!(texts, help.classic_1).into(),
                    tr!(texts, help.classic_2).into(),
                    tr!(texts, help.classic_3).into(),
                    tr!(texts, help.classic_4).into(),
                ])}
                {section(texts, feud, name(feud), vec![
                    tr!(texts, help.feud_1).into(),
                    tr!(texts, help.feud_2).into(),
                    tr!(texts, help.feud_3).into(),
                ])}
                {section(texts, Variant::Alfapet { hand_size: 7, special_tiles: true }, "Alfapet".into(), vec![
                    tr!(texts, help.alfapet_1).into(),
                    tr!(texts, help.alfapet_2).into(),
                    tr!(texts, help.alfapet_3).into(),
                ])}
                {section(texts, long_words, name(long_words), vec![
                    tr!(texts, help.long_1).into(),
                    tr!(texts, help.long_2).into(),
                    tr!(texts, help.long_3).into(),
                ])}
                <section class="card" id="daily">
                    <h2>{tr!(texts, help.daily_title)}</h2>
                    <p>{tr!(texts, help.daily)}</p>
                </section>
                <section class="card" id="clocks">
                    <h2>{tr!(texts, help.clocks)}</h2>
                    <ul>
                        <li>{tr!(texts, help.casual_clock)}</li>
                        <li>{tr!(texts, help.blitz_clock)}</li>
                    </ul>
                </section>
                <section class="card" id="ranks">
                    <h2>{tr!(texts, help.ranks)}</h2>
                    <p>{tr!(texts, help.ranks_text)}" "<a href="/leaderboard">{tr!(texts, help.leaderboard_link)}</a></p>
                </section>
            </main>
        };
        plain::document(texts, tr!(texts, help.title), viewer, admin, main)
    }
}
