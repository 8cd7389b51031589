//! The push task, on every instance: sends the notices waiting in `store::push`'s queue to the
//! players' devices through their push services (RFC 8030), each payload encrypted to the
//! device's key (RFC 8291) and signed with the server's VAPID key (RFC 8292); a push service's
//! 404 or 410 removes the subscription, other failures are tried again after doubling waits.
//! Once a minute it also queues the warnings of Casual deadlines a day away.

use std::time::Duration;

use app::i18n::{notices, Lang, Texts};
use base64ct::{Base64UrlUnpadded, Encoding};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::{client::legacy::Client, rt::TokioExecutor};
use p256::ecdsa::{signature::Signer, Signature, SigningKey};
use store::{
    deadlines::{self, Channel},
    push, Services,
};
use web_push_native::{p256::PublicKey, Auth, WebPushBuilder};

type HttpsClient = Client<
    hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>,
    Full<Bytes>,
>;

/// The server's VAPID key: made at the first start, kept in the database for every instance.
#[derive(Clone)]
pub struct Vapid {
    key: SigningKey,
    /// Who runs the server, for the push services (`mailto:` or `https:`).
    contact: String,
}

impl Vapid {
    /// The key kept in `services`' database, made now if there is none.
    pub async fn load(services: &Services, contact: &str) -> Result<Vapid, String> {
        let stored = push::vapid_key(&services.db, || {
            let key = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
            Base64UrlUnpadded::encode_string(&key.to_bytes())
        })
        .await
        .map_err(|e| format!("the VAPID key: {e}"))?;
        let bytes = Base64UrlUnpadded::decode_vec(&stored).map_err(|e| e.to_string())?;
        let key = SigningKey::from_slice(&bytes).map_err(|e| e.to_string())?;
        Ok(Vapid {
            key,
            contact: contact.to_string(),
        })
    }

    /// The public key browsers subscribe with (`applicationServerKey`), base64url.
    pub fn public_key(&self) -> String {
        let point = self.key.verifying_key().to_encoded_point(false);
        Base64UrlUnpadded::encode_string(point.as_bytes())
    }

    /// The `Authorization` header for a push to `endpoint`: a JWT for the endpoint's origin,
    /// valid 12 hours, signed ES256.
    fn authorization(&self, endpoint: &axum::http::Uri) -> String {
        let audience = format!(
            "{}://{}",
            endpoint.scheme_str().unwrap_or("https"),
            endpoint.authority().map_or("", |a| a.as_str())
        );
        let expires = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
            + 12 * 3600;
        let part =
            |json: serde_json::Value| Base64UrlUnpadded::encode_string(json.to_string().as_bytes());
        let head = part(serde_json::json!({ "typ": "JWT", "alg": "ES256" }));
        let claims =
            part(serde_json::json!({ "aud": audience, "exp": expires, "sub": self.contact }));
        let input = format!("{head}.{claims}");
        let signature: Signature = self.key.sign(input.as_bytes());
        let token = format!(
            "{input}.{}",
            Base64UrlUnpadded::encode_string(&signature.to_bytes())
        );
        format!("vapid t={token}, k={}", self.public_key())
    }
}

/// What became of one push.
enum Sent {
    Delivered,
    /// The subscription is gone (404, 410).
    Gone,
    /// Never deliverable as it is (the push service refused it): dropped.
    Refused(u16),
    /// Try again later.
    Failed(String),
}

/// How often the queue is looked at (besides whenever this instance queues a notice).
const EVERY: Duration = Duration::from_secs(1);
/// How often deadline warnings are queued.
const DEADLINES_EVERY: Duration = Duration::from_secs(60);

/// Runs forever.
pub async fn run(services: Services, vapid: Vapid) {
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_webpki_roots()
        .https_or_http()
        .enable_http1()
        .build();
    let client: HttpsClient = Client::builder(TokioExecutor::new()).build(https);
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut deadlines_at = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = push::QUEUED.notified() => {}
        }
        if tokio::time::Instant::now() >= deadlines_at {
            deadlines_at += DEADLINES_EVERY;
            if let Err(error) = queue_deadlines(&services).await {
                tracing::warn!(%error, "queueing deadline notices failed");
            }
        }
        if let Err(error) = send_due(&services, &client, &vapid).await {
            tracing::warn!(%error, "reading the push queue failed");
        }
    }
}

