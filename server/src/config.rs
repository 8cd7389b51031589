//! Settings, from the command line or the environment; `--help` lists them all with their defaults.

use std::{net::SocketAddr, path::PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

/// Alfa Kraft: crossword word games in the browser. One binary with an embedded SQLite database.
#[derive(Debug, Clone, Parser)]
#[command(version, about)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "LEPTOS_SITE_ADDR", default_value = "127.0.0.1:3000")]
    pub addr: SocketAddr,

    /// Folder holding the built browser bundle (pkg/) and the public assets, e.g. `target/site`.
    /// Default: the site compiled into this binary.
    #[arg(long, env = "LEPTOS_SITE_ROOT")]
    pub site_root: Option<PathBuf>,

    /// Folder for the embedded database and other state; created if missing.
    #[arg(long, env = "ALFAKRAFT_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,

    /// Folder holding the dictionaries: `fst/` with `manifest.json`, and `licences/`, e.g.
    /// `dictionaries`. Default: the five shipped dictionaries compiled into this binary.
    #[arg(long, env = "ALFAKRAFT_DICTIONARIES_DIR")]
    pub dictionaries_dir: Option<PathBuf>,

    /// Database to use. Default: the SQLite file `alfakraft.db` in the data folder.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,

    /// Mark session cookies Secure; turn on when the site is served over HTTPS.
    #[arg(long, env = "ALFAKRAFT_SECURE_COOKIES", default_value_t = false)]
    pub secure_cookies: bool,

    /// An SMTP server for mail (address checks, password resets, reminders):
    /// `smtp://[user:password@]host[:port]`, spoken without TLS, so a relay on this machine or a
    /// private network that forwards with TLS. Unset: the pages offer no e-mail features.
    #[arg(long, env = "ALFAKRAFT_SMTP_URL")]
    pub smtp_url: Option<String>,

    /// Whom the mail is from.
    #[arg(
        long,
        env = "ALFAKRAFT_MAIL_FROM",
        default_value = "Alfa Kraft <noreply@localhost>"
    )]
    pub mail_from: String,

    /// The site's address as its players reach it, for the links in mail (default: the address
    /// this instance listens on).
    #[arg(long, env = "ALFAKRAFT_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Who runs this server, for the push services (in each notification's VAPID signature):
    /// `mailto:someone@example.org` or an `https://` page.
    #[arg(
        long,
        env = "ALFAKRAFT_PUSH_CONTACT",
        default_value = "mailto:noreply@localhost"
    )]
    pub push_contact: String,

    /// **Tests only**: an origin (`http://127.0.0.1:PORT`) besides the push services' that
    /// devices' subscriptions may name, for a push service on loopback. The server warns at
    /// start when it is set.
    #[arg(long, env = "ALFAKRAFT_TEST_PUSH_ORIGIN", hide = true)]
    pub test_push_origin: Option<String>,

    /// **Tests only**: the seed every new game gets, for a known deal. The server warns at start
    /// when it is set; never set it in production.
    #[arg(long, env = "ALFAKRAFT_FIXED_SEED", hide = true)]
    pub fixed_seed: Option<u64>,

    /// **Tests only**: rated games that put a player on the leaderboard, instead of the usual
    /// ten. The server warns at start when it is set.
    #[arg(long, env = "ALFAKRAFT_TEST_LEADERBOARD_GAMES", hide = true)]
    pub test_leaderboard_games: Option<u32>,

    /// Require admins to sign in with a second factor: an admin without one is sent to set it up
    /// before any admin page or request.
    #[arg(long, env = "ALFAKRAFT_ADMIN_TWO_FACTOR", default_value_t = false)]
    pub admin_two_factor: bool,

    /// New accounts (sign-ups and guests together) one address may make in an hour.
    #[arg(long, env = "ALFAKRAFT_ACCOUNTS_PER_HOUR", default_value_t = store::limits::NEW_ACCOUNTS_PER_HOUR)]
    pub accounts_per_hour: usize,

    /// Seconds a client has to send a request's head before its connection is closed.
    #[arg(long, env = "ALFAKRAFT_HEAD_TIMEOUT_SECS", default_value_t = 10)]
    pub head_timeout_secs: u64,

    /// Connections one address may hold open at once (a browser holds about six).
    #[arg(long, env = "ALFAKRAFT_CONNECTIONS_PER_ADDRESS", default_value_t = 128)]
    pub connections_per_address: usize,

    /// The most time the Master bot thinks about a move, in milliseconds.
    #[arg(long, env = "ALFAKRAFT_MASTER_THINK_MS", default_value_t = 1000)]
    pub master_think_ms: u64,

    /// The largest word-list upload an admin may send, in MB.
    #[arg(long, env = "ALFAKRAFT_UPLOAD_LIMIT_MB", default_value_t = 50)]
    pub upload_limit_mb: usize,

    /// Serve `/metrics` (Prometheus) on this separate address, e.g. `127.0.0.1:9464`; the main
    /// address does not serve it unless a token is set.
    #[arg(long, env = "ALFAKRAFT_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,

    /// Serve `/metrics` on the main address too, to requests with `Authorization: Bearer TOKEN`
    /// (and require it on the metrics address).
    #[arg(long, env = "ALFAKRAFT_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,

    /// Log filter in `tracing` syntax, e.g. `info` or `server=debug,sqlx=warn`.
    #[arg(long, env = "ALFAKRAFT_LOG", default_value = "info")]
    pub log: String,

    /// Log line format.
    #[arg(long, env = "ALFAKRAFT_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// What to do; serving is the default.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What the binary does besides serving.
#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Serve the app (the default).
    Serve,
    /// Give an existing account the admin role, then exit: how the first admin is made.
    MakeAdmin {
        /// The account's name.
        name: String,
    },
    /// Rebuild every rank from the finished rated games (replaying each), report where the
    /// stored ranks differ, and write the rebuild; then exit.
    RecomputeRanks {
        /// Only report; change nothing.
        #[arg(long)]
        check: bool,
    },
    /// Ask the server on `--addr` whether it is healthy (`/healthz`); exit 0 when it is. For a
    /// container's HEALTHCHECK, where there may be no curl.
    Healthcheck,
    /// Write a consistent copy of the SQLite database to FILE (a new file) while the server may
    /// run, then exit. For Postgres use pg_dump.
    Backup {
        /// Where to write the copy.
        file: PathBuf,
    },
    /// Replace the SQLite database with the backup FILE, after checking it; the server must be
    /// stopped. The replaced file is kept beside it as `alfakraft.db.before-restore-<seconds>`.
    Restore {
        /// The backup to restore.
        file: PathBuf,
    },
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines with key=value fields.
    Text,
    /// One JSON object per line.
    Json,
}

impl Config {
    /// The database URL in force: the explicit one, or the SQLite file in the data folder.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", self.data_dir.join("alfakraft.db").display()),
        }
    }
}
