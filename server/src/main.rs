//! Starts the server: read the settings, open (or create) the database, serve until told to stop.

use std::process::ExitCode;

use std::sync::Arc;

use clap::Parser;
use leptos::prelude::LeptosOptions;
use server::{
    config::{Command, Config, LogFormat},
    router, AppState,
};
use store::{db::Database, library::Library, Services};
use tracing_subscriber::EnvFilter;

/// Password hashing takes 19 MiB a time. glibc serves a freed block that big from its heap next
/// time, and keeps it: 200 sign-ups at once left the server at 673 MB. Blocks over 1 MiB mapped
/// on their own go back to the system when freed (the same burst: 76 MB at the peak, 38 MB
/// after; `scripts/signupbench.py`).
#[allow(unsafe_code)]
fn return_big_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator, under the allocator's own lock.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    return_big_blocks();
    let config = Config::parse();
    init_logging(&config);
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "stopped");
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Does what the command line asks: a command (make-admin, backup, restore, recompute-ranks,
/// healthcheck), or, by default, serves.
async fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(Command::Healthcheck) = &config.command {
        return healthcheck(config.addr).await;
    }
    if config.database_url.is_none() {
        std::fs::create_dir_all(&config.data_dir).map_err(|e| {
            format!(
                "cannot create data folder {}: {e}",
                config.data_dir.display()
            )
        })?;
    }
    warn_of_test_settings(&config);
    let database_url = config.database_url();
    let sqlite_file = server::backup::sqlite_file(&database_url);
    if let Some(Command::Restore { file }) = &config.command {
        let database = sqlite_file.ok_or("the database is Postgres: restore it with pg_restore")?;
        return restore(file, &database).await;
    }
    // One server per SQLite file: a second one, or a restore, is refused while this one runs.
    let in_use = match (&sqlite_file, &config.command) {
        (Some(file), None | Some(Command::Serve)) => Some(server::backup::InUse::take(file)?),
        _ => None,
    };
    let mut db = store::connect(&database_url)
        .await
        .map_err(|e| format!("cannot open database {database_url}: {e}"))?;
    db.fixed_seed = config.fixed_seed;
    match &config.command {
        Some(Command::MakeAdmin { name }) => return make_admin(&db, name).await,
        Some(Command::Backup { file }) => {
            let bytes = server::backup::backup(&db, file).await?;
            println!(
                "backed up {database_url} to {} ({bytes} bytes)",
                file.display()
            );
            return Ok(());
        }
        _ => {}
    }
    let library = open_library(&config, &db).await?;
    if let Some(Command::RecomputeRanks { check }) = &config.command {
        return recompute_ranks(Services::new(db, library), *check).await;
    }
    serve(config, db, library, &database_url).await?;
    drop(in_use);
    Ok(())
}

/// The settings that only tests may set, said aloud at start.
fn warn_of_test_settings(config: &Config) {
    if let Some(seed) = config.fixed_seed {
        tracing::warn!(
            seed,
            "ALFAKRAFT_FIXED_SEED is set: every new game gets the same deal (tests only)"
        );
    }
    if let Some(games) = config.test_leaderboard_games {
        tracing::warn!(
            games,
            "ALFAKRAFT_TEST_LEADERBOARD_GAMES is set: the leaderboard lists players with fewer rated games (tests only)"
        );
    }
}

/// `alfakraft restore FILE`.
async fn restore(
    file: &std::path::Path,
    database: &std::path::Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let done = server::backup::restore(file, database).await?;
    println!(
        "restored {} ({} games) to {}{}",
        file.display(),
        done.games,
        database.display(),
        match &done.previous {
            Some(previous) => format!("; the database it replaced is {}", previous.display()),
            None => String::new(),
        }
    );
    Ok(())
}

/// `alfakraft make-admin NAME`.
async fn make_admin(db: &Database, name: &str) -> Result<(), Box<dyn std::error::Error>> {
    match store::accounts::make_admin(db, name).await? {
        true => {
            println!("{name} is now an admin");
            Ok(())
        }
        false => Err(format!("there is no account called {name}").into()),
    }
}

/// The dictionaries: the shipped lists (from the binary, or the folder the settings name),
/// imported where the database lacks them, and every active version loaded.
async fn open_library(
    config: &Config,
    db: &Database,
) -> Result<Arc<Library>, Box<dyn std::error::Error>> {
    let catalog = match &config.dictionaries_dir {
        Some(dir) => dictionaries::catalog::Catalog::load(dir),
        None => dictionaries::catalog::Catalog::embedded(),
    }
    .map_err(|e| format!("cannot load the dictionaries: {e}"))?;
    let library = Library::open(db.clone(), Arc::new(catalog))
        .await
        .map_err(|e| format!("cannot load the dictionaries: {e}"))?;
    for at in library.loaded() {
        tracing::info!(dictionary = %at, "dictionary loaded");
    }
    Ok(library)
}

