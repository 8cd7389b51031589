//! Where the engine thinks for the server's background work (bot moves, the Daily's bot total
//! and reviews): on a thread of its own in Linux's idle scheduling class, so a Master bot using
//! its whole second never slows the commits of the games people are playing. When a core is
//! free the bot has all of it; when a request's thread wakes, it takes the core at once (a
//! lowered `nice` was not enough: the kernel let the bot finish its slice first, and commits
//! beside 20 Master games had a p99 a quarter higher than without them).

use std::{
    sync::atomic::{AtomicUsize, Ordering},
    time::{Duration, Instant},
};

use axum::{extract::Request, middleware::Next, response::Response};
use tokio::sync::oneshot;

/// Requests being served right now (their handlers running; a live stream's body, once its
/// head is sent, is not counted).
static SERVING: AtomicUsize = AtomicUsize::new(0);

/// Longest the Master bot waits at one courtesy point for the server to fall quiet: on a server
/// that is never quiet, its search still moves on (a few percent of a core) and its hard limit
/// ends the move.
const MOST_WAIT: Duration = Duration::from_millis(20);

/// The middleware that counts [`SERVING`]; outermost, so it counts every request.
pub async fn requests_first(request: Request, next: Next) -> Response {
    let _serving = Serving::begin();
    next.run(request).await
}

/// One request being served, until dropped (also when its client goes away mid-request).
struct Serving;

impl Serving {
    fn begin() -> Serving {
        SERVING.fetch_add(1, Ordering::Relaxed);
        Serving
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        SERVING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The Master bot's courtesy ([`engine::bot::set_master_courtesy`]): waits while requests are
/// being served, at most [`MOST_WAIT`]. The idle scheduling class already gives a request the
/// CPU at once; this also keeps the search from running between a request's steps (its
/// database waits), where it would push the request's data out of the caches.
pub fn wait_for_quiet() {
    let until = Instant::now() + MOST_WAIT;
    while SERVING.load(Ordering::Relaxed) > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Runs `work` on a fresh thread of idle priority and waits for its answer without holding up
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

/// Puts the calling thread in the idle scheduling class (`SCHED_IDLE`, a thread's own on
/// Linux): it runs only on a core no other thread wants, and any waking thread preempts it.
/// A Master move on a saturated machine is bounded by the engine's own hard limit.
#[allow(unsafe_code)]
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: sched_setscheduler with pid 0 sets only the calling thread's policy, from a
    // parameter that lives for the call; SCHED_IDLE needs no privilege.
    unsafe {
        let param = libc::sched_param { sched_priority: 0 };
        if libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) != 0 {
            tracing::warn!(
                error = %std::io::Error::last_os_error(),
                "the engine thread stays at normal priority"
            );
        }
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

    #[test]
    fn counts_requests_being_served_until_they_end() {
        let before = SERVING.load(Ordering::Relaxed);
        let serving = [Serving::begin(), Serving::begin()];
        assert_eq!(SERVING.load(Ordering::Relaxed), before + 2);
        drop(serving);
        assert_eq!(SERVING.load(Ordering::Relaxed), before);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    #[allow(unsafe_code)]
    async fn runs_in_the_idle_class() {
        // SAFETY: sched_getscheduler reads the calling thread's policy.
        let policy = || unsafe { libc::sched_getscheduler(0) };
        let ours = policy();
        assert_eq!(think(policy).await, Ok(libc::SCHED_IDLE));
        assert_eq!(policy(), ours, "the caller's policy is its own");
        assert_ne!(ours, libc::SCHED_IDLE);
    }
}
