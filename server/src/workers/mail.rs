//! The mail task, on every instance when the operator configured an SMTP server: sends what
//! waits in the outbox (`store::mail::outbox`), trying a failure again after doubling waits, and
//! once a minute writes the reminders players asked for (a warning a day before a Casual
//! deadline, the daily digest of games waiting for them) into it.
//!
//! SMTP goes without TLS (the binary carries no TLS client): point it at a relay on the same
//! machine or private network, which forwards the mail on with TLS.

use std::time::Duration;

use app::i18n::{letters, Lang, Texts};
use lettre::{
    message::{header::ContentType, Mailbox},
    transport::smtp::authentication::Credentials,
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
};
use store::{
    deadlines::{self, Channel},
    mail::{outbox, reminders},
    Services,
};

/// Where mail goes out, and whom it is from.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Mailer {
    /// A mailer for `smtp://[user:password@]host[:port]`, sending as `from`
    /// (`Alfa Kraft <noreply@example.org>`).
    pub fn new(url: &str, from: &str) -> Result<Mailer, String> {
        let bad = |why: &str| format!("ALFAKRAFT_SMTP_URL {url:?}: {why}");
        let url = url::Url::parse(url).map_err(|e| bad(&e.to_string()))?;
        if url.scheme() != "smtp" {
            return Err(bad(
                "give smtp://host[:port]: the binary speaks SMTP without TLS, to a relay",
            ));
        }
        let host = url.host_str().ok_or_else(|| bad("no host"))?;
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(url.port().unwrap_or(25))
            .timeout(Some(Duration::from_secs(20)));
        if !url.username().is_empty() {
            let decode = |part: &str| {
                percent_encoding::percent_decode_str(part)
                    .decode_utf8_lossy()
                    .into_owned()
            };
            builder = builder.credentials(Credentials::new(
                decode(url.username()),
                decode(url.password().unwrap_or_default()),
            ));
        }
        let transport = builder.build();
        let from = from
            .parse()
            .map_err(|e| format!("ALFAKRAFT_MAIL_FROM: {e}"))?;
        Ok(Mailer { transport, from })
    }

    async fn send(&self, letter: &outbox::Letter) -> Result<(), NotSent> {
        let to: Mailbox = letter
            .recipient
            .parse()
            .map_err(|e| NotSent::Never(format!("{e}")))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&letter.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(letter.body.clone())
            .map_err(|e| NotSent::Never(e.to_string()))?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| NotSent::Failed(e.to_string()))
    }
}

/// Why a letter did not go out.
enum NotSent {
    /// It cannot be written (an address the mailer cannot parse): it never will be.
    Never(String),
    /// The server refused it or could not be reached: later, perhaps.
    Failed(String),
}

/// How often the outbox is looked at.
const EVERY: Duration = Duration::from_secs(2);
/// Reminders are written every this many looks (a minute).
const REMINDERS_EVERY: u32 = 30;

/// Runs forever: `base` is the site's address, for the links in reminders.
pub async fn run(services: Services, mailer: Mailer, base: String) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for round in 0u32.. {
        tick.tick().await;
        if round % REMINDERS_EVERY == 0 {
            if let Err(error) = remind(&services, &base).await {
                tracing::warn!(%error, "writing reminders failed");
            }
        }
        if let Err(error) = send_due(&services, &mailer).await {
            tracing::warn!(%error, "reading the outbox failed");
        }
    }
}

/// Sends every message due now.
async fn send_due(services: &Services, mailer: &Mailer) -> Result<(), sqlx::Error> {
    let db = &services.db;
    while let Some(letter) = outbox::next_due(db).await? {
        match mailer.send(&letter).await {
            Ok(()) => {
                metrics::counter!("alfakraft_mail_sent_total").increment(1);
                outbox::sent(db, letter.id).await?;
            }
            // Given up at once, and the next letter goes on: it must not hold up the others.
            Err(NotSent::Never(error)) => {
                metrics::counter!("alfakraft_mail_failed_total").increment(1);
                tracing::warn!(%error, id = letter.id, "a letter that cannot be sent was dropped");
                outbox::sent(db, letter.id).await?;
            }
            Err(NotSent::Failed(error)) => {
                metrics::counter!("alfakraft_mail_failed_total").increment(1);
                let again = outbox::failed(db, &letter).await?;
                tracing::warn!(%error, id = letter.id, again, "sending mail failed");
                // The server is likely down: the rest waits for the next look.
                break;
            }
        }
    }
    Ok(())
}

fn texts_of(language: Option<&str>) -> Texts {
    Texts::of(language.and_then(Lang::parse).unwrap_or_default())
}

/// Writes the deadline warnings and digests now due into the outbox.
async fn remind(services: &Services, base: &str) -> Result<(), sqlx::Error> {
    let db = &services.db;
    for due in deadlines::due(db, Channel::Mail).await? {
        let texts = texts_of(due.language.as_deref());
        let hours = due.hours_left();
        let link = format!("{base}/game/{}", due.game_id);
        let (subject, body) = letters::deadline(texts, &due.name, &link, hours);
        reminders::warn(db, &due, &subject, &body).await?;
    }
    let day = reminders::today();
    for due in reminders::digests_due(db, day).await? {
        let games = reminders::waiting_for(db, due.user_id).await?;
        let letter = (!games.is_empty()).then(|| {
            let links: Vec<String> = games.iter().map(|id| format!("{base}/game/{id}")).collect();
            letters::digest(texts_of(due.language.as_deref()), &due.name, &links, base)
        });
        reminders::send_digest(db, &due, day, letter).await?;
    }
    Ok(())
}