/// `alfakraft recompute-ranks [--check]`.
async fn recompute_ranks(
    services: Services,
    check: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let done = store::ranks::recompute(&services, !check).await?;
    println!(
        "{} rated games replayed, {} ranks rebuilt, {} differed from the stored ones{}",
        done.games,
        done.players,
        done.differences.len(),
        if done.written {
            "; the rebuild is written"
        } else {
            " (nothing written: --check)"
        }
    );
    for (name, dictionary, stored, rebuilt) in &done.differences {
        println!(
            "  {name} in {}: stored {stored}, rebuilt {rebuilt}",
            dictionary.as_str()
        );
    }
    Ok(())
}

/// Raises this process's open-file limit to the most the system allows: every open live page is
/// a connection, and the usual default of 1,024 would refuse the thousandth.
fn raise_open_files() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(limit, "open files allowed"),
        Err(error) => tracing::warn!(%error, "the open-file limit could not be raised"),
    }
}

/// Serves until told to stop: the background jobs, the metrics, the app.
async fn serve(
    config: Config,
    db: Database,
    library: Arc<Library>,
    database_url: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    backfill(Services::new(db.clone(), library.clone()));
    raise_open_files();
    let site = site_files(&config)?;
    let site_root = config.site_root.clone().unwrap_or_default();
    let leptos_options = LeptosOptions::builder()
        .output_name("alfakraft")
        .site_root(site_root.to_string_lossy().as_ref())
        .site_addr(config.addr)
        .build();
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let url = format!("http://{}", listener.local_addr()?);
    tracing::info!(%url, database = %database_url, version = server::VERSION, "listening");
    println!("Alfa Kraft is running at {url}");
    sweep_every_minute(db.clone());
    let mut state = AppState::new(leptos_options, db, library, config.secure_cookies);
    state.site = site;
    state.upload_limit = config.upload_limit_mb.saturating_mul(1024 * 1024);
    state.services.new_accounts = Arc::new(store::limits::Limiter::new_accounts(
        config.accounts_per_hour,
    ));
    state.services.admins_need_two_factor = config.admin_two_factor;
    if let Some(games) = config.test_leaderboard_games {
        state.services.leaderboard_games = games;
    }
    start_mail(&config, &mut state, &url)?;
    start_push(&config, &mut state).await?;
    serve_metrics(&config, &mut state).await?;
    start_workers(&config, &state.services);
    let limits = server::serve::Limits {
        head: std::time::Duration::from_secs(config.head_timeout_secs),
        per_address: config.connections_per_address,
    };
    server::serve::serve(listener, router(state), limits, shutdown_signal()).await?;
    Ok(())
}

/// Games stored before their results or their list summaries were kept get them now, in the
/// background.
fn backfill(services: Services) {
    tokio::spawn(async move {
        match store::results::backfill(&services).await {
            Ok(0) => {}
            Ok(games) => tracing::info!(games, "results of earlier games recorded"),
            Err(error) => tracing::warn!(%error, "recording earlier games' results failed"),
        }
        match store::games::summaries::backfill(&services).await {
            Ok(0) => {}
            Ok(games) => tracing::info!(games, "summaries of earlier games stored"),
            Err(error) => tracing::warn!(%error, "storing earlier games' summaries failed"),
        }
    });
}

/// Where the bundle and the public assets come from: the folder the settings name, or the
/// binary itself (refused when it was built without them).
fn site_files(config: &Config) -> Result<server::site::SiteFiles, Box<dyn std::error::Error>> {
    match &config.site_root {
        Some(_) => Ok(server::site::SiteFiles::Folder),
        None if server::site::embedded_is_complete() => {
            let (files, bytes) = server::site::embedded_size();
            tracing::info!(files, bytes, "serving the site compiled into this binary");
            Ok(server::site::SiteFiles::Embedded)
        }
        None => Err(
            "this binary was built without the site (run scripts/build.sh, \
                     or pass --site-root target/site)"
                .into(),
        ),
    }
}

