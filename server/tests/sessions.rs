//! The session store against real databases: records round-trip, update in place, expire and
//! disappear on delete.

use store::accounts::sessions::DbSessionStore;
use support::databases;
use tower_sessions::{
    cookie::time::{Duration, OffsetDateTime},
    session::{Id, Record},
    SessionStore,
};

mod support;

fn record(expires_in: Duration) -> Record {
    let mut data = std::collections::HashMap::new();
    // No account has a negative id: the record loads as it was saved, with no account beside it.
    data.insert("user_id".to_string(), serde_json::json!(-42));
    Record {
        id: Id::default(),
        data,
        expiry_date: OffsetDateTime::now_utc() + expires_in,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_round_trip_update_and_delete() {
    for (name, db, _dir) in databases().await {
        let store = DbSessionStore::new(db);
        let mut rec = record(Duration::days(1));
        store.save(&rec).await.unwrap();
        let loaded = store.load(&rec.id).await.unwrap().expect("saved");
        assert_eq!(loaded.data, rec.data, "{name}");
        rec.data
            .insert("theme".to_string(), serde_json::json!("dark"));
        store.save(&rec).await.unwrap();
        assert_eq!(
            store.load(&rec.id).await.unwrap().unwrap().data.len(),
            2,
            "{name}: updated in place"
        );
        store.delete(&rec.id).await.unwrap();
        assert!(store.load(&rec.id).await.unwrap().is_none(), "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_sessions_do_not_load_and_are_swept() {
    for (name, db, _dir) in databases().await {
        let store = DbSessionStore::new(db);
        let old = record(Duration::seconds(-5));
        store.save(&old).await.unwrap();
        assert!(store.load(&old.id).await.unwrap().is_none(), "{name}");
        assert!(store.delete_expired().await.unwrap() >= 1, "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_session_never_takes_an_existing_id() {
    for (name, db, _dir) in databases().await {
        let store = DbSessionStore::new(db);
        let mut first = record(Duration::days(1));
        store.create(&mut first).await.unwrap();
        // A second record that happens to draw the same id gets another one; the first stays.
        let mut second = record(Duration::days(1));
        second.id = first.id;
        second
            .data
            .insert("other".to_string(), serde_json::json!(true));
        store.create(&mut second).await.unwrap();
        assert_ne!(second.id, first.id, "{name}");
        let kept = store.load(&first.id).await.unwrap().expect("the first");
        assert_eq!(
            kept.data, first.data,
            "{name}: the first session is untouched"
        );
        let made = store.load(&second.id).await.unwrap().expect("the second");
        assert_eq!(made.data, second.data, "{name}");
    }
}

/// The session's row: when it expires (unix seconds).
async fn expires_at(db: &store::db::Database, id: &str) -> i64 {
    sqlx::query_scalar("SELECT expires_at FROM sessions WHERE id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_used_on_a_new_day_lives_thirty_days_from_then() {
    for (name, db, _dir) in databases().await {
        let server = support::browser::server(&db).await;
        let mut ann = support::browser::Browser::new(&server);
        ann.sign_up(&support::unique_name("ann")).await;
        let id = ann.cookie_named("id").unwrap().to_string();
        let id = id.as_str();
        let store = DbSessionStore::new(db.clone());
        let now = OffsetDateTime::now_utc();
        let today = now.unix_timestamp() / 86_400;
        let ten_days = (now + Duration::days(10)).unix_timestamp();
        // As if signed in 20 days ago and last seen yesterday: ten days left.
        let mut rec = store.load(&id.parse().unwrap()).await.unwrap().unwrap();
        rec.data
            .insert("seen_day".into(), serde_json::json!(today - 1));
        rec.expiry_date = now + Duration::days(10);
        store.save(&rec).await.unwrap();
        ann.call("/api/account/me", serde_json::json!({})).await;
        let renewed = expires_at(&db, id).await;
        assert!(
            renewed >= (now + Duration::days(30)).unix_timestamp() - 60,
            "{name}: used today, the session lives 30 days from now"
        );
        // Used again the same day, it is not written again.
        sqlx::query("UPDATE sessions SET expires_at = $1 WHERE id = $2")
            .bind(ten_days)
            .bind(id)
            .execute(&db.pool)
            .await
            .unwrap();
        ann.call("/api/account/me", serde_json::json!({})).await;
        assert_eq!(
            expires_at(&db, id).await,
            ten_days,
            "{name}: one write a day"
        );
    }
}

/// What `/api/account/me` says of the caller: name and whether an admin.
async fn me(browser: &mut support::browser::Browser) -> (serde_json::Value, serde_json::Value) {
    let answer = browser.call("/api/account/me", serde_json::json!({})).await;
    (answer["name"].clone(), answer["admin"].clone())
}

/// Session `id` as one saved before sessions kept their user beside them: no `user_id`, and the
/// record `data` when given.
async fn unlinked(db: &store::db::Database, id: &str, data: Option<&str>) {
    sqlx::query("UPDATE sessions SET user_id = NULL, data = COALESCE($1, data) WHERE id = $2")
        .bind(data)
        .bind(id)
        .execute(&db.pool)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_reads_its_users_account_as_it_is_now_and_never_stores_it() {
    for (name, db, _dir) in databases().await {
        let server = support::browser::server(&db).await;
        let mut ann = support::browser::Browser::new(&server);
        let ann_name = support::unique_name("ann");
        ann.sign_up(&ann_name).await;
        let id = ann.cookie_named("id").unwrap().to_string();
        #[derive(sqlx::FromRow)]
        struct Stored {
            user_id: Option<i64>,
            data: String,
        }
        let Stored { user_id, data } =
            sqlx::query_as("SELECT user_id, data FROM sessions WHERE id = $1")
                .bind(&id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        let ann_id = store::accounts::sign_in(&db, &ann_name, "a good password")
            .await
            .unwrap()
            .id;
        assert_eq!(user_id, Some(ann_id), "{name}: the user beside the record");
        assert!(!data.contains("account"), "{name}: {data}");
        assert_eq!(
            me(&mut ann).await,
            (ann_name.clone().into(), false.into()),
            "{name}"
        );
        // The account is read with the session on every request: a change shows at once.
        store::accounts::make_admin(&db, &ann_name).await.unwrap();
        assert_eq!(
            me(&mut ann).await,
            (ann_name.clone().into(), true.into()),
            "{name}"
        );
        // A session saved before sessions kept their user beside them still signs its user in.
        unlinked(&db, &id, None).await;
        assert_eq!(
            me(&mut ann).await,
            (ann_name.clone().into(), true.into()),
            "{name}"
        );
        // A record that claims an account under the key is not believed: only the row counts.
        let forged =
            format!(r#"{{"id":{ann_id},"name":"someone_else","role":"admin","guest":false}}"#);
        let store = DbSessionStore::new(db.clone());
        let mut rec = store.load(&id.parse().unwrap()).await.unwrap().unwrap();
        rec.data
            .insert("account".into(), serde_json::from_str(&forged).unwrap());
        unlinked(&db, &id, Some(&serde_json::to_string(&rec).unwrap())).await;
        assert_eq!(
            me(&mut ann).await,
            (ann_name.clone().into(), true.into()),
            "{name}"
        );
    }
}
