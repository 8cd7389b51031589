//! The words for the typed things the server and the rules send: refusals, rule errors, the
//! names of rulesets, formats, powers, bots and dictionaries, and the dictionary panel's
//! warnings, stages and line problems. The server sends the type; the page words it.

use crate::tr;
use leptos::prelude::ServerFnError;
use rules::{game::Format, Power, RuleError, Variant};

use super::Texts;
use domain::{AccountProblem, DictionaryProblem, Refusal, SocialProblem};

/// A refusal, or a failure to reach the server, in the page's language.
pub fn answer_text(texts: Texts, answer: Result<Refusal, ServerFnError>) -> String {
    match answer {
        Ok(why) => refusal(texts, &why),
        // What needs the server says so, instead of how the request failed.
        Err(_) if crate::network::offline() => tr!(texts, refusal.offline).into(),
        Err(error) => tr!(texts, refusal.unreachable, error),
    }
}

/// Why a request was refused, in the page's language.
pub fn refusal(texts: Texts, refusal: &Refusal) -> String {
    match refusal {
        Refusal::SignInFirst => tr!(texts, refusal.sign_in_first).into(),
        Refusal::AccountNeeded => tr!(texts, refusal.account_needed).into(),
        Refusal::NoSuchGame => tr!(texts, refusal.no_such_game).into(),
        Refusal::NotOver => tr!(texts, refusal.not_over).into(),
        Refusal::AnalysesUsedUp { minutes } => tr!(texts, refusal.analyses_used_up, minutes),
        Refusal::NotYourSeat => tr!(texts, refusal.not_your_seat).into(),
        Refusal::MovedOn { current } => tr!(texts, refusal.moved_on, version = current),
        Refusal::NotStarted => tr!(texts, refusal.not_started).into(),
        Refusal::TimeUp => tr!(texts, refusal.time_up).into(),
        Refusal::BlitzBusy => tr!(texts, refusal.blitz_busy).into(),
        Refusal::Rules(error) => rule_error(texts, error),
        Refusal::TooManyGames(games) => tr!(texts, refusal.too_many_games, games),
        // Malformed requests (forged, or from an outdated page): the detail is for developers.
        Refusal::Invalid(detail) => tr!(texts, refusal.invalid, detail),
        Refusal::InviteClosed => tr!(texts, refusal.invite_closed).into(),
        Refusal::RematchClosed => tr!(texts, refusal.rematch_closed).into(),
        Refusal::OwnGame => tr!(texts, refusal.own_game).into(),
        Refusal::SlowDown { minutes } => tr!(texts, refusal.slow_down, minutes),
        Refusal::TooManyAccounts { minutes } => tr!(texts, refusal.too_many_accounts, minutes),
        Refusal::AdminsOnly => tr!(texts, refusal.admins_only).into(),
        Refusal::Account(problem) => account(texts, *problem).into(),
        Refusal::TooManyReports { open } => tr!(texts, refusal.too_many_reports, open),
        Refusal::Dictionary(problem) => dictionary(texts, problem),
        Refusal::Social(problem) => social(texts, problem),
    }
}

fn social(texts: Texts, problem: &SocialProblem) -> String {
    use domain::{CHAT_BURST, CHAT_MAX_CHARS, CHAT_WINDOW_SECS};
    match problem {
        SocialProblem::NoSuchPlayer(name) => tr!(texts, refusal.no_such_player, name),
        SocialProblem::Yourself => tr!(texts, refusal.yourself).into(),
        SocialProblem::Unreachable(name) => tr!(texts, refusal.cannot_reach, name),
        SocialProblem::NoChat => tr!(texts, refusal.no_chat).into(),
        SocialProblem::BadMessage => tr!(texts, refusal.bad_message, most = CHAT_MAX_CHARS),
        SocialProblem::TooFast => tr!(
            texts,
            refusal.chat_too_fast,
            messages = CHAT_BURST,
            seconds = CHAT_WINDOW_SECS
        ),
        SocialProblem::ReasonNeeded => tr!(texts, refusal.report_reason).into(),
        SocialProblem::TooManyReports => tr!(texts, refusal.too_many_player_reports).into(),
        SocialProblem::Muted(until) | SocialProblem::Suspended(until) => {
            let muted = matches!(problem, SocialProblem::Muted(_));
            sanctioned(texts, muted, *until)
        }
    }
}

