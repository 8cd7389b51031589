//! The interface's language: English, Swedish, Danish or Norwegian Bokmål.
//!
//! The words live in `app/locales/<language>.json`, one file per language that a translator edits
//! without reading Rust (English is the reference). `build.rs` turns them into typed [`keys`], so
//! a view naming a text that does not exist does not compile, and into the server's tables; the
//! build fails when a language lacks a text or takes other `{{ values }}` than English.
//!
//! Only the active language travels: the server picks it before rendering (the `lang` cookie,
//! which signing in sets from the account, else the browser's `Accept-Language`), writes it into
//! `<html lang>` and puts its words into the page; the browser starts from those, so hydration
//! finds the same words. The sections only the server's own pages show (`SERVER_ONLY` in
//! `build.rs`) have keys in the server's build alone and travel as empty places. Switching asks
//! the server for the other language's words and swaps them in place: every text reads one
//! signal, so nothing reloads and a staged move stays.
//! The wasm bundle carries no words of any language.
//!
//! Why not `leptos_i18n`: measured on this app, its static mode compiled all four languages into
//! the bundle (+40 KB gzipped against a 15 KB budget), and its `dynamic_load` mode makes every
//! lookup asynchronous.

use leptos::prelude::*;

mod generated {
    include!(concat!(env!("OUT_DIR"), "/words.rs"));
}
pub use generated::keys;

#[cfg(feature = "ssr")]
pub mod letters;
mod menu;
mod names;
#[cfg(feature = "ssr")]
pub mod notices;
pub use menu::{switch, LanguageMenu};
#[cfg(feature = "ssr")]
pub use names::build_stage;
pub use names::{
    answer_text, audit_action, bot_level, coins, days, dictionary_key, dictionary_name,
    format_name, line_problem, local_moment, moment, origin, power_name, refusal, rule_error,
    ruleset_name, sanctioned, sanctioned_at, seat_label, seat_name, warning,
};

/// The cookie that remembers the choice (a guest's, or the account's once signed in).
pub const COOKIE: &str = "lang";

/// The id of the page's words in the browser (one text, written by the server into the page).
pub const TEXTS_ID: &str = "words";

pub use domain::Lang;

/// A text of the interface: an index into every language's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key(usize);

/// One language's texts of the interface (the translation tables): what every view reads its
/// texts from.
#[derive(Debug, Clone, Copy)]
pub struct Texts {
    lang: Lang,
    texts: &'static [&'static str],
}

impl Texts {
    /// Which language these are.
    pub fn lang(self) -> Lang {
        self.lang
    }

    /// A text as it is (the texts without values).
    pub fn text(self, key: Key) -> &'static str {
        self.texts.get(key.0).copied().unwrap_or_default()
    }

    /// A text with its `{{ values }}` filled in; a value not given stays as written. A
    /// `{{ count | one | other }}` is the word for the value of `count`: "1 point", "2 points".
    pub fn format(self, key: Key, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let mut rest = self.text(key);
        while let Some((before, after)) = rest.split_once("{{") {
            out.push_str(before);
            let Some((name, after)) = after.split_once("}}") else {
                rest = after;
                out.push_str("{{");
                continue;
            };
            let (variable, forms) = match name.split_once('|') {
                Some((variable, forms)) => (variable.trim(), forms.split_once('|')),
                None => (name.trim(), None),
            };
            match values.iter().find(|(n, _)| *n == variable) {
                Some((_, value)) => match forms {
                    Some((one, other)) => out.push_str(form(&value.to_string(), one, other)),
                    None => {
                        let _ = write!(out, "{value}");
                    }
                },
                None => {
                    out.push_str("{{");
                    out.push_str(name);
                    out.push_str("}}");
                }
            }
            rest = after;
        }
        out.push_str(rest);
        out
    }

    /// A language's words, from the tables compiled into the server.
    #[cfg(feature = "ssr")]
    pub fn of(lang: Lang) -> Texts {
        Texts {
            lang,
            texts: &generated::TABLES[lang as usize],
        }
    }

    /// The words outside the app (the pages the server renders alone are English). In the
    /// browser there are none until the page's arrive.
    pub fn english() -> Texts {
        #[cfg(feature = "ssr")]
        {
            Texts::of(Lang::En)
        }
        #[cfg(not(feature = "ssr"))]
        {
            Texts {
                lang: Lang::En,
                texts: &[],
            }
        }
    }

    /// Words received from the server (the page's, or a switch's), kept for the page's life:
    /// each language is stored once, however often the player switches.
    pub fn received(lang: Lang, texts: Vec<String>) -> Texts {
        use std::sync::Mutex;
        static RECEIVED: Mutex<[Option<&'static [&'static str]>; 4]> = Mutex::new([None; 4]);
        let mut received = RECEIVED.lock().unwrap_or_else(|e| e.into_inner());
        let texts = *received[lang as usize].get_or_insert_with(|| {
            texts
                .into_iter()
                .map(|t| &*t.leak())
                .collect::<Vec<&'static str>>()
                .leak()
        });
        Texts { lang, texts }
    }

    /// This language's texts as the browser gets them (a switch's): those only the server's
    /// pages show are left empty, in their places, so every key still reads its own text.
    #[cfg(feature = "ssr")]
    pub fn for_browser(self) -> Vec<String> {
        self.texts
            .iter()
            .zip(generated::IN_BROWSER)
            .map(|(text, shown)| {
                if shown {
                    text.to_string()
                } else {
                    String::new()
                }
            })
            .collect()
    }
}