/// Expired sessions and invites, and stale presence, are swept every minute (reading either
/// already ignores expiry); this instance's presence rows are refreshed every heartbeat.
fn sweep_every_minute(db: Database) {
    let sessions = store::accounts::sessions::DbSessionStore::new(db.clone());
    let heartbeat_db = db.clone();
    tokio::spawn(async move {
        let mut every_minute = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every_minute.tick().await;
            match sessions.delete_expired().await {
                Ok(n) if n > 0 => tracing::info!(sessions = n, "expired sessions removed"),
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "sweeping expired sessions failed"),
            }
            match store::seating::expire_invites(&db).await {
                Ok(n) if n > 0 => tracing::info!(games = n, "expired invites called off"),
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "expiring invites failed"),
            }
            if let Err(error) = store::presence::sweep(&db).await {
                tracing::warn!(%error, "sweeping stale presence failed");
            }
        }
    });
    // This instance's open pages stay present: one write per heartbeat for all of them.
    let db = heartbeat_db;
    tokio::spawn(async move {
        let mut heartbeat = tokio::time::interval(store::presence::HEARTBEAT);
        loop {
            heartbeat.tick().await;
            if let Err(error) = store::presence::refresh_instance(&db).await {
                tracing::warn!(%error, "refreshing presence failed");
            }
        }
    });
}

/// `/metrics`, when the operator asked for it: on its own address, behind a token on the main
/// one, or both.
async fn serve_metrics(
    config: &Config,
    state: &mut AppState,
) -> Result<(), Box<dyn std::error::Error>> {
    if config.metrics_addr.is_some() || config.metrics_token.is_some() {
        state.monitoring = Some(server::monitoring::Monitoring::start(
            config.metrics_token.clone(),
        ));
    }
    if let Some(addr) = config.metrics_addr {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen for metrics on {addr}: {e}"))?;
        tracing::info!(url = %format!("http://{}/metrics", listener.local_addr()?), "metrics");
        let metrics = server::monitoring::own_router(state.clone());
        tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, metrics).await {
                tracing::error!(%error, "the metrics listener stopped");
            }
        });
    }
    Ok(())
}

/// The background workers: bots, the statistics' move values, the Daily Challenge, the
/// dictionaries' sync, the clock and the leagues.
fn start_workers(config: &Config, services: &Services) {
    engine::bot::set_master_budget(std::time::Duration::from_millis(config.master_think_ms));
    engine::bot::set_master_courtesy(server::workers::thinking::wait_for_quiet);
    let tries = services.tries.clone();
    tokio::spawn(server::workers::bots::run(services.clone(), tries.clone()));
    tokio::spawn(server::workers::move_values::run(
        services.clone(),
        tries.clone(),
    ));
    tokio::spawn(server::workers::daily::run(services.clone(), tries));
    tokio::spawn(server::workers::dictionary_sync::run(services.clone()));
    tokio::spawn(server::workers::clock::run(services.clone()));
    tokio::spawn(server::workers::competitions::run(services.clone()));
}

/// The push task, with the VAPID key made at the first start and kept in the database.
async fn start_push(config: &Config, state: &mut AppState) -> Result<(), String> {
    let vapid = server::workers::push::Vapid::load(&state.services, &config.push_contact).await?;
    state.services.push_key = Some(vapid.public_key());
    if let Some(origin) = &config.test_push_origin {
        tracing::warn!(%origin, "ALFAKRAFT_TEST_PUSH_ORIGIN is set: subscriptions may name it (tests only)");
        state.services.push_test_origins = vec![origin.trim_end_matches('/').to_string()];
    }
    tokio::spawn(server::workers::push::run(state.services.clone(), vapid));
    Ok(())
}

/// The mail task, when an SMTP server is configured; the pages offer e-mail features only then.
fn start_mail(config: &Config, state: &mut AppState, url: &str) -> Result<(), String> {
    let Some(smtp) = &config.smtp_url else {
        return Ok(());
    };
    let mailer = server::workers::mail::Mailer::new(smtp, &config.mail_from)?;
    let base = config.public_url.as_deref().unwrap_or(url);
    let base = base.trim_end_matches('/').to_string();
    state.services.mail_base = Some(base.clone());
    tokio::spawn(server::workers::mail::run(
        state.services.clone(),
        mailer,
        base,
    ));
    Ok(())
}

/// Asks the server listening on `addr` (on this machine when it listens on every address) for
/// `/healthz`.
async fn healthcheck(mut addr: std::net::SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    if addr.ip().is_unspecified() {
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let mut client = server::client::ApiClient::new(&format!("http://{addr}"));
    match tokio::time::timeout(std::time::Duration::from_secs(5), client.get("/healthz")).await {
        Ok(Ok((200, _))) => Ok(()),
        Ok(Ok((status, body))) => Err(format!("{addr} answered {status}: {body}").into()),
        Ok(Err(error)) => Err(format!("{addr}: {error}").into()),
        Err(_) => Err(format!("{addr} did not answer within 5 s").into()),
    }
}

fn init_logging(config: &Config) {
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match config.log_format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            term.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down");
    server::events::close_all();
}