/// "You are muted until 2026-12-06 14:00 UTC." and the like.
pub fn sanctioned(texts: Texts, muted: bool, until: Option<i64>) -> String {
    sanctioned_at(texts, muted, until, moment)
}

/// [`sanctioned`] with the moment written by `written`: [`local_moment`] once a page has
/// hydrated.
pub fn sanctioned_at(
    texts: Texts,
    muted: bool,
    until: Option<i64>,
    written: fn(i64) -> String,
) -> String {
    match (muted, until) {
        (true, Some(until)) => tr!(texts, refusal.muted_until, until = written(until)),
        (true, None) => tr!(texts, refusal.muted_for_good).into(),
        (false, Some(until)) => tr!(texts, refusal.suspended_until, until = written(until)),
        (false, None) => tr!(texts, refusal.suspended_for_good).into(),
    }
}

/// A unix-ms instant in the reader's own time and language, as the browser writes it; on the
/// server (which does not know the reader's time zone) [`moment`], in UTC.
pub fn local_moment(ms: i64) -> String {
    #[cfg(feature = "hydrate")]
    {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into());
        let _ = js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into());
        let lang = leptos::prelude::document()
            .document_element()
            .and_then(|root| root.get_attribute("lang"))
            .unwrap_or_default();
        js_sys::Date::new(&(ms as f64).into())
            .to_locale_string(&lang, &options)
            .into()
    }
    #[cfg(not(feature = "hydrate"))]
    moment(ms)
}

/// A unix-ms instant as `2026-12-01 14:05 UTC`.
pub fn moment(ms: i64) -> String {
    let minute_of_day = ms.div_euclid(60_000).rem_euclid(1440);
    format!(
        "{} {:02}:{:02} UTC",
        rules::daily::Day::of_unix_ms(ms),
        minute_of_day / 60,
        minute_of_day % 60
    )
}

fn dictionary(texts: Texts, problem: &DictionaryProblem) -> String {
    match problem {
        DictionaryProblem::ReasonNeeded => tr!(texts, refusal.reason_needed).into(),
        DictionaryProblem::NothingToEdit => tr!(texts, refusal.nothing_to_edit).into(),
        DictionaryProblem::ConfirmWarnings(warnings) => {
            let warnings: Vec<String> = warnings.iter().map(|w| warning(texts, w)).collect();
            tr!(
                texts,
                refusal.confirm_warnings,
                warnings = warnings.join("; ")
            )
        }
        DictionaryProblem::AlreadyActive(version) => {
            tr!(texts, refusal.already_active, version)
        }
        DictionaryProblem::NoOpenReport(word) => tr!(texts, refusal.no_open_report, word),
    }
}

fn account(texts: Texts, problem: AccountProblem) -> &'static str {
    match problem {
        AccountProblem::BadName => tr!(texts, refusal.bad_name),
        AccountProblem::BadPassword => tr!(texts, refusal.bad_password),
        AccountProblem::NameTaken => tr!(texts, refusal.name_taken),
        AccountProblem::WrongCredentials => tr!(texts, refusal.wrong_credentials),
        AccountProblem::WrongCode => tr!(texts, refusal.wrong_code),
        AccountProblem::CodeNeeded => tr!(texts, refusal.code_needed),
        AccountProblem::WrongPassword => tr!(texts, refusal.wrong_password),
        AccountProblem::NotClosed => tr!(texts, refusal.not_closed),
        AccountProblem::PasswordSet => tr!(texts, refusal.password_set),
        AccountProblem::TooManyLetters => tr!(texts, refusal.too_many_letters),
        AccountProblem::LinkExpired => tr!(texts, refusal.link_expired),
        AccountProblem::WrongSecondFactor => tr!(texts, refusal.wrong_second_factor),
        AccountProblem::SecondFactorRequired => tr!(texts, refusal.second_factor_required),
    }
}

