//! A person's data, as they take it with them ("Export my data" in settings): one JSON document,
//! built on request for its owner only, of what each domain exports of them: their account and
//! address, their devices, their ranks and rank history, every game they sat in (with its GCG
//! once it is over), the word reports and player reports they filed, the chats of their games,
//! whom they follow and block, and their vacations.

use serde_json::{json, Value};

use crate::{
    accounts::{self, User},
    blocks, chat,
    db::now_ms,
    friends, library, mail, moderation, push, ranks, records, vacations, Services, StoreError,
};

/// Everything the store keeps of `user`, as JSON.
pub async fn of(services: &Services, user: &User) -> Result<Value, StoreError> {
    let db = &services.db;
    let mut account = accounts::export(db, user).await?;
    if let (Value::Object(account), Value::Object(mail)) =
        (&mut account, mail::export(db, user.id).await?)
    {
        account.extend(mail);
    }
    Ok(json!({
        "exported_at": now_ms(),
        "account": account,
        "notifications": push::export(db, user.id).await?,
        "ranks": ranks::export(db, user.id).await?,
        "games": records::export(services, user.id).await?,
        "word_reports": library::reports::export(db, user).await?,
        "player_reports": moderation::export(db, user.id).await?,
        "chats": chat::export(db, user.id).await?,
        "follows": friends::export(db, user.id).await?,
        "blocks": blocks::export(db, user.id).await?,
        "vacations": vacations::export(db, user.id).await?,
    }))
}