impl Default for Texts {
    fn default() -> Texts {
        Texts::english()
    }
}

/// The language being shown, for every component below the app: one that can switch in the
/// app, a fixed one on the pages the server renders alone, English where none was provided.
#[derive(Clone, Copy)]
pub struct Language(Source);

#[derive(Clone, Copy)]
enum Source {
    Switching(RwSignal<Texts>),
    Fixed(Texts),
}

impl Language {
    /// Starts from what the server chose for this request (or, in the browser, the words it
    /// wrote into the page), and makes it available below.
    pub fn provide() -> Language {
        let language = Language(Source::Switching(RwSignal::new(requested())));
        provide_context(language);
        language
    }

    /// A page that does not switch (rendered by the server alone) speaks `words` below.
    pub fn provide_fixed(texts: Texts) {
        provide_context(Language(Source::Fixed(texts)));
    }

    /// The one provided above (English where none is).
    pub fn expect() -> Language {
        use_context::<Language>().unwrap_or(Language(Source::Fixed(Texts::english())))
    }

    /// The current words (tracked: a view or memo reading them follows changes).
    pub fn get(self) -> Texts {
        match self.0 {
            Source::Switching(signal) => signal.get(),
            Source::Fixed(texts) => texts,
        }
    }

    /// The current words, untracked (for event handlers).
    pub fn get_untracked(self) -> Texts {
        match self.0 {
            Source::Switching(signal) => signal.get_untracked(),
            Source::Fixed(texts) => texts,
        }
    }

    /// Shows the page in these words: its texts, and `<html lang>` (for screen readers,
    /// hyphenation, and a reload's first paint).
    pub fn show(self, texts: Texts) {
        if let Source::Switching(signal) = self.0 {
            signal.set(texts);
        }
        #[cfg(feature = "hydrate")]
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", texts.lang().code());
        }
    }
}

/// The words this request asked for: on the server from its `lang` cookie, else its
/// `Accept-Language`; in the browser the ones the server put into the page.
pub fn requested() -> Texts {
    #[cfg(feature = "ssr")]
    {
        Texts::of(
            use_context::<http::request::Parts>()
                .map(|parts| from_headers(&parts.headers))
                .unwrap_or_default(),
        )
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        let document = document();
        let lang = document
            .document_element()
            .and_then(|root| root.get_attribute("lang"))
            .and_then(|code| Lang::parse(&code))
            .unwrap_or_default();
        let texts = document
            .get_element_by_id(TEXTS_ID)
            .and_then(|script| script.text_content())
            .map(|text| read_page_texts(&text))
            .unwrap_or_default();
        Texts::received(lang, texts)
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        Texts::english()
    }
}

/// Between two of the page's words (the ASCII unit separator, which no text holds).
const WORD_END: char = '\u{1f}';
/// Stands for `<` in the page's words (a private-use character), so no text can close the script.
const LESS_THAN: char = '\u{e03c}';

