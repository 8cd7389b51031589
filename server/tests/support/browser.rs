//! A browser's view of one server: the router on one database, called as a page would (same
//! origin, with the session cookie), for the suites that drive the server functions.

use std::sync::Arc;

use axum::{body::Body, http::Request};
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use rules::Action;
use serde_json::{json, Value};
use server::{router, AppState};
use store::{db::Database, Services};
use tower::ServiceExt;

/// One runtime for every test of a binary: Leptos keeps per-runtime state that a dropped runtime
/// can leave half torn down (see startup.rs).
pub fn runtime() -> &'static tokio::runtime::Runtime {
    // One runtime for every test: Leptos keeps per-runtime state that a dropped runtime can leave
    // half torn down (see startup.rs).
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(4)
            .enable_all()
            .build()
            .unwrap()
    })
}

/// One server (router and services) on one database.
pub struct Server {
    pub app: axum::Router,
    pub services: Services,
    pub db: Database,
}

pub async fn server(db: &Database) -> Server {
    server_with(db, |_| {}).await
}

/// [`server`] with the operator's settings changed by `set`.
pub async fn server_with(db: &Database, set: impl FnOnce(&mut AppState)) -> Server {
    let options = LeptosOptions::builder().output_name("alfakraft").build();
    let mut state = AppState::new(options, db.clone(), super::library(db).await, false);
    set(&mut state);
    Server {
        services: state.services.clone(),
        app: router(state),
        db: db.clone(),
    }
}

/// A browser: keeps its cookies (the session's, the language's); every body it ever received is
/// kept for the leak checks.
#[derive(Clone)]
pub struct Browser {
    pub app: axum::Router,
    /// The `cookie` header it sends: every cookie it holds.
    pub cookie: Option<String>,
    jar: std::collections::BTreeMap<String, String>,
    pub received: Arc<std::sync::Mutex<Vec<String>>>,
    /// The `Location` of the last answer, if it had one (a redirect).
    pub location: Option<String>,
}

impl Browser {
    /// The value of the cookie called `name`, if it holds one.
    pub fn cookie_named(&self, name: &str) -> Option<&str> {
        self.jar.get(name).map(String::as_str)
    }

    pub fn new(server: &Server) -> Browser {
        Browser {
            app: server.app.clone(),
            cookie: None,
            jar: Default::default(),
            received: Arc::default(),
            location: None,
        }
    }

    /// POSTs JSON to a server function as the page would (same-origin); status and body.
    pub async fn raw(
        &mut self,
        path: &str,
        body: impl Into<Body>,
        headers: &[(&str, &str)],
    ) -> (u16, String) {
        let mut request = Request::post(path);
        if !headers.iter().any(|(name, _)| *name == "content-type") {
            request = request.header("content-type", "application/json");
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        self.send(request, body.into()).await
    }

    /// Sends `request` with the session cookie; keeps the cookie and redirect it answers with,
    /// and the body, for the leak checks.
    async fn send(&mut self, request: axum::http::request::Builder, body: Body) -> (u16, String) {
        let (status, _, bytes) = self.send_for_bytes(request, body).await;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        self.received.lock().unwrap().push(text.clone());
        (status, text)
    }

    /// Calls a server function as the page does (asking for postcard, `app::wire`): the
    /// answer's media type and bytes.
    pub async fn call_as_page(&mut self, path: &str, args: Value) -> (String, Vec<u8>) {
        let request = Request::post(path)
            .header("content-type", "application/json")
            .header("accept", app::wire::POSTCARD)
            .header("sec-fetch-site", "same-origin");
        let (status, headers, bytes) = self.send_for_bytes(request, args.to_string().into()).await;
        assert_eq!(status, 200, "{path}");
        (media_type(&headers), bytes)
    }

    /// GETs `path`: the status, the response's headers and its bytes.
    pub async fn get_with_headers(&mut self, path: &str) -> (u16, axum::http::HeaderMap, Vec<u8>) {
        self.send_for_bytes(Request::get(path), Body::empty()).await
    }

    /// [`Self::send`]'s exchange: status, headers and body.
    async fn send_for_bytes(
        &mut self,
        request: axum::http::request::Builder,
        body: Body,
    ) -> (u16, axum::http::HeaderMap, Vec<u8>) {
        let mut request = request.header("host", "localhost");
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = self
            .app
            .clone()
            .oneshot(request.body(body).unwrap())
            .await
            .unwrap();
        if response.headers().contains_key("set-cookie") {
            self.cookie = server::client::keep_cookies(&mut self.jar, response.headers());
        }
        self.location = response
            .headers()
            .get("location")
            .map(|l| l.to_str().unwrap().to_string());
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, headers, bytes.to_vec())
    }

