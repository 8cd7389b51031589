//! The admins' dictionary panel over HTTP, on SQLite and on Postgres: the shipped lists imported
//! once; uploads with their exact report; edits; publishing for new games while started games keep
//! their version; rollback; the audit log; players' word reports; and everyone else refused. Each
//! test has databases of its own, since a publish changes what every new game there gets.

mod support;

use std::collections::HashSet;

use app::api::admin::VersionDetail;
use dictionaries::{
    versions::{AuditAction, LineProblem, Origin, Warning},
    DictionaryId, DictionaryRef, FstLexicon,
};
use rules::{Action, Lexicon, NewTile, Placement, Played, PlayerView, Pos};
use serde_json::{json, Value};
use store::{accounts, library::versions};
use support::{
    browser::{ok, refusal, runtime, server, Browser, Server},
    own_databases, unique_name,
};

/// Runs `test` against a fresh SQLite file and a Postgres database of its own.
fn each_own_database(test: impl AsyncFn(&'static str, Server)) {
    runtime().block_on(async {
        for (name, db, _dir) in own_databases().await {
            test(name, server(&db).await).await;
        }
    });
}

/// A signed-up player made admin, as `alfakraft make-admin` does.
async fn admin(server: &Server) -> Browser {
    let mut browser = Browser::new(server);
    let name = unique_name("admin");
    browser.sign_up(&name).await;
    assert!(accounts::make_admin(&server.db, &name).await.unwrap());
    browser
}

async fn player(server: &Server) -> Browser {
    let mut browser = Browser::new(server);
    browser.sign_up(&unique_name("player")).await;
    browser
}

/// POSTs a multipart upload as the panel's form does; the status, and the body.
async fn upload(browser: &mut Browser, dictionary: &str, note: &str, file: &[u8]) -> (u16, String) {
    upload_files(browser, dictionary, note, &[("file", "words.txt", file)]).await
}

/// The same with any files: `(field, file name, bytes)`.
async fn upload_files(
    browser: &mut Browser,
    dictionary: &str,
    note: &str,
    files: &[(&str, &str, &[u8])],
) -> (u16, String) {
    let boundary = "XtestBoundary42";
    let mut body = Vec::new();
    for (name, value) in [
        ("dictionary", dictionary.as_bytes()),
        ("note", note.as_bytes()),
    ] {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n")
                .as_bytes(),
        );
        body.extend_from_slice(value);
        body.extend_from_slice(b"\r\n");
    }
    for (field, file_name, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{file_name}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    let content_type = format!("multipart/form-data; boundary={boundary}");
    let answer = browser
        .raw(
            "/admin/upload",
            body,
            &[
                ("content-type", content_type.as_str()),
                ("sec-fetch-site", "same-origin"),
            ],
        )
        .await;
    // The upload answers at once with the build's page, which shows its progress until the draft
    // exists and then sends the browser on to it.
    let Some(build) = browser
        .location
        .clone()
        .filter(|l| l.starts_with("/admin/builds/"))
    else {
        return answer;
    };
    let started = std::time::Instant::now();
    loop {
        let (status, page) = browser.get(&build).await;
        if status != 200 {
            return (status, page);
        }
        assert!(page.contains("Building a draft"), "{page}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "the draft was still building after 120 s: {page}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The version a redirect to a draft's page names: `/admin/<id>/<version>?ok=…`.
fn version_in(location: &str) -> u32 {
    let path = location.split('?').next().unwrap();
    path.rsplit('/').next().unwrap().parse().unwrap()
}

async fn version_detail(browser: &mut Browser, dictionary: &str, version: u32) -> VersionDetail {
    let answer = browser
        .call(
            "/api/admin/version",
            json!({ "dictionary": dictionary, "version": version }),
        )
        .await;
    serde_json::from_value(ok(&answer).clone()).unwrap()
}

async fn edit(browser: &mut Browser, dictionary: &str, add: &str, remove: &str) -> Value {
    browser
        .post_form(
            "/api/admin/edit",
            &[
                ("dictionary", dictionary),
                ("add", add),
                ("remove", remove),
                ("reason", "words players asked for"),
            ],
        )
        .await
}

async fn activate(browser: &mut Browser, at: DictionaryRef, confirm: bool, reason: &str) -> Value {
    let version = at.version.to_string();
    let mut fields = vec![
        ("dictionary", at.id.as_str()),
        ("version", version.as_str()),
        ("reason", reason),
    ];
    if confirm {
        fields.push(("confirm", "true"));
    }
    browser.post_form("/api/admin/activate", &fields).await
}

async fn active(server: &Server, id: DictionaryId) -> u32 {
    versions::active_ref(&server.db, id).await.unwrap().version
}

/// Every two-letter string the lexicon lacks: words to add, so that any hand can spell one.
fn two_letter_non_words(lexicon: &FstLexicon) -> Vec<String> {
    let mut words = Vec::new();
    for a in 'a'..='z' {
        for b in 'a'..='z' {
            let word = format!("{a}{b}");
            if !lexicon.contains(&word) {
                words.push(word);
            }
        }
    }
    words
}

/// A first move of two hand tiles across the start cell that spells one of `words`.
fn play_one_of(view: &PlayerView, words: &HashSet<String>) -> (Action, String) {
    let tiles = view.rules().tiles;
    let letters: Vec<rules::Letter> = view
        .hand
        .iter()
        .filter_map(|t| match t {
            rules::HandTile::Letter(l) => Some(*l),
            _ => None,
        })
        .collect();
    for (i, &a) in letters.iter().enumerate() {
        for (j, &b) in letters.iter().enumerate() {
            let word: String = [tiles.char_of(a), tiles.char_of(b)]
                .iter()
                .flat_map(|c| c.to_lowercase())
                .collect();
            if i != j && words.contains(&word) {
                let start = view.board.start();
                let next = Pos {
                    row: start.row,
                    col: start.col + 1,
                };
                let placement = Placement {
                    tiles: vec![
                        NewTile {
                            pos: start,
                            tile: Played::Letter(a),
                            arrow: false,
                        },
                        NewTile {
                            pos: next,
                            tile: Played::Letter(b),
                            arrow: false,
                        },
                    ],
                    powers: Vec::new(),
                };
                let action = Action::Play {
                    seat: view.seat,
                    placement,
                };
                return (action, word);
            }
        }
    }
    panic!("no two tiles of {:?} spell a new word", view.hand)
}

fn view_and_url(page: &Value) -> (PlayerView, String) {
    (
        serde_json::from_value(ok(page)["view"].clone()).unwrap(),
        ok(page)["dictionary_url"].as_str().unwrap().to_string(),
    )
}

#[test]
fn the_shipped_lists_are_imported_once_as_version_1() {
    each_own_database(async |db_name, server| {
        // A second instance starting on the same database imports nothing again.
        support::library(&server.db).await;
        let overview = versions::overview(&server.db).await.unwrap();
        assert_eq!(overview.len(), DictionaryId::ALL.len(), "{db_name}");
        let shipped = support::catalog();
        for dictionary in &overview {
            assert_eq!(dictionary.active, 1, "{db_name}");
            assert_eq!(dictionary.versions.len(), 1, "{db_name}");
            let v1 = &dictionary.versions[0];
            let entry = shipped.get(dictionary.id).unwrap();
            assert_eq!(v1.origin, Origin::Shipped);
            assert_eq!(v1.word_count, entry.lexicon.len() as u64, "{db_name}");
            assert_eq!(v1.fst_bytes, entry.entry.fst_bytes, "{db_name}");
            assert!(v1.published_at.is_some() && v1.active);
            // The browser fetches the same file as before versions existed.
            assert!(entry.url.contains(&v1.sha256[..16]), "{db_name}");
        }
        let audit = versions::audit_log(&server.db, 100).await.unwrap();
        let imports = audit
            .iter()
            .filter(|e| e.action == AuditAction::Import)
            .count();
        assert_eq!(imports, DictionaryId::ALL.len(), "{db_name}: imported once");
    });
}

#[test]
fn an_upload_reports_every_bad_line_with_its_number_and_reason() {
    each_own_database(async |db_name, server| {
        let mut admin = admin(&server).await;
        let list: &[u8] = b"# A test list: this line is a comment\n\
            aa\n\
            Zyzzyva\n\
            \n\
            qwrtzy\n\
            ab # a trailing comment\n\
            aa\n\
            abc1\n\
            x\n\
            abcdefghijklmnopqrst\n\
            two words\n\
            \xff\xfe\n\
            \xc3\xa9t\xc3\xa9\r\n\
            stra\xc3\x9fe\n";
        let (status, body) = upload(&mut admin, "en", "a list with bad lines", list).await;
        assert_eq!(status, 303, "{db_name}: {body}");
        let location = admin.location.clone().unwrap();
        assert!(
            location.starts_with("/admin/en/2?ok="),
            "{db_name}: {location}"
        );
        let version = version_in(&location);
        let detail = version_detail(&mut admin, "en", version).await;
        let report = &detail.report;
        assert_eq!(report.accepted, 5, "{db_name}: aa zyzzyva qwrtzy ab ete");
        let rejected: Vec<(u32, LineProblem)> = report
            .rejected
            .iter()
            .map(|r| (r.line, r.problem.clone()))
            .collect();
        assert_eq!(
            rejected,
            vec![
                (7, LineProblem::Duplicate { first_line: 2 }),
                (8, LineProblem::OutsideAlphabet('1')),
                (9, LineProblem::TooShort),
                (
                    10,
                    LineProblem::TooLong {
                        letters: 20,
                        max: 17
                    }
                ),
                (11, LineProblem::SeveralWords),
                (12, LineProblem::NotUtf8),
                (14, LineProblem::OutsideAlphabet('ß')),
            ],
            "{db_name}"
        );
        assert_eq!(report.rejected_total, 7);
        // Against version 1: what it lacks is added, everything else is removed.
        let v1 = support::catalog()
            .get(DictionaryId::English)
            .unwrap()
            .lexicon
            .clone();
        let words = ["aa", "zyzzyva", "qwrtzy", "ab", "ete"];
        let new: Vec<&str> = words.iter().copied().filter(|w| !v1.contains(w)).collect();
        assert_eq!(report.based_on, Some(1));
        assert_eq!(report.added, new.len() as u64, "{db_name}");
        assert_eq!(report.first_added.len(), new.len());
        let removed = v1.len() as u64 - (words.len() - new.len()) as u64;
        assert_eq!(report.removed, removed, "{db_name}");
        assert_eq!(
            report.first_removed.len(),
            100,
            "the first 100 removed are shown"
        );
        assert_eq!(
            report.warnings,
            vec![Warning::RemovesMost {
                removed,
                of: v1.len() as u64
            }]
        );
        assert_eq!(detail.version.origin, Origin::Upload);
        assert_eq!(detail.version.note, "a list with bad lines");
        assert_eq!(detail.version.published_at, None, "a draft");

        // Publishing it needs the confirmation; without it nothing changes.
        let at = DictionaryRef {
            id: DictionaryId::English,
            version,
        };
        let refused = activate(&mut admin, at, false, "try").await;
        assert!(
            refusal(&refused)["Dictionary"]["ConfirmWarnings"]
                .as_array()
                .is_some_and(|warnings| !warnings.is_empty()),
            "{refused}"
        );
        assert_eq!(active(&server, DictionaryId::English).await, 1);

        // A binary file and an empty one are drafts that need the confirmation too.
        let (status, _) = upload(&mut admin, "en", "binary", b"\x00\x01\x02PK\x03\x04").await;
        assert_eq!(status, 303);
        let binary = version_detail(&mut admin, "en", version + 1).await;
        assert!(
            binary.report.warnings.contains(&Warning::Binary),
            "{db_name}"
        );
        assert!(binary.report.warnings.contains(&Warning::NoWords));
        // No file, or no dictionary: refused, and no version is made.
        let (status, body) = upload(&mut admin, "en", "no file", b"").await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("Choose a file"));
        let (status, _) = upload(&mut admin, "xx", "no such dictionary", b"hello\n").await;
        assert_eq!(status, 400);
        let overview = versions::overview(&server.db).await.unwrap();
        let en = overview
            .iter()
            .find(|d| d.id == DictionaryId::English)
            .unwrap();
        assert_eq!(en.versions.len(), 3, "{db_name}");
        assert_eq!(en.active, 1);
    });
}

#[test]
fn a_hunspell_pair_is_expanded_to_every_form() {
    each_own_database(async |db_name, server| {
        let mut admin = admin(&server).await;
        let aff = "SET UTF-8\nNEEDAFFIX !\n\
            SFX A Y 2\nSFX A 0 ar [^e]\nSFX A e ar e\n\
            PFX O Y 1\nPFX O 0 o .\n";
        let dic = "4\nbil/AO\nlinje/A\nStockholm\nstam/!A\n";
        let files: [(&str, &str, &[u8]); 2] = [
            ("file", "sv.dic", dic.as_bytes()),
            ("aff", "sv.aff", aff.as_bytes()),
        ];
        let (status, body) = upload_files(&mut admin, "sv", "hunspell", &files).await;
        assert_eq!(status, 303, "{db_name}: {body}");
        let version = version_in(&admin.location.clone().unwrap());
        let detail = version_detail(&mut admin, "sv", version).await;
        // bil bilar obil obilar linje linjar stamar; the name is refused on its line.
        assert_eq!(detail.report.accepted, 7, "{db_name}");
        let rejected: Vec<(u32, String, LineProblem)> = detail
            .report
            .rejected
            .iter()
            .map(|r| (r.line, r.text.clone(), r.problem.clone()))
            .collect();
        assert_eq!(
            rejected,
            vec![(4, "Stockholm".to_string(), LineProblem::Capitalised)]
        );
        let lookup = admin
            .post_form(
                "/api/admin/lookup",
                &[
                    ("dictionary", "sv"),
                    ("version", &version.to_string()),
                    ("word", "obilar"),
                ],
            )
            .await;
        assert_eq!(ok(&lookup)["in_version"], true, "{db_name}");

        // A .dic alone, or files in an encoding the server does not read: refused, nothing made.
        let (status, body) = upload_files(
            &mut admin,
            "sv",
            "no aff",
            &[("file", "sv.dic", dic.as_bytes())],
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("needs its .aff"));
        let koi8: [(&str, &str, &[u8]); 2] = [
            ("file", "sv.dic", dic.as_bytes()),
            ("aff", "sv.aff", b"SET KOI8-R\n"),
        ];
        let (status, body) = upload_files(&mut admin, "sv", "koi8", &koi8).await;
        assert_eq!(status, 422, "{body}");
        assert!(body.contains("KOI8-R is not supported"), "{body}");
        let overview = versions::overview(&server.db).await.unwrap();
        let sv = overview
            .iter()
            .find(|d| d.id == DictionaryId::Swedish)
            .unwrap();
        assert_eq!(sv.versions.len(), 2, "{db_name}");
    });
}

#[test]
fn an_upload_past_the_size_limit_is_refused_with_a_clear_message() {
    runtime().block_on(async {
        for (db_name, db, _dir) in own_databases().await {
            let options = leptos::prelude::LeptosOptions::builder()
                .output_name("alfakraft")
                .build();
            let mut state =
                server::AppState::new(options, db.clone(), support::library(&db).await, false);
            state.upload_limit = 4096;
            let server = Server {
                services: state.services.clone(),
                app: server::router(state),
                db: db.clone(),
            };
            let mut admin = admin(&server).await;
            let big = "abcdefgh\n".repeat(1000);
            let (status, body) = upload(&mut admin, "en", "too big", big.as_bytes()).await;
            assert_eq!(status, 413, "{db_name}: {body}");
            assert!(body.contains("larger than the upload limit"), "{body}");
            let overview = versions::overview(&db).await.unwrap();
            let en = overview
                .iter()
                .find(|d| d.id == DictionaryId::English)
                .unwrap();
            assert_eq!(en.versions.len(), 1, "{db_name}: nothing was written");
        }
    });
}

#[test]
fn a_publish_reaches_new_games_while_started_games_keep_their_version() {
    each_own_database(async |db_name, server| {
        let mut admin = admin(&server).await;
        let mut ann = player(&server).await;
        let v1 = support::catalog()
            .get(DictionaryId::English)
            .unwrap()
            .lexicon
            .clone();
        let new_words = two_letter_non_words(&v1);
        let new_set: HashSet<String> = new_words.iter().cloned().collect();

        // A game started before the publish.
        let before = ann.create_local().await;
        let (before_view, before_url) = view_and_url(&ann.page(&before).await);

        // The edit: every two-letter non-word, so whatever the hands hold, one is playable.
        let made = edit(&mut admin, "en", &new_words.join("\n"), "").await;
        let draft: DictionaryRef = serde_json::from_value(ok(&made).clone()).unwrap();
        assert_eq!(draft.version, 2, "{db_name}");
        let detail = version_detail(&mut admin, "en", 2).await;
        assert_eq!(detail.report.added, new_words.len() as u64);
        assert_eq!(detail.report.removed, 0);
        assert_eq!(detail.version.origin, Origin::Edit);
        // The draft answers look-ups beside the active version.
        let lookup = admin
            .post_form(
                "/api/admin/lookup",
                &[
                    ("dictionary", "en"),
                    ("version", "2"),
                    ("word", &new_words[0]),
                ],
            )
            .await;
        assert_eq!(ok(&lookup)["in_version"], true, "{db_name}");
        assert_eq!(ok(&lookup)["in_active"], false);
        // A draft is nobody's until it is published.
        let still = ann.create_local().await;
        assert_eq!(view_and_url(&ann.page(&still).await).1, before_url);

        let published = activate(&mut admin, draft, false, "players asked").await;
        assert!(
            ok(&published).as_str().unwrap().contains("publish"),
            "{published}"
        );
        assert_eq!(active(&server, DictionaryId::English).await, 2);

        // A new game gets version 2: its page names another file, and the word is taken.
        let after = ann.create_local().await;
        let (after_view, after_url) = view_and_url(&ann.page(&after).await);
        assert_ne!(after_url, before_url, "{db_name}");
        let (status, fst) = ann.get(&after_url).await;
        assert_eq!(status, 200);
        assert!(!fst.is_empty());
        let (play, word) = play_one_of(&after_view, &new_set);
        let played = ann.act(&after, 0, &play).await;
        assert!(
            ok(&played).is_object(),
            "{db_name}: {word} is taken: {played}"
        );

        // The game started before keeps version 1: the same kind of word is refused, and its
        // page still names version 1's file, which is still served.
        let (play, word) = play_one_of(&before_view, &new_set);
        let refused = ann.act(&before, 0, &play).await;
        assert_eq!(
            refusal(&refused)["Rules"]["InvalidWords"],
            json!([word]),
            "{db_name}: {refused}"
        );
        assert_eq!(view_and_url(&ann.page(&before).await).1, before_url);
        let (status, _) = ann.get(&before_url).await;
        assert_eq!(status, 200);

        // Roll back: new games get version 1 again; the game on version 2 keeps it.
        let at1 = DictionaryRef {
            id: DictionaryId::English,
            version: 1,
        };
        // Regression: a rollback went through with no reason, while an edit needs one.
        let unexplained = activate(&mut admin, at1, false, "  ").await;
        assert_eq!(
            refusal(&unexplained)["Dictionary"],
            "ReasonNeeded",
            "{unexplained}"
        );
        assert_eq!(active(&server, DictionaryId::English).await, 2);
        let rolled = activate(&mut admin, at1, false, "too many odd words").await;
        assert!(
            ok(&rolled).as_str().unwrap().contains("rollback"),
            "{rolled}"
        );
        assert_eq!(active(&server, DictionaryId::English).await, 1);
        let third = ann.create_local().await;
        let (third_view, third_url) = view_and_url(&ann.page(&third).await);
        assert_eq!(third_url, before_url, "{db_name}");
        let (play, _) = play_one_of(&third_view, &new_set);
        assert!(refusal(&ann.act(&third, 0, &play).await)["Rules"].is_object());
        assert_eq!(view_and_url(&ann.page(&after).await).1, after_url);

        // The audit log has it all, newest first, with who and why.
        let audit = versions::audit_log(&server.db, 10).await.unwrap();
        let actions: Vec<(AuditAction, u32)> = audit
            .iter()
            .take(3)
            .map(|e| (e.action, e.version))
            .collect();
        assert_eq!(
            actions,
            vec![
                (AuditAction::Rollback, 1),
                (AuditAction::Publish, 2),
                (AuditAction::Edit, 2)
            ],
            "{db_name}"
        );
        assert_eq!(audit[0].reason, "too many odd words");
        assert_eq!(audit[1].reason, "players asked");
        assert_eq!(audit[2].reason, "words players asked for");
        assert_eq!(audit[2].added, new_words.len() as u64);
        assert!(audit[..3]
            .iter()
            .all(|e| e.user.as_deref().is_some_and(|u| u.starts_with("admin_"))));
        // The panel shows the same.
        let panel = admin.call("/api/admin/overview", json!({})).await;
        assert_eq!(ok(&panel)["audit"][0]["action"], "Rollback");
    });
}

#[test]
fn players_report_words_and_see_what_the_admins_decided() {
    each_own_database(async |db_name, server| {
        let mut admin = admin(&server).await;
        let mut ann = player(&server).await;
        let mut bob = player(&server).await;
        let ann_game = ann.create_local().await;
        let bob_game = bob.create_local().await;
        let report = |game: &str, word: &str, kind: &str| json!({ "game": game, "word": word, "kind": kind });
        for (browser, game) in [(&mut ann, &ann_game), (&mut bob, &bob_game)] {
            let filed = browser
                .call("/api/reports/file", report(game, "Qwrtzy", "Missing"))
                .await;
            assert!(ok(&filed).is_null(), "{db_name}: {filed}");
        }
        // Twice is once; someone else's game, and a word no English list could hold, are refused.
        ann.call("/api/reports/file", report(&ann_game, "qwrtzy", "Missing"))
            .await;
        let forged = ann
            .call("/api/reports/file", report(&bob_game, "qwrtzy", "Missing"))
            .await;
        assert_eq!(refusal(&forged), "NoSuchGame");
        let bad = ann
            .call("/api/reports/file", report(&ann_game, "smörgås", "Missing"))
            .await;
        assert!(refusal(&bad)["Invalid"].is_string(), "{bad}");
        bob.call("/api/reports/file", report(&bob_game, "aa", "Wrong"))
            .await;

        let panel = admin.call("/api/admin/overview", json!({})).await;
        let queue = ok(&panel)["reports"].as_array().unwrap().clone();
        assert_eq!(queue.len(), 2, "{db_name}: {queue:?}");
        let missing = queue.iter().find(|g| g["word"] == "qwrtzy").unwrap();
        assert_eq!(
            missing["reporters"], 2,
            "grouped, with a count of reporters"
        );
        assert_eq!(missing["dictionary"], "en");

        // Accept: a draft with the word; dismiss the other.
        let accepted = admin
            .post_form(
                "/api/admin/decide-report",
                &[
                    ("dictionary", "en"),
                    ("word", "qwrtzy"),
                    ("kind", "Missing"),
                    ("accept", "true"),
                ],
            )
            .await;
        let draft: DictionaryRef = serde_json::from_value(ok(&accepted).clone()).unwrap();
        let lookup = admin
            .post_form(
                "/api/admin/lookup",
                &[
                    ("dictionary", "en"),
                    ("version", &draft.version.to_string()),
                    ("word", "qwrtzy"),
                ],
            )
            .await;
        assert_eq!(ok(&lookup)["in_version"], true, "{db_name}");
        let dismissed = admin
            .post_form(
                "/api/admin/decide-report",
                &[
                    ("dictionary", "en"),
                    ("word", "aa"),
                    ("kind", "Wrong"),
                    ("accept", "false"),
                ],
            )
            .await;
        assert!(ok(&dismissed).is_null());
        let panel = admin.call("/api/admin/overview", json!({})).await;
        assert_eq!(
            ok(&panel)["reports"],
            json!([]),
            "{db_name}: the queue is empty"
        );

        let mine = ann.call("/api/reports/mine", json!({})).await;
        assert_eq!(ok(&mine)[0]["word"], "qwrtzy");
        assert_eq!(ok(&mine)[0]["status"], "Accepted", "{db_name}");
        let mine = bob.call("/api/reports/mine", json!({})).await;
        let statuses: Vec<&str> = ok(&mine)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["Dismissed", "Accepted"], "{db_name}");

        // Regression: an edit after the accepted report built on the active version, so its
        // draft dropped the report's word; publishing it left the word out while Ann's list
        // still said it would be added. An edit now builds on the newest waiting draft, and a
        // report reads as done only once new games have the word.
        let mine = ann.call("/api/reports/mine", json!({})).await;
        assert_eq!(
            ok(&mine)[0]["in_effect"],
            false,
            "{db_name}: not yet published"
        );
        let edited = edit(&mut admin, "en", "zyxwqo\nqqwwzo", "").await;
        let next: DictionaryRef = serde_json::from_value(ok(&edited).clone()).unwrap();
        assert_eq!(next.version, draft.version + 1);
        for word in ["qwrtzy", "zyxwqo", "qqwwzo"] {
            let version = next.version.to_string();
            let fields = [("dictionary", "en"), ("version", &version), ("word", word)];
            let lookup = admin.post_form("/api/admin/lookup", &fields).await;
            assert_eq!(
                ok(&lookup)["in_version"],
                true,
                "{db_name}: {word} in the newer draft"
            );
        }
        ok(&activate(&mut admin, next, false, "two more").await);
        let mine = ann.call("/api/reports/mine", json!({})).await;
        assert_eq!(ok(&mine)[0]["in_effect"], true, "{db_name}: published");
    });
}

/// Posts a form of the panel as the page does; the status and where it redirects.
async fn post_page_form(browser: &mut Browser, path: &str, body: &str) -> (u16, String) {
    let (status, _) = browser
        .raw(
            path,
            body.to_string(),
            &[
                ("content-type", "application/x-www-form-urlencoded"),
                ("sec-fetch-site", "same-origin"),
            ],
        )
        .await;
    (status, browser.location.clone().unwrap_or_default())
}

#[test]
fn the_panel_pages_work_without_javascript() {
    each_own_database(async |db_name, server| {
        let mut admin = admin(&server).await;
        let (status, page) = admin.get("/admin").await;
        assert_eq!(status, 200, "{db_name}");
        assert!(
            page.contains("Upload a word list") && !page.contains("alfakraft_bg.wasm"),
            "no wasm"
        );
        // An edit: redirected to the draft, which says so.
        let (status, location) = post_page_form(
            &mut admin,
            "/admin/edit",
            "dictionary=en&add=qwrtzy%0Azyxwv&remove=&reason=two+new+words",
        )
        .await;
        assert_eq!(status, 303, "{db_name}");
        assert!(location.starts_with("/admin/en/2?ok="), "{location}");
        let (_, page) = admin.get(&location).await;
        assert!(page.contains("Draft en@2 made"), "{db_name}");
        assert!(page.contains("2 added, 0 removed"));
        // A look-up is a GET on the version's page.
        let (_, page) = admin.get("/admin/en/2?word=QWRTZY").await;
        assert!(
            page.contains("QWRTZY: yes in version 2, no in the active version 1"),
            "{db_name}"
        );
        // Publish, then a refusal comes back as the page's error.
        let (status, location) = post_page_form(
            &mut admin,
            "/admin/activate",
            "dictionary=en&version=2&reason=go",
        )
        .await;
        assert_eq!(status, 303);
        let (_, page) = admin.get(&location).await;
        assert!(
            page.contains("en@2 is active (publish)"),
            "{db_name}: {location}"
        );
        assert_eq!(active(&server, DictionaryId::English).await, 2);
        let (_, location) = post_page_form(
            &mut admin,
            "/admin/decide",
            "dictionary=en&word=aa&kind=wrong&accept=true",
        )
        .await;
        assert!(location.starts_with("/admin?error="), "{location}");
        let (_, page) = admin.get(&location).await;
        assert!(page.contains("No open report of"), "{db_name}");
        let (status, _) = admin.get("/admin/en/99").await;
        assert_eq!(status, 404, "a version that does not exist");
    });
}

#[test]
fn nobody_but_an_admin_reaches_the_panel() {
    each_own_database(async |db_name, server| {
        let mut visitor = Browser::new(&server);
        let mut ann = player(&server).await;
        let mut admin = admin(&server).await;
        for (who, browser, expected) in [
            ("a signed-out visitor", &mut visitor, "SignInFirst"),
            ("a player", &mut ann, "AdminsOnly"),
        ] {
            for (path, args) in [
                ("/api/admin/overview", json!({})),
                (
                    "/api/admin/version",
                    json!({ "dictionary": "en", "version": 1 }),
                ),
            ] {
                let answer = browser.call(path, args).await;
                assert_eq!(refusal(&answer), expected, "{db_name}: {who} {path}");
            }
            let forms: [(&str, &[(&str, &str)]); 4] = [
                (
                    "/api/admin/edit",
                    &[
                        ("dictionary", "en"),
                        ("add", "qwrtzy"),
                        ("remove", ""),
                        ("reason", "x"),
                    ],
                ),
                (
                    "/api/admin/activate",
                    &[("dictionary", "en"), ("version", "1"), ("reason", "x")],
                ),
                (
                    "/api/admin/lookup",
                    &[("dictionary", "en"), ("version", "1"), ("word", "aa")],
                ),
                (
                    "/api/admin/decide-report",
                    &[
                        ("dictionary", "en"),
                        ("word", "aa"),
                        ("kind", "Wrong"),
                        ("accept", "true"),
                    ],
                ),
            ];
            for (path, fields) in forms {
                let answer = browser.post_form(path, fields).await;
                assert_eq!(refusal(&answer), expected, "{db_name}: {who} {path}");
            }
            for page in [
                "/admin",
                "/admin/en/1",
                "/admin/en/99",
                "/admin/builds/0123abcd",
                "/admin/moderation",
            ] {
                let (status, body) = browser.get(page).await;
                assert_eq!(status, 404, "{db_name}: {who} {page}");
                assert!(!body.contains("Upload a word list"), "{who} {page}");
            }
            let (status, _) = upload(browser, "en", "sneaky", b"qwrtzy\n").await;
            assert_eq!(status, 404, "{db_name}: {who} uploads");
            // The panel's own forms, posted as a page would.
            for (path, body) in [
                ("/admin/edit", "dictionary=en&add=qwrtzy&remove=&reason=x"),
                ("/admin/activate", "dictionary=en&version=1&reason=x"),
                (
                    "/admin/decide",
                    "dictionary=en&word=aa&kind=wrong&accept=true",
                ),
                (
                    "/admin/moderation/decide",
                    "user=1&action=suspend&amount=forever&reason=x",
                ),
                ("/admin/moderation/lift", "sanction=1&reason=x"),
            ] {
                let (status, _) = browser
                    .raw(
                        path,
                        body,
                        &[
                            ("content-type", "application/x-www-form-urlencoded"),
                            ("sec-fetch-site", "same-origin"),
                        ],
                    )
                    .await;
                assert_eq!(status, 404, "{db_name}: {who} {path}");
            }
        }
        // The admin does reach it; a cross-site form post is refused even for them.
        let (status, _) = admin.get("/admin").await;
        assert_eq!(status, 200, "{db_name}");
        let (status, _) = admin.get("/admin/moderation").await;
        assert_eq!(status, 200, "{db_name}");
        let (status, _) = admin
            .raw(
                "/admin/upload",
                "x",
                &[
                    ("content-type", "multipart/form-data; boundary=b"),
                    ("sec-fetch-site", "cross-site"),
                ],
            )
            .await;
        assert_eq!(status, 403, "{db_name}: CSRF");
        let overview = versions::overview(&server.db).await.unwrap();
        assert!(
            overview.iter().all(|d| d.versions.len() == 1),
            "{db_name}: nothing was made"
        );
    });
}

/// A publish on one instance reaches the other through the live change (a Postgres `NOTIFY`),
/// not the refresh every instance makes once a minute: the instances have just started, so that
/// refresh is most of a minute away, and 15 s tells the two apart on a loaded machine too. How
/// fast it is is printed (and kept in docs/performance.md), not asserted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgres_hand_out_a_publish_through_the_live_change() {
    let Some(url) = support::own_postgres().await else {
        return;
    };
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let mut servers: Vec<_> = dirs
        .iter()
        .map(|d| support::spawn_server(d.path(), Some(&url)))
        .collect();
    let (a, b) = (servers[0].1.clone(), servers[1].1.clone());
    let db = store::connect(&url).await.unwrap();
    let mut admin = server::client::ApiClient::new(&a);
    let name = unique_name("admin");
    let (status, _) = admin
        .form(
            "/api/account/sign-up",
            &[("name", &name), ("password", "a good password")],
        )
        .await
        .unwrap();
    assert_eq!(status, 200);
    accounts::make_admin(&db, &name).await.unwrap();
    let en_url = async |base: &str| -> String {
        let mut client = server::client::ApiClient::new(base);
        let (status, body) = client
            .form("/api/dictionaries", &[("with_licences", "false")])
            .await
            .unwrap();
        assert_eq!(status, 200, "{body}");
        let infos: Value = serde_json::from_str(&body).unwrap();
        let en = infos
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["id"] == "en")
            .unwrap();
        en["url"].as_str().unwrap().to_string()
    };
    let old = en_url(&b).await;
    let (status, body) = admin
        .form(
            "/api/admin/edit",
            &[
                ("dictionary", "en"),
                ("add", "qwrtzy"),
                ("remove", ""),
                ("reason", "two instances"),
            ],
        )
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin
        .form(
            "/api/admin/activate",
            &[("dictionary", "en"), ("version", "2"), ("reason", "go")],
        )
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let published = std::time::Instant::now();
    assert_ne!(
        en_url(&a).await,
        old,
        "the publishing instance follows at once"
    );
    let new = loop {
        let now = en_url(&b).await;
        if now != old {
            break now;
        }
        assert!(
            published.elapsed() < std::time::Duration::from_secs(15),
            "the other instance still hands out {old}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    eprintln!("the other instance followed in {:?}", published.elapsed());
    assert_eq!(new, en_url(&a).await);
    let mut browser = server::client::ApiClient::new(&b);
    let (status, _) = browser.get(&new).await.unwrap();
    assert_eq!(status, 200, "and serves it");
    for (child, _) in &mut servers {
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

/// Regression: the cap on a player's open reports was a count, then an insert, so 300 reports
/// filed at once left 52–132 open against a cap of 50. The count and the insert now hold the
/// player between them, on both databases.
#[test]
fn three_hundred_reports_at_once_leave_no_more_open_than_the_cap() {
    each_own_database(async |db_name, server| {
        let name = unique_name("rep");
        let user = accounts::sign_up(&server.db, &name, "a good password")
            .await
            .unwrap();
        // 300 different words of English's letters: "qa", "qb", … "qza" and so on.
        let words: Vec<String> = (0..300u32)
            .map(|n| {
                let letters: String = n
                    .to_string()
                    .bytes()
                    .map(|d| char::from(b'a' + d - b'0'))
                    .collect();
                format!("q{letters}")
            })
            .collect();
        let filings = words.iter().map(|word| {
            store::library::reports::file(
                &server.db,
                &user,
                DictionaryId::English,
                word,
                dictionaries::versions::ReportKind::Missing,
                "game",
            )
        });
        let answers = futures_util::future::join_all(filings).await;
        let capped = answers
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Err(store::StoreError::Refused(
                        domain::Refusal::TooManyReports { .. }
                    ))
                )
            })
            .count();
        assert!(
            answers
                .iter()
                .all(|a| a.is_ok() || matches!(a, Err(store::StoreError::Refused(_)))),
            "{db_name}: every filing is taken or refused"
        );
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM word_reports WHERE user_id = $1 AND status = 'open'",
        )
        .bind(user.id)
        .fetch_one(&server.db.pool)
        .await
        .unwrap();
        eprintln!("{db_name}: {open} reports open after 300 at once, {capped} refused");
        assert_eq!(
            open,
            store::library::reports::MAX_OPEN_PER_PLAYER,
            "{db_name}"
        );
        assert_eq!(capped, 250, "{db_name}");
    });
}