async fn queue_deadlines(services: &Services) -> Result<(), sqlx::Error> {
    for due in deadlines::due(&services.db, Channel::Push).await? {
        push::warn_deadline(&services.db, &due).await?;
    }
    Ok(())
}

/// Sends every notice due now.
async fn send_due(
    services: &Services,
    client: &HttpsClient,
    vapid: &Vapid,
) -> Result<(), sqlx::Error> {
    let db = &services.db;
    while let Some(job) = push::next_due(db).await? {
        match send(client, vapid, &job).await {
            Sent::Delivered => {
                metrics::counter!("alfakraft_push_sent_total").increment(1);
                push::done(db, job.id).await?;
            }
            Sent::Gone => {
                metrics::counter!("alfakraft_push_gone_total").increment(1);
                push::gone(db, job.subscription_id).await?;
            }
            Sent::Refused(status) => {
                tracing::warn!(status, id = job.id, "the push service refused a notice");
                push::done(db, job.id).await?;
            }
            Sent::Failed(error) => {
                metrics::counter!("alfakraft_push_failed_total").increment(1);
                let again = push::failed(db, &job).await?;
                tracing::warn!(%error, id = job.id, again, "sending a notice failed");
            }
        }
    }
    Ok(())
}

/// Words, encrypts, signs and sends one notice.
async fn send(client: &HttpsClient, vapid: &Vapid, job: &push::Job) -> Sent {
    let request = match request(vapid, job) {
        Ok(request) => request,
        // A stored notice or subscription that cannot be read will not be readable later.
        Err(error) => {
            tracing::warn!(%error, id = job.id, "a notice could not be made");
            return Sent::Refused(0);
        }
    };
    let sent = tokio::time::timeout(Duration::from_secs(20), client.request(request)).await;
    let response = match sent {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => return Sent::Failed(error.to_string()),
        Err(_) => return Sent::Failed("the push service did not answer in 20 s".into()),
    };
    let status = response.status().as_u16();
    // Read (and drop) the answer, so the connection can be used again.
    let _ = response.into_body().collect().await;
    match status {
        200..=299 => Sent::Delivered,
        404 | 410 => Sent::Gone,
        429 | 500..=599 => Sent::Failed(format!("status {status}")),
        other => Sent::Refused(other),
    }
}

/// The HTTP request of one notice: the payload (JSON: title, body, url, tag) in the player's
/// language, encrypted to the device.
fn request(vapid: &Vapid, job: &push::Job) -> Result<axum::http::Request<Full<Bytes>>, String> {
    let notice: domain::Notice = serde_json::from_str(&job.notice).map_err(|e| e.to_string())?;
    let texts = Texts::of(
        job.language
            .as_deref()
            .and_then(Lang::parse)
            .unwrap_or_default(),
    );
    let (title, body) = notices::words(texts, &notice);
    let payload = serde_json::json!({
        "title": title, "body": body, "url": notice.path(), "tag": notice.path(),
    });
    let endpoint: axum::http::Uri = job
        .endpoint
        .parse()
        .map_err(|e: axum::http::uri::InvalidUri| e.to_string())?;
    let device = Base64UrlUnpadded::decode_vec(&job.p256dh).map_err(|e| e.to_string())?;
    let auth = Base64UrlUnpadded::decode_vec(&job.auth).map_err(|e| e.to_string())?;
    if auth.len() != 16 {
        return Err("the auth secret is not 16 bytes".into());
    }
    let request = WebPushBuilder::new(
        endpoint.clone(),
        PublicKey::from_sec1_bytes(&device).map_err(|e| e.to_string())?,
        Auth::clone_from_slice(&auth),
    )
    .with_valid_duration(Duration::from_secs(24 * 3600))
    .build(payload.to_string())
    .map_err(|e| e.to_string())?;
    let (mut parts, body) = request.into_parts();
    let authorization = vapid.authorization(&endpoint);
    parts.headers.insert(
        axum::http::header::AUTHORIZATION,
        authorization
            .parse()
            .map_err(|e: axum::http::header::InvalidHeaderValue| e.to_string())?,
    );
    parts
        .headers
        .insert("urgency", axum::http::HeaderValue::from_static("normal"));
    Ok(axum::http::Request::from_parts(
        parts,
        Full::new(Bytes::from(body)),
    ))
}