    /// Calls a JSON server function that answers 200.
    pub async fn call(&mut self, path: &str, args: Value) -> Value {
        let (status, body) = self
            .raw(path, args.to_string(), &[("sec-fetch-site", "same-origin")])
            .await;
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Calls a form-encoded server function (as a form posts it, asking for JSON back) that
    /// answers 200.
    pub async fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> Value {
        let body = serde_urlencoded::to_string(fields).unwrap();
        let headers = [
            ("content-type", "application/x-www-form-urlencoded"),
            ("accept", "application/json"),
            ("sec-fetch-site", "same-origin"),
        ];
        let (status, body) = self.raw(path, body, &headers).await;
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Posts a form as a page without scripts does (asking for HTML): status and body, with
    /// any redirect in [`Browser::location`].
    pub async fn post_form_page(&mut self, path: &str, fields: &[(&str, &str)]) -> (u16, String) {
        let body = serde_urlencoded::to_string(fields).unwrap();
        let headers = [
            ("content-type", "application/x-www-form-urlencoded"),
            ("accept", "text/html"),
            ("sec-fetch-site", "same-origin"),
        ];
        self.raw(path, body, &headers).await
    }

    /// Signs in or up (`path`) with `name` and `password`.
    pub async fn form(&mut self, path: &str, name: &str, password: &str) -> Value {
        self.post_form(path, &[("name", name), ("password", password)])
            .await
    }

    /// GETs a page as a browser would; status and body.
    pub async fn get(&mut self, path: &str) -> (u16, String) {
        self.send(Request::get(path), Body::empty()).await
    }

    pub async fn sign_up(&mut self, name: &str) -> Value {
        self.form("/api/account/sign-up", name, "a good password")
            .await
    }

    pub async fn create(&mut self, opponent: Value) -> Value {
        self.call(
            "/api/games/create",
            json!({ "new": {
                "variant": { "AlfaKraft": { "language": "English" } },
                "dictionary": "en",
                "format": "Casual",
                "opponent": opponent,
            }}),
        )
        .await
    }

    /// A two-seat pass-and-play game; its id.
    pub async fn create_local(&mut self) -> String {
        let created = self
            .create(json!({ "PassAndPlay": { "players": 2 } }))
            .await;
        ok(&created)["id"].as_str().unwrap().to_string()
    }

    pub async fn page(&mut self, id: &str) -> Value {
        self.call("/api/games/get", json!({ "id": id })).await
    }

    pub async fn act(&mut self, id: &str, version: u64, action: &Action) -> Value {
        self.call(
            "/api/games/act",
            json!({ "id": id, "expected_version": version, "action": action }),
        )
        .await
    }
}

/// Two new players in a rated friend game, as [`friend_game`] makes it.
pub struct FriendGame {
    pub ann: Browser,
    pub ann_name: String,
    pub bob: Browser,
    pub bob_name: String,
    pub id: String,
}

/// Two new players in a rated friend game: ann invites, bob accepts (and is seat 1, to move).
pub async fn friend_game(server: &Server) -> FriendGame {
    let (mut ann, mut bob) = (Browser::new(server), Browser::new(server));
    let (ann_name, bob_name) = (super::unique_name("ann"), super::unique_name("bob"));
    ann.sign_up(&ann_name).await;
    bob.sign_up(&bob_name).await;
    let id = friend_game_rated(&mut ann, &mut bob, true).await;
    FriendGame {
        ann,
        ann_name,
        bob,
        bob_name,
        id,
    }
}

/// Ann invites bob with the rated box as given; bob accepts. The game's id.
pub async fn friend_game_rated(ann: &mut Browser, bob: &mut Browser, rated: bool) -> String {
    let created = ann
        .call(
            "/api/games/create",
            json!({ "new": {
                "variant": { "AlfaKraft": { "language": "English" } },
                "dictionary": "en",
                "format": "Casual",
                "opponent": "Invite",
                "rated": rated,
            }}),
        )
        .await;
    let id = ok(&created)["id"].as_str().unwrap().to_string();
    let token = ok(&created)["invite_path"].as_str().unwrap()[8..].to_string();
    let invite = bob
        .call("/api/invites/get", json!({ "token": token }))
        .await;
    assert_eq!(ok(&invite)["rated"], json!(rated), "{invite}");
    let accepted = bob
        .call(
            "/api/invites/answer",
            json!({ "token": token, "accept": true }),
        )
        .await;
    assert_eq!(ok(&accepted), &json!(id));
    id
}

/// Runs `test` against a fresh server on every test database (SQLite, and Postgres when set).
pub fn each_database(test: impl AsyncFn(&'static str, Server)) {
    runtime().block_on(async {
        for (name, db, _dir) in super::databases().await {
            test(name, server(&db).await).await;
        }
    });
}

pub fn ok(answer: &Value) -> &Value {
    answer
        .get("Ok")
        .unwrap_or_else(|| panic!("expected Ok, got {answer}"))
}

pub fn refusal(answer: &Value) -> &Value {
    answer
        .get("Err")
        .unwrap_or_else(|| panic!("expected a refusal, got {answer}"))
}

/// A response's media type, from its headers.
fn media_type(headers: &axum::http::HeaderMap) -> String {
    headers
        .get("content-type")
        .map(|t| t.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// The player's view in a game page's answer.
#[allow(dead_code)]
pub fn view_of(page: &Value) -> rules::PlayerView {
    serde_json::from_value(ok(page)["view"].clone()).unwrap()
}