/// The page's words for a `<script type="text/plain">`: one text, read in the browser with one
/// call across to JavaScript rather than one per word (hundreds, on every page's start-up). The
/// texts only the server's pages show are left out (empty), as in [`Texts::for_browser`].
#[cfg(feature = "ssr")]
pub fn page_texts(texts: Texts) -> String {
    let mut page = String::new();
    for (i, (text, shown)) in texts.texts.iter().zip(generated::IN_BROWSER).enumerate() {
        if i > 0 {
            page.push(WORD_END);
        }
        if shown {
            page.extend(text.chars().map(|c| if c == '<' { LESS_THAN } else { c }));
        }
    }
    page
}

/// The texts of [`page_texts`] back.
#[cfg(any(test, feature = "hydrate"))]
pub fn read_page_texts(text: &str) -> Vec<String> {
    text.split(WORD_END)
        .map(|t| t.replace(LESS_THAN, "<"))
        .collect()
}

/// The language a request's headers ask for: the `lang` cookie, else the best match of
/// `Accept-Language`, else English.
#[cfg(feature = "ssr")]
pub fn from_headers(headers: &http::HeaderMap) -> Lang {
    let cookie = crate::cookies::get(headers, COOKIE).and_then(Lang::parse);
    cookie.unwrap_or_else(|| {
        headers
            .get(http::header::ACCEPT_LANGUAGE)
            .and_then(|value| value.to_str().ok())
            .map(from_accept_language)
            .unwrap_or_default()
    })
}

/// The best of our languages for an `Accept-Language` header, by its weights (ties in the
/// header's order). Norwegian asked for as `no` or Nynorsk (`nn`) gets Bokmål, the closest we
/// have; a language we do not have is skipped.
#[cfg(feature = "ssr")]
pub fn from_accept_language(header: &str) -> Lang {
    let mut asked: Vec<(f32, Lang)> = header
        .split(',')
        .filter_map(|item| {
            let mut parts = item.split(';');
            let tag = parts.next()?.trim().to_ascii_lowercase();
            let weight = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            let lang = match tag.split(['-', '_']).next()? {
                "no" | "nn" => Lang::Nb,
                primary => Lang::parse(primary)?,
            };
            (weight > 0.0).then_some((weight, lang))
        })
        .collect();
    // Stable: equal weights keep the header's order.
    asked.sort_by(|a, b| b.0.total_cmp(&a.0));
    asked.first().map(|(_, lang)| *lang).unwrap_or_default()
}

/// A text that follows the page's language, for a view or an attribute.
///
/// Write it with the [`t!`](crate::t) macro: `t!(controls.play)`.
pub fn text(key: Key) -> impl Fn() -> &'static str + Copy + Send + Sync {
    let language = Language::expect();
    move || language.get().text(key)
}

/// Words with values, or made from a type, that follow the page's language: for a view or an
/// attribute. Every call shares one closure type (the wording is boxed), so a new one costs the
/// bundle a small function rather than another monomorphised view.
pub fn worded(
    wording: impl Fn(Texts) -> String + Send + Sync + 'static,
) -> impl Fn() -> String + Clone + Send + Sync + 'static {
    follow(std::sync::Arc::new(wording))
}

fn follow(
    wording: std::sync::Arc<dyn Fn(Texts) -> String + Send + Sync>,
) -> impl Fn() -> String + Clone + Send + Sync + 'static {
    let language = Language::expect();
    move || wording(language.get())
}

/// `t!(section.name)`: a text in the page's language, as a view or attribute value that follows
/// language changes.
#[macro_export]
macro_rules! t {
    ($section:ident . $name:ident) => {
        $crate::i18n::text($crate::i18n::keys::$section::$name)
    };
}

/// `tr!(texts, section.name)` is that text in one language's [`Texts`]; `tr!(texts,
/// section.name, score, name = expr)` fills in its values (a bare name passes the variable of
/// that name).
#[macro_export]
macro_rules! tr {
    // First: an `expr` fragment that fails to parse is an error, not a cue to try the next rule.
    (@value $value:ident) => { $value };
    (@value $value:ident, $given:expr) => { $given };
    ($texts:expr, $section:ident . $name:ident) => {
        $crate::i18n::Texts::text($texts, $crate::i18n::keys::$section::$name)
    };
    ($texts:expr, $section:ident . $name:ident, $($value:ident $(= $given:expr)?),+ $(,)?) => {
        $crate::i18n::Texts::format(
            $texts,
            $crate::i18n::keys::$section::$name,
            &[$((stringify!($value), &$crate::tr!(@value $value $(, $given)?) as &dyn ::core::fmt::Display)),+],
        )
    };
}