/// Why the rules refuse an action, in the page's language.
pub fn rule_error(texts: Texts, error: &RuleError) -> String {
    use RuleError as E;
    let plain = match error {
        E::GameOver => tr!(texts, rule.game_over),
        E::NotYourTurn => tr!(texts, rule.not_your_turn),
        E::NoSuchSeat(seat) => return tr!(texts, rule.no_such_seat, seat),
        E::EmptyMove => tr!(texts, rule.empty_move),
        E::OffBoard(_) => tr!(texts, rule.off_board),
        E::Occupied(_) => tr!(texts, rule.occupied),
        E::SameCell(_) => tr!(texts, rule.same_cell),
        E::OutOfPlay(_) => tr!(texts, rule.out_of_play),
        E::NotInHand(_) => tr!(texts, rule.not_in_hand),
        E::NotInPowerBar(power) => {
            return tr!(
                texts,
                rule.not_in_power_bar,
                power = power_name(texts, *power)
            )
        }
        E::NoSuchLetter => tr!(texts, rule.no_such_letter),
        E::NotInLine => tr!(texts, rule.not_in_line),
        E::Gap(_) => tr!(texts, rule.gap),
        E::MissesStart => tr!(texts, rule.misses_start),
        E::NotConnected => tr!(texts, rule.not_connected),
        E::NoWord => tr!(texts, rule.no_word),
        E::InvalidWords(words) => return tr!(texts, rule.invalid_words, words = words.join(", ")),
        E::NotInRuleset => tr!(texts, rule.not_in_ruleset),
        E::RubberOnStart => tr!(texts, rule.rubber_on_start),
        E::Immune(_) => tr!(texts, rule.immune),
        E::NoTarget(_) => tr!(texts, rule.no_target),
        E::MorfToSameLetter(_) => tr!(texts, rule.morf_same_letter),
        E::PowerTwiceOnCell(_) => tr!(texts, rule.power_twice),
        E::ArrowMisplaced => tr!(texts, rule.arrow_misplaced),
        E::StopMisplaced => tr!(texts, rule.stop_misplaced),
        E::SwapNotAllowed => tr!(texts, rule.swap_not_allowed),
        E::BagTooSmall { needed, in_bag } => return tr!(texts, rule.bag_too_small, needed, in_bag),
        E::NothingToChallenge => tr!(texts, rule.nothing_to_challenge),
        E::PowerBarFull => tr!(texts, rule.power_bar_full),
        E::NotEnoughCoins { price, coins } => {
            return tr!(texts, rule.not_enough_coins, price, coins)
        }
        E::NotForSale(power) => {
            return tr!(texts, rule.not_for_sale, power = power_name(texts, *power))
        }
    };
    plain.into()
}

/// A power's name (Alfa Kraft's own names stay as the seed gives them in every language).
pub fn power_name(texts: Texts, power: Power) -> &'static str {
    match power {
        Power::Swap => tr!(texts, power.swap),
        Power::Charge => tr!(texts, power.charge),
        Power::Dice => tr!(texts, power.dice),
        Power::Rubber => tr!(texts, power.rubber),
        Power::AlfaMorf => tr!(texts, power.alfa_morf),
        Power::AlfaPowerTile => tr!(texts, power.alfa_power_tile),
        Power::GoldenTile => tr!(texts, power.golden_tile),
    }
}

/// A ruleset's name with its options.
pub fn ruleset_name(texts: Texts, variant: &Variant) -> String {
    match *variant {
        Variant::AlfaKraft { .. } => tr!(texts, ruleset.alfa_kraft).into(),
        Variant::Classic => tr!(texts, ruleset.classic).into(),
        Variant::Feud { random_board, .. } => if random_board {
            tr!(texts, ruleset.feud_random)
        } else {
            tr!(texts, ruleset.feud)
        }
        .into(),
        Variant::Alfapet {
            hand_size,
            special_tiles,
        } => {
            if special_tiles {
                tr!(texts, ruleset.alfapet_special, tiles = hand_size)
            } else {
                tr!(texts, ruleset.alfapet, tiles = hand_size)
            }
        }
        Variant::Daily { .. } => tr!(texts, ruleset.daily).into(),
        Variant::LongWords { hard_mode } => if hard_mode {
            tr!(texts, ruleset.long_words_hard)
        } else {
            tr!(texts, ruleset.long_words)
        }
        .into(),
    }
}

/// Casual or Blitz.
pub fn format_name(texts: Texts, format: Format) -> &'static str {
    match format {
        Format::Casual => tr!(texts, format.casual),
        Format::Blitz => tr!(texts, format.blitz),
    }
}

/// A bot level's name ("casual"), as the server names it.
pub fn bot_level(texts: Texts, level: &str) -> String {
    match level {
        "beginner" => tr!(texts, bot.beginner).into(),
        "casual" => tr!(texts, bot.casual).into(),
        "club" => tr!(texts, bot.club).into(),
        "expert" => tr!(texts, bot.expert).into(),
        "master" => tr!(texts, bot.master).into(),
        other => other.into(),
    }
}

