//! Serving connections: hyper's HTTP/1 with a deadline for each request's head and for each
//! pause in a request's body, and a cap on the connections one address may hold, so idle and
//! half-sent connections (slowloris) cannot pile up. `axum::serve` has neither.

use std::{
    collections::HashMap,
    future::Future,
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{body::Body, extract::ConnectInfo, http::Request, Router};
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    server::graceful::GracefulShutdown,
    service::TowerToHyperService,
};
use tokio::net::TcpListener;
use tower::ServiceExt;

/// What a client gets before it is cut off.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// To send a request's head (line and headers).
    pub head: Duration,
    /// Connections open at once from one address.
    pub per_address: usize,
}

/// Connections open per address.
#[derive(Clone, Default)]
struct Open(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One connection's place in [`Open`], given back when the connection ends.
struct Slot {
    open: Open,
    ip: IpAddr,
}

impl Open {
    fn take(&self, ip: IpAddr, most: usize) -> Option<Slot> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_default();
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(Slot {
            open: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// How long requests under way may take to finish once shutdown begins: an orchestrator's
/// grace period is usually 10 s (Kubernetes 30 s), so the process is gone before it is killed.
pub const DRAIN: Duration = Duration::from_secs(8);

/// Serves `app` on `listener` until `shutdown` resolves; then accepts nothing more, lets the
/// requests under way finish (closing idle keep-alive connections at once) for up to [`DRAIN`],
/// and returns.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let open = Open::default();
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, address) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: a moment's rest, then on.
                Err(error) => {
                    tracing::warn!(%error, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = open.take(address.ip(), limits.per_address) else {
            tracing::debug!(%address, "too many connections from one address");
            metrics::counter!("alfakraft_rate_limited_total", "limit" => "connections")
                .increment(1);
            continue;
        };
        // Pages stream in several writes: without TCP_NODELAY, Nagle's algorithm and the
        // client's delayed ACK add 40 ms to every page.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::warn!(%error, "TCP_NODELAY not set");
        }
        let app = app.clone();
        let service = tower::service_fn(move |mut request: Request<hyper::body::Incoming>| {
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(address));
            app.clone().oneshot(request.map(Body::new))
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.head)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            seconds = DRAIN.as_secs(),
            "requests still under way after the drain period: stopping anyway"
        );
    }
    Ok(())
}
