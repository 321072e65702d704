//! A small static file server for the built site, which serves it as a well-configured host
//! does (docs/HOSTING.md): under the site's base path, with correct MIME types (`application/wasm`
//! above all), the lab's headers (`headers.rs`: the policy, a year's cache for content-named
//! files, none for pages), a folder's `index.html` for the folder (each route of the course has
//! one), and `404.html` (the app, which shows its own "not found") for anything else.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::thread;

use tiny_http::{Header, Request, Response};

use crate::headers;
use crate::site::Base;

pub struct Server {
    inner: tiny_http::Server,
    root: PathBuf,
    base: Base,
}

impl Server {
    /// Listens on 127.0.0.1:`port` (0 picks a free port), serving `root` under `base`.
    pub fn bind(root: &Path, port: u16, base: &Base) -> Result<Self, String> {
        if !root.join("index.html").is_file() {
            return Err(format!(
                "{} has no index.html: build the site first",
                root.display()
            ));
        }
        let inner = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        Ok(Self {
            inner,
            root: root.to_owned(),
            base: base.clone(),
        })
    }

    /// The site's address, with its base: `http://127.0.0.1:8080/courses/ml/`.
    pub fn url(&self) -> String {
        let origin = match self.inner.server_addr().to_ip() {
            Some(addr) => format!("http://{addr}"),
            None => "http://127.0.0.1".into(),
        };
        format!("{origin}{}", self.base)
    }

    pub fn run_forever(self) {
        for request in self.inner.incoming_requests() {
            respond(&self.root, &self.base, request);
        }
    }

    /// Serves from a background thread for as long as the process lives; returns [`Self::url`].
    pub fn spawn(self) -> String {
        let url = self.url();
        thread::spawn(move || self.run_forever());
        url
    }
}

/// What the server answers for a path.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// The file, with the name its headers are chosen by (relative to the site).
    File(PathBuf, String),
    /// The base without its final slash, or `/` for a site under a path: go to the base.
    Redirect(String),
    /// Nothing there: the site's `404.html` when it has one, with status 404.
    NotFound(Option<PathBuf>),
}

fn respond(root: &Path, base: &Base, request: Request) {
    let path = request
        .url()
        .split(['?', '#'])
        .next()
        .unwrap_or("/")
        .to_owned();
    let response = match resolve(root, base, &path) {
        Answer::File(file, name) => file_response(&file, &name, 200),
        Answer::Redirect(to) => Some(
            Response::from_string(format!("the site is at {to}\n"))
                .with_status_code(308)
                .with_header(header("Location", &to)),
        ),
        Answer::NotFound(Some(page)) => file_response(&page, "404.html", 404),
        Answer::NotFound(None) => None,
    };
    let response = response.unwrap_or_else(|| {
        Response::from_string(format!("not found (the site is served under {base})\n"))
            .with_status_code(404)
            .with_header(header("Content-Type", "text/plain; charset=utf-8"))
    });
    let _ = request.respond(response);
}

fn file_response(
    file: &Path,
    name: &str,
    status: u16,
) -> Option<Response<std::io::Cursor<Vec<u8>>>> {
    let body = fs::read(file).ok()?;
    let mut response = Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type(file)));
    for (key, value) in headers::for_file(name) {
        response = response.with_header(header(key, value));
    }
    Some(response)
}

/// The answer for a URL path: a file of the site under `base`; a folder's `index.html`; the base
/// itself for the base without its slash and for `/`; otherwise not found (also for a path
/// escaping the root).
fn resolve(root: &Path, base: &Base, url_path: &str) -> Answer {
    let not_found = || {
        let page = root.join("404.html");
        Answer::NotFound(page.is_file().then_some(page))
    };
    // The base without its slash, or the host's root when the site is under a path.
    if base.as_str() != "/" && (format!("{url_path}/") == base.as_str() || url_path == "/") {
        return Answer::Redirect(base.to_string());
    }
    let Some(relative) = url_path.strip_prefix(base.as_str()) else {
        return Answer::NotFound(None);
    };
    let relative = Path::new(relative);
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return not_found();
    }
    let candidate = root.join(relative);
    let file = if candidate.is_dir() {
        candidate.join("index.html")
    } else {
        candidate
    };
    match file.strip_prefix(root) {
        Ok(name) if file.is_file() => {
            Answer::File(file.clone(), name.to_string_lossy().into_owned())
        }
        _ => not_found(),
    }
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" | "map" => "application/json",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn header(name: &str, value: &str) -> Header {
    // Names and values are ASCII: constants, and a base (`Base::parse` allows ASCII only).
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tolab-serve-test-{}", std::process::id()));
        fs::create_dir_all(dir.join("lesson/devices")).unwrap();
        fs::write(dir.join("index.html"), "<!doctype html>").unwrap();
        fs::write(dir.join("404.html"), "<!doctype html>").unwrap();
        fs::write(dir.join("lesson/devices/index.html"), "<!doctype html>").unwrap();
        fs::write(dir.join("app-0123456789abcdef_bg.wasm"), b"\0asm").unwrap();
        dir
    }

    fn file(root: &Path, name: &str) -> Answer {
        Answer::File(root.join(name), name.into())
    }

    #[test]
    fn files_folders_and_routes_are_served_under_the_base() {
        let root = site();
        let base = Base::parse("/courses/ml/").unwrap();
        let at = |path: &str| resolve(&root, &base, path);
        assert_eq!(at("/courses/ml/"), file(&root, "index.html"));
        assert_eq!(
            at("/courses/ml/app-0123456789abcdef_bg.wasm"),
            file(&root, "app-0123456789abcdef_bg.wasm")
        );
        assert_eq!(
            at("/courses/ml/lesson/devices"),
            file(&root, "lesson/devices/index.html")
        );
        assert_eq!(
            at("/courses/ml/lesson/devices/"),
            file(&root, "lesson/devices/index.html")
        );
        assert_eq!(at("/courses/ml"), Answer::Redirect("/courses/ml/".into()));
        assert_eq!(at("/"), Answer::Redirect("/courses/ml/".into()));
        let not_found = Answer::NotFound(Some(root.join("404.html")));
        assert_eq!(at("/courses/ml/lesson/gone"), not_found);
        assert_eq!(at("/courses/ml/missing.js"), not_found);
        assert_eq!(at("/courses/ml/../etc/passwd"), not_found);
        assert_eq!(at("/lesson/devices"), Answer::NotFound(None));
        assert_eq!(
            resolve(&root, &Base::root(), "/"),
            file(&root, "index.html")
        );
        assert_eq!(
            resolve(&root, &Base::root(), "/lesson/devices"),
            file(&root, "lesson/devices/index.html")
        );
        assert_eq!(content_type(&root.join("app_bg.wasm")), "application/wasm");
    }
}
