//! An admin's uploads against the real binary, whose memory the kernel counts: a large list, and
//! a hunspell pair whose affixes multiply, take memory bounded by a small multiple of what was
//! sent; and builds run one at a time. Regressions: a 49 MiB list of one-letter lines peaked at
//! 1.85 GB, three at once at 4.4 GB, and an 851-byte affix bomb at 2.3 GB.

use std::time::{Duration, Instant};

use server::client::ApiClient;

mod support;

/// A server of its own with a signed-in admin.
async fn admin_on(dir: &std::path::Path) -> (support::ServerProcess, String, ApiClient) {
    let (child, base) = support::spawn_server(dir, None);
    let mut admin = ApiClient::new(&base);
    let (status, body) = admin
        .form(
            "/api/account/sign-up",
            &[("name", "upload_admin"), ("password", "a good password")],
        )
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let db = store::connect(&format!("sqlite://{}", dir.join("alfakraft.db").display()))
        .await
        .unwrap();
    assert!(store::accounts::make_admin(&db, "upload_admin")
        .await
        .unwrap());
    (child, base, admin)
}

/// The panel's upload form with `files` (`(field, file name, bytes)`); the build's address.
async fn start_upload(admin: &mut ApiClient, files: &[(&str, &str, &[u8])]) -> String {
    let boundary = "XuploadBoundary7";
    let mut body = Vec::new();
    for (name, value) in [("dictionary", "en"), ("note", "a large list")] {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                .as_bytes(),
        );
    }
    for (field, file_name, bytes) in files {
        body.extend(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; \
                 filename=\"{file_name}\"\r\nContent-Type: text/plain\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{boundary}--\r\n").as_bytes());
    let (status, headers, page) = admin
        .post_bytes(
            "/admin/upload",
            &format!("multipart/form-data; boundary={boundary}"),
            body,
        )
        .await
        .unwrap();
    let location = headers
        .get("location")
        .and_then(|l| l.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        location.starts_with("/admin/builds/"),
        "{status}: {}",
        String::from_utf8_lossy(&page)
    );
    location
}

/// Follows a build's page until it sends the admin on: the draft's page address.
async fn finished(admin: &mut ApiClient, build: &str) -> String {
    let started = Instant::now();
    loop {
        let (status, headers, page) = admin.get_with(build, &[]).await.unwrap();
        if status != 200 {
            return headers
                .get("location")
                .and_then(|l| l.to_str().ok())
                .unwrap_or_else(|| panic!("{status}: {}", String::from_utf8_lossy(&page)))
                .to_string();
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "still building after 180 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The server's resident memory now, and the most it has held since the last reset, in bytes.
fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| -> u64 {
        let line = status
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name}"));
        let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb * 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Forgets the peak so far (`VmHWM` starts again from the current resident size).
fn reset_peak(pid: u32) {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").unwrap();
}

/// Uploads `files` and measures the server's peak memory above what it held before; the
/// draft's page.
async fn peak_of(
    child: &support::ServerProcess,
    admin: &mut ApiClient,
    files: &[(&str, &str, &[u8])],
) -> (u64, String) {
    let pid = child.id();
    reset_peak(pid);
    let (before, _) = memory(pid);
    let build = start_upload(admin, files).await;
    let draft = finished(admin, &build).await;
    let (_, peak) = memory(pid);
    let (_, page) = admin.get(&draft).await.unwrap();
    (peak.saturating_sub(before), page)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_upload_and_an_affix_bomb_take_a_bounded_multiple_of_what_was_sent() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, _base, mut admin) = admin_on(dir.path()).await;
    // 24 MiB of one-letter lines: 12.6 million lines, each refused.
    let list = b"x\n".repeat(12 * 1024 * 1024);
    let (peak, page) = peak_of(&child, &mut admin, &[("file", "one.txt", &list)]).await;
    eprintln!(
        "a {} MiB list of one-letter lines: the server's peak {} MiB above its resting size",
        list.len() >> 20,
        peak >> 20
    );
    assert!(
        page.contains("12582912"),
        "the report counts every refused line"
    );
    assert!(
        peak < 6 * list.len() as u64,
        "{} MiB at the peak for a {} MiB upload",
        peak >> 20,
        list.len() >> 20
    );
    // 851 bytes of hunspell: one stem, 26 suffix classes that each continue with all 26.
    let flags: String = ('A'..='Z').collect();
    let mut aff = String::from("SET UTF-8\n");
    for flag in flags.chars() {
        let letter = flag.to_ascii_lowercase();
        aff.push_str(&format!(
            "SFX {flag} Y 1\nSFX {flag} 0 {letter}/{flags} .\n"
        ));
    }
    let dic = format!("1\nbomb/{flags}\n");
    let (peak, page) = peak_of(
        &child,
        &mut admin,
        &[
            ("file", "bomb.dic", dic.as_bytes()),
            ("aff", "bomb.aff", aff.as_bytes()),
        ],
    )
    .await;
    eprintln!(
        "an affix bomb of {} bytes: the server's peak {} MiB above its resting size",
        dic.len() + aff.len(),
        peak >> 20
    );
    assert!(
        page.contains("20000"),
        "the report says the entry was cut at 20,000 forms"
    );
    assert!(peak < 64 << 20, "{} MiB at the peak", peak >> 20);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_at_once_are_built_one_at_a_time_and_the_others_say_they_wait() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, _base, mut admin) = admin_on(dir.path()).await;
    // Three lists of a few million distinct words: each takes seconds to build.
    let lists: Vec<Vec<u8>> = (0..3u8)
        .map(|n| {
            let mut list = Vec::new();
            for i in 0..1_500_000u32 {
                let word: String = format!("{i}{n}")
                    .bytes()
                    .map(|d| char::from(b'a' + d - b'0'))
                    .collect();
                list.extend(format!("q{word}\n").as_bytes());
            }
            list
        })
        .collect();
    // Sent at once, from three tabs: while the first builds, the others are in the queue.
    let mut tabs: Vec<ApiClient> = lists.iter().map(|_| admin.another_tab()).collect();
    let uploads = tabs
        .iter_mut()
        .zip(&lists)
        .map(|(tab, list)| async move { start_upload(tab, &[("file", "words.txt", list)]).await });
    let builds = futures_util::future::join_all(uploads).await;
    // Until all three are done, at most one is ever past waiting; one of them was seen waiting.
    let mut waited = false;
    let started = Instant::now();
    loop {
        let mut running = Vec::new();
        let mut done = 0;
        for build in &builds {
            let (status, page) = admin.get(build).await.unwrap();
            if status != 200 {
                done += 1;
            } else if page.contains("waiting for another build to finish") {
                waited = true;
            } else {
                running.push(page);
            }
        }
        assert!(running.len() <= 1, "builds running at once: {running:?}");
        if done == builds.len() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(300), "stuck");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(waited, "a build was seen waiting for its turn");
    child.kill().unwrap();
    child.wait().unwrap();
}
