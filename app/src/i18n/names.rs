//! The words for the typed things the server and the rules send: refusals, rule errors, the
//! names of rulesets, formats, powers, bots and dictionaries, and the dictionary panel's
//! warnings, stages and line problems. The server sends the type; the page words it.

use crate::tr;
use rules::{game::Format, Power, RuleError, Variant};

use super::Words;
use domain::{AccountProblem, DictionaryProblem, Refusal};

/// Why a request was refused, in the page's language.
pub fn refusal(l: Words, refusal: &Refusal) -> String {
    match refusal {
        Refusal::SignInFirst => tr!(l, refusal.sign_in_first).into(),
        Refusal::AccountNeeded => tr!(l, refusal.account_needed).into(),
        Refusal::NoSuchGame => tr!(l, refusal.no_such_game).into(),
        Refusal::NotOver => tr!(l, refusal.not_over).into(),
        Refusal::AnalysesUsedUp { minutes } => tr!(l, refusal.analyses_used_up, minutes),
        Refusal::NotYourSeat => tr!(l, refusal.not_your_seat).into(),
        Refusal::MovedOn { current } => tr!(l, refusal.moved_on, version = current),
        Refusal::NotStarted => tr!(l, refusal.not_started).into(),
        Refusal::TimeUp => tr!(l, refusal.time_up).into(),
        Refusal::BlitzBusy => tr!(l, refusal.blitz_busy).into(),
        Refusal::Rules(error) => rule_error(l, error),
        Refusal::TooManyGames(games) => tr!(l, refusal.too_many_games, games),
        // Malformed requests (forged, or from an outdated page): the detail is for developers.
        Refusal::Invalid(detail) => tr!(l, refusal.invalid, detail),
        Refusal::InviteClosed => tr!(l, refusal.invite_closed).into(),
        Refusal::RematchClosed => tr!(l, refusal.rematch_closed).into(),
        Refusal::OwnGame => tr!(l, refusal.own_game).into(),
        Refusal::SlowDown { minutes } => tr!(l, refusal.slow_down, minutes),
        Refusal::TooManyAccounts { minutes } => tr!(l, refusal.too_many_accounts, minutes),
        Refusal::AdminsOnly => tr!(l, refusal.admins_only).into(),
        Refusal::Account(problem) => account(l, *problem).into(),
        Refusal::TooManyReports { open } => tr!(l, refusal.too_many_reports, open),
        Refusal::Dictionary(problem) => dictionary(l, problem),
    }
}

fn dictionary(l: Words, problem: &DictionaryProblem) -> String {
    match problem {
        DictionaryProblem::ReasonNeeded => tr!(l, refusal.reason_needed).into(),
        DictionaryProblem::NothingToEdit => tr!(l, refusal.nothing_to_edit).into(),
        DictionaryProblem::ConfirmWarnings(warnings) => {
            let warnings: Vec<String> = warnings.iter().map(|w| warning(l, w)).collect();
            tr!(l, refusal.confirm_warnings, warnings = warnings.join("; "))
        }
        DictionaryProblem::AlreadyActive(version) => {
            tr!(l, refusal.already_active, version)
        }
        DictionaryProblem::NoOpenReport(word) => tr!(l, refusal.no_open_report, word),
    }
}

fn account(l: Words, problem: AccountProblem) -> &'static str {
    match problem {
        AccountProblem::BadName => tr!(l, refusal.bad_name),
        AccountProblem::BadPassword => tr!(l, refusal.bad_password),
        AccountProblem::NameTaken => tr!(l, refusal.name_taken),
        AccountProblem::WrongCredentials => tr!(l, refusal.wrong_credentials),
    }
}