/// A whole number as the language writes it: 245,105 in English, 245 105 in Swedish and
/// Norwegian, 245.105 in Danish.
pub fn whole(texts: Texts, n: u64) -> String {
    let separator = tr!(texts, number.thousands);
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(separator);
        }
        out.push(ch);
    }
    out
}

/// A number given in tenths, to one decimal as the language writes it (`12.5`, `12,5`).
pub fn tenths(texts: Texts, tenths: i32) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let tenths = tenths.unsigned_abs();
    format!(
        "{sign}{}{}{}",
        tenths / 10,
        tr!(texts, number.decimal),
        tenths % 10
    )
}

/// The word for a count as written: these four languages all take the singular for exactly
/// one (CLDR's cardinal rule `one` is `n = 1` for whole numbers in en, sv, da and nb).
fn form<'a>(count: &str, one: &'a str, other: &'a str) -> &'a str {
    match count.trim() {
        "1" => one.trim(),
        _ => other.trim(),
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn accept_language_picks_the_best_weighted_language_we_have() {
        assert_eq!(from_accept_language("sv-SE,sv;q=0.9,en;q=0.8"), Lang::Sv);
        assert_eq!(from_accept_language("de-DE,da;q=0.7,en;q=0.9"), Lang::En);
        assert_eq!(from_accept_language("fr, nn;q=0.5"), Lang::Nb);
        assert_eq!(from_accept_language("no"), Lang::Nb);
        assert_eq!(from_accept_language("da-DK"), Lang::Da);
        assert_eq!(from_accept_language("fi, de"), Lang::En);
        assert_eq!(from_accept_language(""), Lang::En);
        assert_eq!(from_accept_language("sv;q=0, da"), Lang::Da);
        assert_eq!(from_accept_language("en;q=0.5, NB-no;q=0.8"), Lang::Nb);
    }

    #[test]
    fn the_cookie_wins_over_accept_language() {
        let mut headers = http::HeaderMap::new();
        headers.insert(http::header::ACCEPT_LANGUAGE, "sv-SE".parse().unwrap());
        assert_eq!(from_headers(&headers), Lang::Sv);
        headers.insert(http::header::COOKIE, "theme=dark; lang=da".parse().unwrap());
        assert_eq!(from_headers(&headers), Lang::Da);
        headers.insert(http::header::COOKIE, "lang=xx".parse().unwrap());
        assert_eq!(from_headers(&headers), Lang::Sv);
    }

    #[test]
    fn values_are_filled_in_by_name() {
        let sv = Texts::of(Lang::Sv);
        let (price, coins) = (12, 3);
        assert_eq!(
            tr!(sv, rule.not_enough_coins, price, coins),
            "Det kostar 12 mynt; du har 3."
        );
        assert_eq!(tr!(sv, controls.play), "Lägg");
        let en = Texts::of(Lang::En);
        assert_eq!(
            tr!(en, summary.won, name = "ann"),
            "ann won",
            "a value given by name"
        );
        // A value the call does not give stays visible rather than vanishing.
        assert_eq!(en.format(keys::summary::won, &[]), "{{ name }} won");
    }

    #[test]
    fn a_count_of_one_takes_the_singular_in_every_language() {
        // "1 points" was on screen (issue 40).
        let (en, sv) = (Texts::of(Lang::En), Texts::of(Lang::Sv));
        let word = |texts, points: i32| tr!(texts, home.server_word, points, dictionary = "X");
        assert_eq!(word(en, 1), "The server agrees: 1 point, a word in X");
        assert_eq!(word(en, 2), "The server agrees: 2 points, a word in X");
        assert_eq!(word(en, 0), "The server agrees: 0 points, a word in X");
        assert_eq!(word(sv, 1), "Servern håller med: 1 poäng, ett ord i X");
        assert_eq!(
            tr!(sv, history.exchanged, who = "Ann", tiles = 1),
            "Ann bytte 1 bricka"
        );
        assert_eq!(
            tr!(sv, history.exchanged, who = "Ann", tiles = 3),
            "Ann bytte 3 brickor"
        );
        assert_eq!(
            tr!(Texts::of(Lang::Da), profile.rated_games, games = 1),
            "1 ratet spil"
        );
        assert_eq!(
            tr!(Texts::of(Lang::Da), profile.rated_games, games = 4),
            "4 ratede spil"
        );
        assert_eq!(names::days(Texts::of(Lang::Nb), 1), "1 dag");
        assert_eq!(names::days(Texts::of(Lang::Nb), 5), "5 dager");
        assert_eq!(names::coins(en, 1), "1 coin");
        assert_eq!(names::coins(en, -1), "-1 coins");
        // Every text of every language that chooses a word by a count: one for 1, the other for
        // 0, 2 and 21 (the last is "one" in some languages, not in these four).
        let mut chosen = 0;
        for lang in Lang::ALL {
            let texts = Texts::of(lang);
            for index in 0..generated::COUNT {
                let key = Key(index);
                let text = texts.text(key);
                for place in text
                    .split("{{")
                    .skip(1)
                    .filter_map(|rest| rest.split_once("}}"))
                {
                    let parts: Vec<&str> = place.0.split('|').map(str::trim).collect();
                    let [count, one, other] = parts[..] else {
                        continue;
                    };
                    let with = |n: i32| texts.format(key, &[(count, &n)]);
                    assert!(
                        with(1).contains(one),
                        "{lang:?} {text:?} with 1: {}",
                        with(1)
                    );
                    for n in [0, 2, 21] {
                        assert!(
                            with(n).contains(other),
                            "{lang:?} {text:?} with {n}: {}",
                            with(n)
                        );
                        let place = format!("{count} |");
                        assert!(!with(n).contains(&place), "{lang:?} {text:?}: {}", with(n));
                        assert!(one == other || with(1) != with(n).replace(&n.to_string(), "1"));
                    }
                    chosen += 1;
                }
            }
        }
        assert!(chosen > 60, "{chosen} words chosen by a count");
    }

    #[test]
    fn numbers_are_written_the_language_s_way() {
        assert_eq!(whole(Texts::of(Lang::En), 245_105), "245,105");
        assert_eq!(whole(Texts::of(Lang::Sv), 1_245_105), "1\u{a0}245\u{a0}105");
        assert_eq!(whole(Texts::of(Lang::Da), 245_105), "245.105");
        assert_eq!(whole(Texts::of(Lang::Nb), 999), "999");
        assert_eq!(
            tr!(Texts::of(Lang::Sv), number.percent, value = 52),
            "52\u{a0}%"
        );
    }

    #[test]
    fn the_page_texts_cannot_close_their_script_and_read_back_whole() {
        for lang in [Lang::En, Lang::Sv, Lang::Da, Lang::Nb] {
            let texts = Texts::of(lang).for_browser();
            assert!(texts
                .iter()
                .all(|t| !t.contains(WORD_END) && !t.contains(LESS_THAN)));
            let text = page_texts(Texts::of(lang));
            assert!(!text.contains('<'));
            assert_eq!(read_page_texts(&text), texts);
        }
        // A text with a `<` in it comes back as it was.
        let mut texts = Texts::of(Lang::En).for_browser();
        texts[0] = "a </script> b".into();
        let texts: &'static [&'static str] = texts
            .iter()
            .map(|t| &*t.clone().leak())
            .collect::<Vec<_>>()
            .leak();
        let text = page_texts(Texts {
            lang: Lang::En,
            texts,
        });
        assert!(!text.contains('<'));
        assert_eq!(read_page_texts(&text), texts);
    }

    #[test]
    fn a_page_carries_only_the_texts_the_browser_can_show() {
        for lang in Lang::ALL {
            let texts = Texts::of(lang);
            let page = read_page_texts(&page_texts(texts));
            assert_eq!(page.len(), generated::COUNT, "every key keeps its place");
            // The help page is the server's alone; the top bar is hydrated.
            let help = texts.text(keys::help::intro);
            assert!(help.len() > 100);
            assert!(!page_texts(texts).contains(help));
            assert_eq!(page[keys::help::intro.0], "");
            assert_eq!(page[keys::nav::lobby.0], texts.text(keys::nav::lobby));
            let shown = page.iter().filter(|t| !t.is_empty()).count();
            let all = texts.texts.iter().filter(|t| !t.is_empty()).count();
            assert!(
                shown > all / 2 && shown < all,
                "{shown} of {all} texts in the page"
            );
        }
    }
}
