//! A real service on loopback for a test, written in Python (an SMTP server, a push service):
//! started with a folder it writes each message it receives to, as a numbered file; it prints
//! one line first (its port, or what a client needs), and is killed when dropped.

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::Duration,
};

pub struct Loopback {
    child: Child,
    /// The first line it printed.
    pub first_line: String,
    /// Where it writes what it receives.
    pub folder: tempfile::TempDir,
    /// The extension of the files it writes.
    extension: &'static str,
}

impl Drop for Loopback {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Python that has `module`: the one on the path, or the system's (where Debian's packages put
/// it when the path's Python is another, as with pyenv). scripts/setup.sh installs them.
fn python(module: &str) -> &'static str {
    ["python3", "/usr/bin/python3"]
        .into_iter()
        .find(|python| {
            Command::new(python)
                .args(["-c", &format!("import {module}")])
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .unwrap_or_else(|| panic!("Python's {module} is installed (scripts/setup.sh installs it)"))
}

/// Starts `support/<script>` with a Python that has `module`; it writes `.<extension>` files.
pub fn start(script: &str, module: &str, extension: &'static str) -> Loopback {
    use std::io::BufRead;
    let folder = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support")
        .join(script);
    let mut child = Command::new(python(module))
        .arg(script)
        .arg(folder.path())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the loopback service");
    let mut first_line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    Loopback {
        child,
        first_line,
        folder,
        extension,
    }
}

impl Loopback {
    /// What it received so far, in order.
    pub fn received(&self) -> Vec<String> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.folder.path())
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == self.extension))
            .collect();
        files.sort();
        files
            .iter()
            .map(|path| std::fs::read_to_string(path).unwrap())
            .collect()
    }

    /// Waits (up to 30 s) until `count` messages have arrived; returns them all.
    pub async fn wait_for(&self, count: usize) -> Vec<String> {
        for _ in 0..300 {
            let received = self.received();
            if received.len() >= count {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{count} messages did not arrive: {:?}", self.received());
    }
}

/// Runs `test` on SQLite, then on a Postgres database of its own when there is a test Postgres
/// (CI must have one). Of its own, because every server's mail and push tasks send whatever
/// their database's queues hold: on a shared database, one test's server would send another
/// test's letters to its own loopback service.
pub fn each_database_url(test: impl Fn(Option<&str>)) {
    test(None);
    let own = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(super::own_postgres());
    match own {
        Some(url) => test(Some(&url)),
        None => eprintln!("ALFAKRAFT_TEST_POSTGRES_URL is not set: Postgres skipped"),
    }
}

/// Signs a new player up on the server at `base`; the client keeps the session.
pub async fn signed_up(base: &str, name: &str) -> server::client::ApiClient {
    let mut client = server::client::ApiClient::new(base);
    let (status, body) = client
        .form(
            "/api/account/sign-up",
            &[("name", name), ("password", "a good password")],
        )
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    client
}