/// Why the rules refuse an action, in the page's language.
pub fn rule_error(l: Words, error: &RuleError) -> String {
    use RuleError as E;
    let plain = match error {
        E::GameOver => tr!(l, rule.game_over),
        E::NotYourTurn => tr!(l, rule.not_your_turn),
        E::NoSuchSeat(seat) => return tr!(l, rule.no_such_seat, seat),
        E::EmptyMove => tr!(l, rule.empty_move),
        E::OffBoard(_) => tr!(l, rule.off_board),
        E::Occupied(_) => tr!(l, rule.occupied),
        E::SameCell(_) => tr!(l, rule.same_cell),
        E::OutOfPlay(_) => tr!(l, rule.out_of_play),
        E::NotInHand(_) => tr!(l, rule.not_in_hand),
        E::NotInPowerBar(power) => {
            return tr!(l, rule.not_in_power_bar, power = power_name(l, *power))
        }
        E::NoSuchLetter => tr!(l, rule.no_such_letter),
        E::NotInLine => tr!(l, rule.not_in_line),
        E::Gap(_) => tr!(l, rule.gap),
        E::MissesStart => tr!(l, rule.misses_start),
        E::NotConnected => tr!(l, rule.not_connected),
        E::NoWord => tr!(l, rule.no_word),
        E::InvalidWords(words) => return tr!(l, rule.invalid_words, words = words.join(", ")),
        E::NotInRuleset => tr!(l, rule.not_in_ruleset),
        E::RubberOnStart => tr!(l, rule.rubber_on_start),
        E::Immune(_) => tr!(l, rule.immune),
        E::NoTarget(_) => tr!(l, rule.no_target),
        E::MorfToSameLetter(_) => tr!(l, rule.morf_same_letter),
        E::PowerTwiceOnCell(_) => tr!(l, rule.power_twice),
        E::ArrowMisplaced => tr!(l, rule.arrow_misplaced),
        E::StopMisplaced => tr!(l, rule.stop_misplaced),
        E::SwapNotAllowed => tr!(l, rule.swap_not_allowed),
        E::BagTooSmall { needed, in_bag } => return tr!(l, rule.bag_too_small, needed, in_bag),
        E::NothingToChallenge => tr!(l, rule.nothing_to_challenge),
        E::PowerBarFull => tr!(l, rule.power_bar_full),
        E::NotEnoughCoins { price, coins } => return tr!(l, rule.not_enough_coins, price, coins),
        E::NotForSale(power) => return tr!(l, rule.not_for_sale, power = power_name(l, *power)),
    };
    plain.into()
}

/// A power's name (Alfa Kraft's own names stay as the seed gives them in every language).
pub fn power_name(l: Words, power: Power) -> &'static str {
    match power {
        Power::Swap => tr!(l, power.swap),
        Power::Charge => tr!(l, power.charge),
        Power::Dice => tr!(l, power.dice),
        Power::Rubber => tr!(l, power.rubber),
        Power::AlfaMorf => tr!(l, power.alfa_morf),
        Power::AlfaPowerTile => tr!(l, power.alfa_power_tile),
        Power::GoldenTile => tr!(l, power.golden_tile),
    }
}

/// A ruleset's name with its options.
pub fn ruleset_name(l: Words, variant: &Variant) -> String {
    match *variant {
        Variant::AlfaKraft { .. } => tr!(l, ruleset.alfa_kraft).into(),
        Variant::Classic => tr!(l, ruleset.classic).into(),
        Variant::Feud { random_board, .. } => if random_board {
            tr!(l, ruleset.feud_random)
        } else {
            tr!(l, ruleset.feud)
        }
        .into(),
        Variant::Alfapet {
            hand_size,
            special_tiles,
        } => {
            if special_tiles {
                tr!(l, ruleset.alfapet_special, tiles = hand_size)
            } else {
                tr!(l, ruleset.alfapet, tiles = hand_size)
            }
        }
        Variant::Daily { .. } => tr!(l, ruleset.daily).into(),
        Variant::LongWords { hard_mode } => if hard_mode {
            tr!(l, ruleset.long_words_hard)
        } else {
            tr!(l, ruleset.long_words)
        }
        .into(),
    }
}

/// Casual or Blitz.
pub fn format_name(l: Words, format: Format) -> &'static str {
    match format {
        Format::Casual => tr!(l, format.casual),
        Format::Blitz => tr!(l, format.blitz),
    }
}

/// A bot level's name ("casual"), as the server names it.
pub fn bot_level(l: Words, level: &str) -> String {
    match level {
        "beginner" => tr!(l, bot.beginner).into(),
        "casual" => tr!(l, bot.casual).into(),
        "club" => tr!(l, bot.club).into(),
        "expert" => tr!(l, bot.expert).into(),
        "master" => tr!(l, bot.master).into(),
        other => other.into(),
    }
}