/// Who holds a seat, for a sentence: a player's name, "casual bot (950)", or "waiting…".
pub fn seat_name(texts: Texts, holder: &crate::api::SeatHolder) -> String {
    use crate::api::SeatHolder;
    match holder {
        SeatHolder::Player { name, .. } | SeatHolder::Local { name } => name.clone(),
        SeatHolder::Bot { level, rank } => {
            tr!(texts, bot.named, level = bot_level(texts, level), rank)
        }
        SeatHolder::Open => tr!(texts, bot.open).into(),
        SeatHolder::Deleted => tr!(texts, player.deleted).into(),
    }
}

/// The name of one seat of a table (a seat not there reads as open).
pub fn seat_label(texts: Texts, seats: &[crate::api::SeatHolder], seat: rules::Seat) -> String {
    seat_name(
        texts,
        seats
            .get(usize::from(seat))
            .unwrap_or(&crate::api::SeatHolder::Open),
    )
}

/// A dictionary's name ("Swedish").
pub fn dictionary_name(texts: Texts, id: dictionaries::DictionaryId) -> &'static str {
    texts.text(dictionary_key(id))
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
pub fn warning(texts: Texts, warning: &dictionaries::versions::Warning) -> String {
    use dictionaries::versions::Warning as W;
    match warning {
        W::Binary => tr!(texts, words_panel.binary).into(),
        W::NoWords => tr!(texts, words_panel.no_words).into(),
        W::RemovesMost { removed, of } => tr!(texts, words_panel.removes_most, removed, of),
        W::EntriesCut {
            entries,
            first_line,
            most,
        } => tr!(
            texts,
            words_panel.entries_cut,
            entries,
            line = first_line,
            most
        ),
        W::ExpansionStopped { line, most } => {
            tr!(texts, words_panel.expansion_stopped, line, most)
        }
    }
}

/// Why a line of an upload or an edit was not taken.
pub fn line_problem(texts: Texts, problem: &dictionaries::versions::LineProblem) -> String {
    use dictionaries::versions::LineProblem as P;
    match problem {
        P::NotUtf8 => tr!(texts, words_panel.not_utf8).into(),
        P::SeveralWords => tr!(texts, words_panel.several_words).into(),
        P::TooShort => tr!(texts, words_panel.too_short).into(),
        P::TooLong { letters, max } => tr!(texts, words_panel.too_long, letters, max),
        P::OutsideAlphabet(letter) => tr!(texts, words_panel.outside_alphabet, letter),
        P::Duplicate { first_line } => tr!(texts, words_panel.duplicate, first_line),
        P::NotInDictionary => tr!(texts, words_panel.not_in_dictionary).into(),
        P::Capitalised => tr!(texts, words_panel.capitalised).into(),
    }
}

/// What a draft's build is doing, for its progress bar (a page the server renders alone).
#[cfg(feature = "ssr")]
pub fn build_stage(texts: Texts, stage: dictionaries::wordlist::Stage) -> &'static str {
    use dictionaries::wordlist::Stage as S;
    match stage {
        S::Waiting => tr!(texts, words_panel.waiting),
        S::Reading => tr!(texts, words_panel.reading),
        S::Comparing => tr!(texts, words_panel.comparing),
        S::Building => tr!(texts, words_panel.building),
        S::Saving => tr!(texts, words_panel.saving),
    }
}

/// Where a version came from.
pub fn origin(texts: Texts, origin: dictionaries::versions::Origin) -> &'static str {
    use dictionaries::versions::Origin as O;
    match origin {
        O::Shipped => tr!(texts, words_panel.shipped),
        O::Upload => tr!(texts, words_panel.upload),
        O::Edit => tr!(texts, words_panel.edit),
    }
}

/// What an entry of the audit log did.
pub fn audit_action(texts: Texts, action: dictionaries::versions::AuditAction) -> &'static str {
    use dictionaries::versions::AuditAction as A;
    match action {
        A::Import => tr!(texts, words_panel.import),
        A::Upload => tr!(texts, words_panel.upload),
        A::Edit => tr!(texts, words_panel.edit),
        A::Publish => tr!(texts, words_panel.publish),
        A::Rollback => tr!(texts, words_panel.rollback),
    }
}

/// A number of days: "1 day", "3 days".
pub fn days(texts: Texts, days: u32) -> String {
    tr!(texts, daily.day_count, days)
}

/// A number of coins: "1 coin", "5 coins".
pub fn coins(texts: Texts, coins: i32) -> String {
    tr!(texts, shop.coin_count, coins)
}