/// Regression: once an admin had looked a word up in a draft, the draft was served at its
/// public address to anyone, cached for a year. A draft is an admin's only, uncached; published,
/// it is everyone's.
#[test]
fn a_draft_is_served_to_admins_only_until_it_is_published() {
    each_own_database(async |db_name, server| {
        let mut admin = admin(&server).await;
        let mut visitor = Browser::new(&server);
        let draft = ok(&edit(&mut admin, "en", "qwrtzy", "").await).clone();
        let at = DictionaryRef {
            id: DictionaryId::English,
            version: draft["version"].as_u64().unwrap() as u32,
        };
        // The admin looks a word up in the draft: the draft is now held in memory.
        let looked = admin
            .post_form(
                "/api/admin/lookup",
                &[
                    ("dictionary", "en"),
                    ("version", &at.version.to_string()),
                    ("word", "qwrtzy"),
                ],
            )
            .await;
        assert_eq!(ok(&looked)["in_version"], true, "{db_name}: {looked}");
        let loaded = server.services.library.get(at).await.unwrap();
        let path = loaded.url.clone();
        let (status, _) = visitor.get(&path).await;
        assert_eq!(status, 404, "{db_name}: a visitor gets no draft");
        let (status, headers, body) = admin.get_with_headers(&path).await;
        assert_eq!(status, 200, "{db_name}: an admin does");
        assert_eq!(headers["cache-control"], "private, no-store", "{db_name}");
        assert_eq!(body.len(), loaded.lexicon.as_bytes().len());
        ok(&activate(&mut admin, at, false, "go").await);
        let (status, headers, _) = visitor.get_with_headers(&path).await;
        assert_eq!(status, 200, "{db_name}: published, it is everyone's");
        assert!(
            headers["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable"),
            "{db_name}"
        );
    });
}
