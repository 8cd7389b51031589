//! The live streams open on this instance, counted by player, and the instance's name in the
//! presence table: what [`crate::presence`] writes from, kept with the [`crate::db::Database`].

use std::{collections::HashMap, sync::Arc};

/// The streams open here by user, and this instance's name (random for each connected
/// database, so two in one process are two instances).
#[derive(Debug, Clone)]
pub struct Streams {
    pub(crate) by_user: Arc<tokio::sync::Mutex<HashMap<i64, Count>>>,
    pub(crate) instance: Arc<str>,
}

impl Default for Streams {
    fn default() -> Streams {
        Streams {
            by_user: Default::default(),
            instance: uuid::Uuid::new_v4().simple().to_string().into(),
        }
    }
}

impl Streams {
    /// The presence row of `user` on this instance.
    pub(crate) fn row(&self, user: i64) -> String {
        format!("{}:{user}", self.instance)
    }
}

/// A player's streams here: how many are open, and how many times one opened (a closing that
/// waits out the grace goes ahead only if none opened meanwhile).
#[derive(Debug)]
pub(crate) struct Count {
    pub(crate) open: usize,
    pub(crate) openings: u64,
}
