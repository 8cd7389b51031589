//! A small HTTP/1 client for the server functions, as a browser page calls them (same-origin,
//! with the session cookie): what the load generator and the crash test drive a running server with.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{client::conn::http1::SendRequest, Request};
use hyper_util::rt::TokioIo;

/// One browser: a keep-alive connection and its cookies (the session's, the language's).
pub struct ApiClient {
    host: String,
    /// The `cookie` header it sends.
    cookie: Option<String>,
    jar: std::collections::BTreeMap<String, String>,
    sender: Option<SendRequest<Full<Bytes>>>,
}

/// Keeps a response's cookies as a browser does (by name; one set to expire at once is dropped)
/// and answers the `cookie` header to send from then on.
pub fn keep_cookies(
    jar: &mut std::collections::BTreeMap<String, String>,
    headers: &hyper::HeaderMap,
) -> Option<String> {
    for set in headers.get_all("set-cookie") {
        let Ok(set) = set.to_str() else { continue };
        let (pair, attributes) = set.split_once(';').unwrap_or((set, ""));
        let (name, value) = pair.trim().split_once('=').unwrap_or((pair.trim(), ""));
        if attributes.to_ascii_lowercase().contains("max-age=0") {
            jar.remove(name);
        } else {
            jar.insert(name.to_string(), value.to_string());
        }
    }
    let pairs: Vec<String> = jar.iter().map(|(n, v)| format!("{n}={v}")).collect();
    (!pairs.is_empty()).then(|| pairs.join("; "))
}

/// A failed exchange (connection refused, reset, …).
pub type ClientError = Box<dyn std::error::Error + Send + Sync>;

impl ApiClient {
    /// A client of the server at `base`, e.g. `http://127.0.0.1:3000`.
    pub fn new(base: &str) -> ApiClient {
        ApiClient {
            host: base
                .trim_start_matches("http://")
                .trim_end_matches('/')
                .to_string(),
            cookie: None,
            jar: Default::default(),
            sender: None,
        }
    }

    /// A second client with this one's cookies and a connection of its own: another tab of the
    /// same browser.
    pub fn another_tab(&self) -> ApiClient {
        ApiClient {
            host: self.host.clone(),
            cookie: self.cookie.clone(),
            jar: self.jar.clone(),
            sender: None,
        }
    }

    /// Its cookies as a `cookie` header (`id=…`, with `lang=…` once a language was chosen),
    /// once the server has set one.
    pub fn cookie(&self) -> Option<&str> {
        self.cookie.as_deref()
    }

    /// A new keep-alive connection to the server, driven by a task of its own.
    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, ClientError> {
        let stream = tokio::net::TcpStream::connect(&self.host).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(connection);
        Ok(sender)
    }

    async fn sender(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, ClientError> {
        if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
            self.sender = Some(self.connect().await?);
        }
        let sender = self.sender.as_mut().ok_or("no connection")?;
        sender.ready().await?;
        Ok(sender)
    }

    /// GETs a page; its status and body.
    pub async fn get(&mut self, path: &str) -> Result<(u16, String), ClientError> {
        self.send(Request::get(path), String::new()).await
    }

    /// GETs `path` with extra request headers; the status, the response's headers and its bytes.
    pub async fn get_with(
        &mut self,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Result<(u16, hyper::HeaderMap, Bytes), ClientError> {
        let mut request = Request::get(path);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        self.exchange(request, String::new()).await
    }

    async fn post(
        &mut self,
        path: &str,
        content_type: &str,
        body: String,
    ) -> Result<(u16, String), ClientError> {
        self.send(
            Request::post(path).header("content-type", content_type),
            body,
        )
        .await
    }

    async fn send(
        &mut self,
        request: hyper::http::request::Builder,
        body: String,
    ) -> Result<(u16, String), ClientError> {
        let (status, _, body) = self.exchange(request, body).await?;
        // Checked, not copied (a lossy conversion walks the body slowly and copies it again).
        let text = String::from_utf8(Vec::from(body))
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Ok((status, text))
    }

    /// POSTs `body` as `content_type` (an upload's multipart form, say); the status, the
    /// response's headers and its bytes.
    pub async fn post_bytes(
        &mut self,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> Result<(u16, hyper::HeaderMap, Bytes), ClientError> {
        let request = Request::post(path).header("content-type", content_type);
        self.exchange(request, body).await
    }

    async fn exchange(
        &mut self,
        request: hyper::http::request::Builder,
        body: impl Into<Bytes>,
    ) -> Result<(u16, hyper::HeaderMap, Bytes), ClientError> {
        let asks_json = request
            .headers_ref()
            .is_none_or(|headers| !headers.contains_key("accept"));
        let mut request = request
            .header("host", self.host.clone())
            .header("sec-fetch-site", "same-origin");
        if asks_json {
            request = request.header("accept", "application/json");
        }
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie.clone());
        }
        let request = request.body(Full::new(body.into()))?;
        let response = match self.sender().await?.send_request(request).await {
            Ok(response) => response,
            Err(error) => {
                self.sender = None;
                return Err(error.into());
            }
        };
        if response.headers().contains_key("set-cookie") {
            self.cookie = keep_cookies(&mut self.jar, response.headers());
        }
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, headers, body))
    }

    /// Opens `path`'s event stream (`/api/live?game=…`) on a connection of its own, as a page
    /// does beside its requests; its body yields a frame per event.
    pub async fn stream(&self, path: &str) -> Result<hyper::body::Incoming, ClientError> {
        let mut sender = self.connect().await?;
        let mut request = Request::get(path)
            .header("host", self.host.clone())
            .header("accept", "text/event-stream");
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie.clone());
        }
        let response = sender
            .send_request(request.body(Full::new(Bytes::new()))?)
            .await?;
        if !response.status().is_success() {
            return Err(format!("{path}: {}", response.status()).into());
        }
        Ok(response.into_body())
    }

    /// Calls a JSON server function; its status and body.
    pub async fn json(
        &mut self,
        path: &str,
        args: &serde_json::Value,
    ) -> Result<(u16, String), ClientError> {
        self.post(path, "application/json", args.to_string()).await
    }

    /// Calls a JSON server function as the page does, asking for its answer in postcard (see
    /// `app::wire`); its status and the answer's bytes.
    pub async fn as_page(
        &mut self,
        path: &str,
        args: &serde_json::Value,
    ) -> Result<(u16, Bytes), ClientError> {
        let request = Request::post(path)
            .header("content-type", "application/json")
            .header("accept", app::wire::POSTCARD);
        let (status, _, body) = self.exchange(request, args.to_string()).await?;
        Ok((status, body))
    }

    /// Calls a form-encoded server function (sign-up and sign-in).
    pub async fn form(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
    ) -> Result<(u16, String), ClientError> {
        let body = serde_urlencoded::to_string(fields)?;
        self.post(path, "application/x-www-form-urlencoded", body)
            .await
    }
}
