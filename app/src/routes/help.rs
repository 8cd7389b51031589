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

    /// A bonus table as "5 → +5, 6 → +15": the rules list it highest first.
    fn steps(table: &[(u8, i32)], last_open: bool) -> String {
        let mut steps: Vec<String> = table
            .iter()
            .rev()
            .map(|(at, bonus)| format!("{at} → +{bonus}"))
            .collect();
        if last_open {
            if let (Some(last), Some((at, bonus))) = (steps.last_mut(), table.first()) {
                *last = format!("{at} or more → +{bonus}");
            }
        }
        steps.join(", ")
    }

    fn section(variant: Variant, title: &'static str, points: Vec<String>) -> impl IntoView {
        let rules = RuleSet::new(variant);
        let bingo = if rules.bingo_bonus > 0 {
            format!("; a whole hand in one play is worth +{}", rules.bingo_bonus)
        } else {
            String::new()
        };
        let board = format!(
            "Board {0}×{0}; {1} tiles a hand{bingo}.",
            rules.layout.width, rules.hand_size
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
    pub fn page(viewer: Option<&str>, admin: bool) -> String {
        let alfa = RuleSet::new(Variant::AlfaKraft {
            language: Language::English,
        });
        let placement = steps(alfa.placement_bonus, true);
        let combo = steps(alfa.combo_bonus, true);
        let main = view! {
            <main class="page help">
                <h1>"How to play"</h1>
                <p>"Every game: place tiles in one line, touching what is on the board (the first word covers the "
                   "start square, ★), and every word they make must be in the game's dictionary. Letter squares "
                   "multiply a tile's value, word squares the whole word's; a square counts only in the turn it is "
                   "covered. After a play the hand is refilled from the bag."</p>
                <nav class="tabs" aria-label="Rulesets">
                    <a href="#alfa-kraft">"Alfa Kraft"</a>
                    <a href="#classic">"Classic"</a>
                    <a href="#feud">"Feud"</a>
                    <a href="#alfapet">"Alfapet"</a>
                    <a href="#long-words">"Long words"</a>
                    <a href="#daily">"Daily Challenge"</a>
                    <a href="#clocks">"Clocks"</a>
                    <a href="#ranks">"Ranks"</a>
                </nav>
                {section(Variant::AlfaKraft { language: Language::English }, "Alfa Kraft", vec![
                    "Two players. Invalid words are refused and you try again. There is no free exchange: the Swap power changes tiles.".into(),
                    format!("Placement bonus, by tiles placed in one turn (powers included): {placement}."),
                    format!("Word combo, by words formed in one turn: {combo}."),
                    "Six tiles or more in one play earn an Alfa Power Tile; four words or more earn a Golden Tile. They go to your power bar (7 places, shared with what you buy).".into(),
                    "Coins: you start with 10 and earn one for every 10 points of a play. Buy and sell powers at any time, also on your opponent's turn; selling refunds the full price. At the end each coin is a point.".into(),
                    "Three passes in a row end the game. Letters left in your hand are taken off your score.".into(),
                ])}
                <section class="card" id="powers">
                    <h2>"Alfa Kraft's powers"</h2>
                    <table>
                        <thead><tr><th>"Power"</th><th>"Price"</th><th>"What it does"</th></tr></thead>
                        <tbody>
                            {Power::ALL.into_iter().map(|power| view! {
                                <tr>
                                    <td>{powers::icon(power)}" "{power.name()}</td>
                                    <td>{power.price().map_or("earned".to_string(), |p| format!("{p} coins"))}</td>
                                    <td>{powers::describe(crate::i18n::Words::english(), power)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <p class="muted">"Powers you drag onto the board take effect when you press Play. Alfa Power and Golden Tiles cannot be touched by other powers, nor sold."</p>
                </section>
                {section(Variant::Classic, "Classic", vec![
                    "Two to four players, English. Plays are not checked when made: any opponent may challenge the last play before acting.".into(),
                    "A challenge judges all the play's words: one invalid word withdraws the play (no points, turn lost); all valid, and the challenger loses their next turn.".into(),
                    "Exchange any number of tiles as your turn while the bag holds seven or more.".into(),
                    "The game ends when a player goes out with the bag empty (gaining the others' leftovers), or after six scoreless turns in a row.".into(),
                ])}
                {section(Variant::Feud { language: Language::English, random_board: false }, "Feud", vec![
                    "Two players, Wordfeud's rules: invalid words are refused; exchange while the bag holds seven or more.".into(),
                    "Three passes in a row end the game; leftovers are taken off, and added to whoever went out.".into(),
                    "A random board shuffles the same premium squares for each game.".into(),
                ])}
                {section(Variant::Alfapet { hand_size: 7, special_tiles: true }, "Alfapet", vec![
                    "Two to four players, Swedish, on 17×17 with ×2, ×3 and ×4 letter and word squares and negative squares (the tile counts −2 × its value). Hands of 6, 7 or 8 (a whole hand: +40, +50, +60).".into(),
                    "Arrows (optional): placed under a letter of your move where your word turns a corner, once a move. Stops: a black tile at the end of a word; no word runs through it.".into(),
                    "Exchange is your turn. The game ends when the tiles run out, or when everyone has passed twice in a row.".into(),
                ])}
                {section(Variant::LongWords { hard_mode: false }, "Long words", vec![
                    "Longer words count more: a word's score is multiplied by 1 + 0.5 × (letters − 2), at most 8.5, rounded half up (JOINERY: 46).".into(),
                    "An S or D that only lengthens a word keeps that word's multiplier at 1.5 or 2.".into(),
                    "No whole-hand bonus. Hard mode: an invalid word costs the turn.".into(),
                ])}
                <section class="card" id="daily">
                    <h2>"The Daily Challenge"</h2>
                    <p>"One puzzle a day for each dictionary, the same for everyone: the Alfa Kraft board and bonuses without powers, "
                       "a bag in the day's order and ten turns. Your score is your points; the day's leaderboard and the Expert bot's "
                       "score on the same puzzle come after. One attempt a day, which you can leave and resume."</p>
                </section>
                <section class="card" id="clocks">
                    <h2>"Clocks"</h2>
                    <ul>
                        <li>"Casual: 7 days a move (Feud: 72 hours); running out loses. The countdown shows in the last 24 hours."</li>
                        <li>"Blitz: 120 seconds a turn; running out passes. Passing that way while away earns a strike, and three strikes lose the match. One Blitz match at a time; it starts when both players press Ready."</li>
                    </ul>
                </section>
                <section class="card" id="ranks">
                    <h2>"Ranks"</h2>
                    <p>"Each dictionary has its own rank (Elo), starting at 1200. Finished rated games between two players move both ranks: "
                       "by up to 40 points for a player's first 30 rated games, 20 after. Under ten rated games a rank shows as provisional ("
                       <code>"1240?"</code>"). Bot, pass-and-play and unrated games leave ranks alone. The "
                       <a href="/leaderboard">"leaderboard"</a>" lists players with ten rated games and one in the last 90 days."</p>
                </section>
            </main>
        };
        plain::document("How to play", viewer, admin, main)
    }
}
