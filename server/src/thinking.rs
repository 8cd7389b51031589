//! Where the engine thinks for the server's background work (bot moves, the Daily's bot total
//! and reviews): on a thread of its own at a lower CPU priority, so a Master bot using its whole
//! second never slows the commits of the games people are playing. When the machine is idle the
//! bot gets a whole core as before; when requests want the CPU, they come first.

use tokio::sync::oneshot;

/// How much lower than the server's threads the engine's run (Linux `nice`, 0–19). At 10 the
/// kernel gives a busy request thread about ten times the bot's share of a contended core, yet a
/// bot move on a loaded machine still ends in seconds, not minutes.
const NICENESS: i32 = 10;

/// Runs `work` on a fresh thread of lower priority and waits for its answer without holding up
/// the async workers. A panic in `work` comes back as an error.
pub async fn think<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (answer, answered) = oneshot::channel();
    std::thread::Builder::new()
        .name("engine".into())
        .spawn(move || {
            lower_priority();
            let _ = answer.send(work());
        })
        .map_err(|e| format!("no thread for the engine: {e}"))?;
    answered
        .await
        .map_err(|_| "the engine stopped without an answer".to_string())
}

/// Lowers the calling thread's priority by [`NICENESS`] below what it inherited (a thread's
/// niceness is its own on Linux).
fn lower_priority() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: gettid, getpriority and setpriority only read and set the calling thread's
    // scheduling value.
    unsafe {
        let thread = libc::gettid() as libc::id_t;
        let inherited = libc::getpriority(libc::PRIO_PROCESS, thread);
        libc::setpriority(libc::PRIO_PROCESS, thread, (inherited + NICENESS).min(19));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn answers_and_reports_a_panic() {
        assert_eq!(think(|| 6 * 7).await, Ok(42));
        assert!(think(|| -> u8 { panic!("engine bug") }).await.is_err());
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[tokio::test]
    async fn runs_at_lower_priority() {
        // SAFETY: getpriority reads the calling thread's niceness.
        let niceness = || unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as _) };
        let ours = niceness();
        assert_eq!(think(niceness).await, Ok((ours + NICENESS).min(19)));
        assert_eq!(niceness(), ours, "the caller's priority is its own");
    }
}
