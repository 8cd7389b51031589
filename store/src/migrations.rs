//! Applying the schema's migrations, with one allowance: a migration whose comments were
//! reworded after databases applied it. sqlx keeps each applied migration's checksum and refuses
//! a database whose migration files changed since; a database that has a reworded migration's
//! old checksum (listed below) is given the new one first, so any other change is still refused.

use sqlx::{migrate::Migrator, AnyPool, Executor};

static SQLITE: Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES: Migrator = sqlx::migrate!("../migrations/postgres");

/// Migrations reworded after release: the version, and the SHA-384 (hex) of the text databases
/// applied. 9 and 11 cited a rules document by a name the repository does not have; they cite
/// `docs/rules.md` now. The text is the same for both backends.
const REWORDED: &[(i64, &str)] = &[
    (
        9,
        "341d112c083ac60ee15837494eeb0b1121be64b2529c2d8e1d76afcc010c4496533711e1415f0a4864e2fcd1e7a36404",
    ),
    (
        11,
        "d50ab03bf2ed2de37192fda6c13f8c80a538b9321800ac271072533a98b56cced2a5150c6e730d0cc27ab89cfaccbca8",
    ),
];

/// Applies every migration `pool`'s database (Postgres when `postgres`, else SQLite) has not
/// applied yet.
pub(crate) async fn run(pool: &AnyPool, postgres: bool) -> Result<(), sqlx::Error> {
    let migrator = if postgres { &POSTGRES } else { &SQLITE };
    accept_reworded(pool, postgres, migrator).await?;
    migrator.run(pool).await?;
    Ok(())
}

/// Gives a database that applied a [`REWORDED`] migration's old text its new checksum.
async fn accept_reworded(
    pool: &AnyPool,
    postgres: bool,
    migrator: &Migrator,
) -> Result<(), sqlx::Error> {
    let exists = if postgres {
        "SELECT COUNT(*) FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_name = '_sqlx_migrations'"
    } else {
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"
    };
    let tables: i64 = sqlx::query_scalar(exists).fetch_one(pool).await?;
    if tables == 0 {
        return Ok(());
    }
    for (version, old) in REWORDED {
        let Some(migration) = migrator.iter().find(|m| m.version == *version) else {
            continue;
        };
        let changed = pool
            .execute(
                sqlx::query(
                    "UPDATE _sqlx_migrations SET checksum = $1 WHERE version = $2 AND checksum = $3",
                )
                .bind(migration.checksum.to_vec())
                .bind(version)
                .bind(from_hex(old)),
            )
            .await?;
        if changed.rows_affected() > 0 {
            tracing::info!(version, "a reworded migration's checksum renewed");
        }
    }
    Ok(())
}

fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
        .collect()
}