/// Who holds a seat, for a sentence: a player's name, "casual bot (950)", or "waiting…".
pub fn seat_name(l: Words, holder: &crate::api::SeatHolder) -> String {
    use crate::api::SeatHolder;
    match holder {
        SeatHolder::Player { name, .. } | SeatHolder::Local { name } => name.clone(),
        SeatHolder::Bot { level, rank } => {
            tr!(l, bot.named, level = bot_level(l, level), rank)
        }
        SeatHolder::Open => tr!(l, bot.open).into(),
    }
}

/// The name of one seat of a table (a seat not there reads as open).
pub fn seat_label(l: Words, seats: &[crate::api::SeatHolder], seat: rules::Seat) -> String {
    seat_name(
        l,
        seats
            .get(usize::from(seat))
            .unwrap_or(&crate::api::SeatHolder::Open),
    )
}

/// A dictionary's name ("Swedish").
pub fn dictionary_name(l: Words, id: dictionaries::DictionaryId) -> &'static str {
    l.text(dictionary_key(id))
}

/// The text that names a dictionary.
pub fn dictionary_key(id: dictionaries::DictionaryId) -> super::Key {
    use super::keys::dictionary as k;
    use dictionaries::DictionaryId as D;
    match id {
        D::English => k::english,
        D::Swedish => k::swedish,
        D::SwedishStrict => k::swedish_strict,
        D::Danish => k::danish,
        D::Norwegian => k::norwegian,
    }
}

/// Why a draft's publishing needs a confirmation.
pub fn warning(l: Words, warning: &dictionaries::versions::Warning) -> String {
    use dictionaries::versions::Warning as W;
    match warning {
        W::Binary => tr!(l, words_panel.binary).into(),
        W::NoWords => tr!(l, words_panel.no_words).into(),
        W::RemovesMost { removed, of } => tr!(l, words_panel.removes_most, removed, of),
    }
}

/// Why a line of an upload or an edit was not taken.
pub fn line_problem(l: Words, problem: &dictionaries::versions::LineProblem) -> String {
    use dictionaries::versions::LineProblem as P;
    match problem {
        P::NotUtf8 => tr!(l, words_panel.not_utf8).into(),
        P::SeveralWords => tr!(l, words_panel.several_words).into(),
        P::TooShort => tr!(l, words_panel.too_short).into(),
        P::TooLong { letters, max } => tr!(l, words_panel.too_long, letters, max),
        P::OutsideAlphabet(letter) => tr!(l, words_panel.outside_alphabet, letter),
        P::Duplicate { first_line } => tr!(l, words_panel.duplicate, first_line),
        P::NotInDictionary => tr!(l, words_panel.not_in_dictionary).into(),
        P::Capitalised => tr!(l, words_panel.capitalised).into(),
    }
}

/// What a draft's build is doing, for its progress bar (a page the server renders alone).
#[cfg(feature = "ssr")]
pub fn build_stage(l: Words, stage: dictionaries::wordlist::Stage) -> &'static str {
    use dictionaries::wordlist::Stage as S;
    match stage {
        S::Reading => tr!(l, words_panel.reading),
        S::Comparing => tr!(l, words_panel.comparing),
        S::Building => tr!(l, words_panel.building),
        S::Saving => tr!(l, words_panel.saving),
    }
}

/// Where a version came from.
pub fn origin(l: Words, origin: dictionaries::versions::Origin) -> &'static str {
    use dictionaries::versions::Origin as O;
    match origin {
        O::Shipped => tr!(l, words_panel.shipped),
        O::Upload => tr!(l, words_panel.upload),
        O::Edit => tr!(l, words_panel.edit),
    }
}

/// What an entry of the audit log did.
pub fn audit_action(l: Words, action: dictionaries::versions::AuditAction) -> &'static str {
    use dictionaries::versions::AuditAction as A;
    match action {
        A::Import => tr!(l, words_panel.import),
        A::Upload => tr!(l, words_panel.upload),
        A::Edit => tr!(l, words_panel.edit),
        A::Publish => tr!(l, words_panel.publish),
        A::Rollback => tr!(l, words_panel.rollback),
    }
}

/// A number of days: "1 day", "3 days".
pub fn days(l: Words, days: u32) -> String {
    super::plural(
        days,
        tr!(l, daily.one_day, days),
        tr!(l, daily.many_days, days),
    )
}

/// A number of coins: "1 coin", "5 coins".
pub fn coins(l: Words, coins: i32) -> String {
    super::plural(
        coins,
        tr!(l, shop.one_coin, coins),
        tr!(l, shop.many_coins, coins),
    )
}
