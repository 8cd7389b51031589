//! `alfakraft backup FILE` and `alfakraft restore FILE`: a consistent copy of the SQLite
//! database taken while the server runs, and the way back. Postgres has its own tools
//! (`pg_dump`, `pg_restore`; docs/deploy.md).

use std::{
    fs::File,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use sqlx::{Connection, SqliteConnection};

use store::db::{Backend, Database};

/// The SQLite file a database URL names (`sqlite://data/alfakraft.db?mode=rwc` → `data/alfakraft.db`),
/// or `None` for Postgres.
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    Some(PathBuf::from(rest.split('?').next().unwrap_or(rest)))
}

/// `path` with `suffix` added to its file name (`alfakraft.db` → `alfakraft.db.lock`).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Holds the lock that says "a server uses this SQLite file", taken at start and released when
/// the process ends, however it ends: a second server on the same file, or a restore under a
/// running one, is refused instead of corrupting it.
#[derive(Debug)]
pub struct InUse {
    _lock: File,
}

impl InUse {
    /// Takes the lock beside `database` (`alfakraft.db.lock`), or says who holds it.
    pub fn take(database: &Path) -> Result<InUse, String> {
        let path = with_suffix(database, ".lock");
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(InUse { _lock: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(format!(
                "another alfakraft server is using {} (its lock {} is held): stop it first",
                database.display(),
                path.display()
            )),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(format!("cannot lock {}: {e}", path.display()))
            }
        }
    }
}

/// Writes a consistent copy of the database to `file`, which must not exist yet, while the
/// server may go on committing (SQLite's `VACUUM INTO` reads one snapshot); returns its size.
/// The copy holds what the database does (password hashes, sessions, the Daily Challenge's
/// secret), so it is readable by its owner alone (mode 0600) from the moment it exists.
pub async fn backup(db: &Database, file: &Path) -> Result<u64, String> {
    if db.backend == Backend::Postgres {
        return Err("the database is Postgres: back it up with pg_dump (docs/deploy.md)".into());
    }
    // Made empty first, with its mode: SQLite writes into an empty file and keeps its mode.
    let mut options = File::options();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(file).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            format!("{} exists already: name a new file", file.display())
        }
        _ => format!("cannot write {}: {e}", file.display()),
    })?;
    sqlx::query("VACUUM INTO $1")
        .bind(file.to_string_lossy().into_owned())
        .execute(&db.pool)
        .await
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    std::fs::metadata(file)
        .map(|m| m.len())
        .map_err(|e| format!("{}: {e}", file.display()))
}

/// What [`restore`] did.
#[derive(Debug)]
pub struct Restored {
    /// Games in the restored database.
    pub games: i64,
    /// Where the database it replaced was moved, if there was one.
    pub previous: Option<PathBuf>,
}

/// Puts the backup `file` in place of the SQLite database `database`: checks the backup (SQLite's
/// integrity check, and that it is an Alfa Kraft database), refuses while a server uses the
/// database, moves the current file (with its WAL) aside as `…before-restore-<seconds>`, and
/// copies the backup in. The next start applies any migration the backup predates.
pub async fn restore(file: &Path, database: &Path) -> Result<Restored, String> {
    let games = check(file).await?;
    let _in_use = InUse::take(database)?;
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let mut previous = None;
    if database.exists() {
        let aside = with_suffix(database, &format!(".before-restore-{stamp}"));
        for part in ["", "-wal", "-shm"] {
            let from = with_suffix(database, part);
            if from.exists() {
                std::fs::rename(&from, with_suffix(&aside, part))
                    .map_err(|e| format!("cannot move {} aside: {e}", from.display()))?;
            }
        }
        previous = Some(aside);
    }
    let incoming = with_suffix(database, ".restoring");
    std::fs::copy(file, &incoming)
        .and_then(|_| std::fs::rename(&incoming, database))
        .map_err(|e| {
            format!(
                "cannot copy {} to {}: {e}",
                file.display(),
                database.display()
            )
        })?;
    Ok(Restored { games, previous })
}

/// Opens `file` read-only and checks it is a whole Alfa Kraft database; its number of games.
async fn check(file: &Path) -> Result<i64, String> {
    let not_a_backup =
        |e: sqlx::Error| format!("{} is not an Alfa Kraft backup: {e}", file.display());
    if !file.is_file() {
        return Err(format!("{} does not exist", file.display()));
    }
    let mut conn = SqliteConnection::connect(&format!("sqlite://{}?mode=ro", file.display()))
        .await
        .map_err(not_a_backup)?;
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(not_a_backup)?;
    if integrity != "ok" {
        return Err(format!("{} is damaged: {integrity}", file.display()));
    }
    sqlx::query_scalar::<_, String>("SELECT value FROM app_meta WHERE key = 'created_at'")
        .fetch_one(&mut conn)
        .await
        .map_err(not_a_backup)?;
    let games = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut conn)
        .await
        .map_err(not_a_backup)?;
    conn.close().await.ok();
    Ok(games)
}
