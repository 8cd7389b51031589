//! The built site (the wasm bundle, its JS and CSS with their brotli and gzip copies, and the
//! public assets) compiled into the binary, so that the one file is the whole server. With
//! `--site-root` the files are read from a folder instead, as during development.

use axum::{
    body::Body,
    http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
};
use rust_embed::RustEmbed;

/// `target/site` as `scripts/build.sh` left it when this binary was compiled. Missing when the
/// server is compiled before the bundle (a `cargo check`); [`embedded_is_complete`] tells.
#[derive(RustEmbed)]
#[folder = "../target/site"]
#[allow_missing = true]
#[exclude = "pkg/.source-sha256"]
#[exclude = "pkg/.analysis-sha256"]
struct Embedded;

/// Where the site's files are served from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SiteFiles {
    /// From inside the binary.
    Embedded,
    /// From the folder in Leptos' `site_root`.
    Folder,
}

/// Whether this binary carries a bundle the pages can hydrate with.
pub fn embedded_is_complete() -> bool {
    [
        "pkg/alfakraft.js",
        "pkg/alfakraft_bg.wasm",
        "pkg/alfakraft.css",
        "pkg/game.js",
        "pkg/game_bg.wasm",
        "pkg/device.js",
        "pkg/device_bg.wasm",
    ]
    .iter()
    .all(|file| Embedded::get(file).is_some())
}

/// How many files the binary carries and their bytes, for the start-up log.
pub fn embedded_size() -> (usize, usize) {
    Embedded::iter()
        .filter_map(|file| Embedded::get(&file))
        .fold((0, 0), |(n, bytes), file| (n + 1, bytes + file.data.len()))
}

/// The embedded file `uri` names, in the best encoding the client accepts; `None` when there is
/// no such file (the caller renders the app's 404 page).
pub fn embedded_file(method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<Response> {
    if method != Method::GET && method != Method::HEAD {
        return None;
    }
    let path = uri.path().trim_start_matches('/');
    let plain = Embedded::get(path)?;
    let accepts = |coding: &str| {
        headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|v| v.split(';').next().map(str::trim) == Some(coding))
    };
    let compressed = [("br", ".br"), ("gzip", ".gz")]
        .into_iter()
        .filter(|(coding, _)| accepts(coding))
        .find_map(|(coding, suffix)| Some((coding, Embedded::get(&format!("{path}{suffix}"))?)));
    let mime = plain.metadata.mimetype().to_owned();
    let (coding, file) = match compressed {
        Some((coding, file)) => (Some(coding), file),
        None => (None, plain),
    };
    let etag = format!(
        "\"{}\"",
        file.metadata
            .sha256_hash()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let mut response = if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|tags| tags.as_bytes() == etag.as_bytes())
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        // For a HEAD request hyper sends the head alone.
        Body::from(file.data).into_response()
    };
    let set = response.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(&mime) {
        set.insert(header::CONTENT_TYPE, mime);
    }
    if let Some(coding) = coding {
        set.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    set.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    // The bundle's names carry no hash: a browser keeps it but asks each time whether it changed,
    // which the ETag answers with a 304 until the server is upgraded.
    set.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(etag) = HeaderValue::from_str(&etag) {
        set.insert(header::ETAG, etag);
    }
    Some(response)
}

/// The site's file at `path` (relative to the site's root), from the binary or the folder.
pub fn file(site: &SiteFiles, site_root: &str, path: &str) -> Option<Vec<u8>> {
    match site {
        SiteFiles::Embedded => Some(Embedded::get(path)?.data.into_owned()),
        SiteFiles::Folder => std::fs::read(std::path::Path::new(site_root).join(path)).ok(),
    }
}

/// This build of the site's name, for the service worker's cache: a digest of every file the
/// binary carries, or, for files read from a folder (development), of their names, sizes and
/// times.
pub fn version(site: &SiteFiles, site_root: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    match site {
        SiteFiles::Embedded => {
            let mut names: Vec<_> = Embedded::iter().collect();
            names.sort();
            for name in names {
                name.hash(&mut hasher);
                if let Some(file) = Embedded::get(&name) {
                    file.metadata.sha256_hash().hash(&mut hasher);
                }
            }
        }
        SiteFiles::Folder => {
            let root = std::path::Path::new(site_root);
            for dir in [root.to_path_buf(), root.join("pkg")] {
                let mut entries: Vec<_> = std::fs::read_dir(&dir)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter_map(|e| Some((e.file_name(), e.metadata().ok()?)))
                    .collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                for (name, meta) in entries {
                    name.hash(&mut hasher);
                    meta.len().hash(&mut hasher);
                    meta.modified().ok().hash(&mut hasher);
                }
            }
        }
    }
    format!("{:016x}", hasher.finish())
}

/// The stylesheet and start-up script a browser's first page carries inline (see `app::assets`),
/// from the binary or from `site_root`; `None` when the build has not written them (the pages
/// then link to the files).
pub fn inline_assets(site: &SiteFiles, site_root: &str) -> Option<app::assets::Inline> {
    let read = |path: &str| -> Option<std::sync::Arc<str>> {
        String::from_utf8(file(site, site_root, path)?)
            .ok()
            .map(Into::into)
    };
    let (css, boot, game_boot, device_boot) = (
        read("pkg/alfakraft.css")?,
        read("pkg/boot.js")?,
        read("pkg/game-boot.js")?,
        read("pkg/device-boot.js")?,
    );
    // The build's name: a digest of the texts (a new build gets them inline once more).
    let version = {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&*css, &*boot, &*game_boot, &*device_boot).hash(&mut hasher);
        format!("{:016x}", hasher.finish()).into()
    };
    Some(app::assets::Inline {
        css,
        boot,
        game_boot,
        device_boot,
        version,
    })
}
