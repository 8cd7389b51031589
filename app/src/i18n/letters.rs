//! The words of the mail the server sends, in the reader's language: each letter is a subject
//! line and a plain-text body.

use super::Texts;
use crate::tr;

/// A letter: its subject, then its body.
pub type Letter = (String, String);

/// The link that confirms a new address.
pub fn verify(texts: Texts, link: &str) -> Letter {
    (
        tr!(texts, mail.verify_subject).to_string(),
        tr!(texts, mail.verify_body, link = link.to_string()),
    )
}

/// The link that sets a new password for `name`.
pub fn reset(texts: Texts, name: &str, link: &str) -> Letter {
    (
        tr!(texts, mail.reset_subject).to_string(),
        tr!(
            texts,
            mail.reset_body,
            name = name.to_string(),
            link = link.to_string()
        ),
    )
}

/// `name`'s time for a move (the game at `link`) runs out in about `hours`.
pub fn deadline(texts: Texts, name: &str, link: &str, hours: i64) -> Letter {
    (
        tr!(texts, mail.deadline_subject, hours),
        tr!(
            texts,
            mail.deadline_body,
            name = name.to_string(),
            hours,
            link = link.to_string()
        ),
    )
}

/// `name`, who has waited over a day for a move in the game at `link`, nudges its reader.
pub fn nudge(texts: Texts, name: &str, link: &str) -> Letter {
    (
        tr!(texts, mail.nudge_subject, name = name.to_string()),
        tr!(
            texts,
            mail.nudge_body,
            name = name.to_string(),
            link = link.to_string()
        ),
    )
}

/// The games (`links`) waiting for `name`'s move; `base` is the site.
pub fn digest(texts: Texts, name: &str, links: &[String], base: &str) -> Letter {
    (
        tr!(texts, mail.digest_subject, count = links.len()),
        tr!(
            texts,
            mail.digest_body,
            name = name.to_string(),
            links = links.join("\n"),
            settings = format!("{base}/settings")
        ),
    )
}
