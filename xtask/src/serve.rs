//! A small static file server for the built site: correct MIME types (`application/wasm` above
//! all) and client-side routing, so a deep link such as `/lesson/devices` gets `index.html` and
//! the app's router takes it from there. Static hosts need the same rule (see README.md).

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::thread;

use tiny_http::{Header, Request, Response};

pub struct Server {
    inner: tiny_http::Server,
    root: PathBuf,
}

impl Server {
    /// Listens on 127.0.0.1:`port` (0 picks a free port).
    pub fn bind(root: &Path, port: u16) -> Result<Self, String> {
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
        })
    }

    pub fn url(&self) -> String {
        match self.inner.server_addr().to_ip() {
            Some(addr) => format!("http://{addr}"),
            None => "http://127.0.0.1".into(),
        }
    }

    pub fn run_forever(self) {
        for request in self.inner.incoming_requests() {
            respond(&self.root, request);
        }
    }

    /// Serves from a background thread for as long as the process lives.
    pub fn spawn(self) -> String {
        let url = self.url();
        thread::spawn(move || self.run_forever());
        url
    }
}

fn respond(root: &Path, request: Request) {
    let path = request
        .url()
        .split(['?', '#'])
        .next()
        .unwrap_or("/")
        .to_owned();
    let response = match resolve(root, &path) {
        Some(file) => match fs::read(&file) {
            Ok(body) => Response::from_data(body)
                .with_header(header("Content-Type", content_type(&file)))
                .with_header(header("Cache-Control", "no-cache")),
            Err(_) => not_found(),
        },
        None => not_found(),
    };
    let _ = request.respond(response);
}

/// The file for a URL path: the file itself when it exists; `index.html` for any other path without
/// a file extension (a client-side route); `None` for a missing asset or a path escaping the root.
fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let relative = Path::new(url_path.trim_start_matches('/'));
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let candidate = root.join(relative);
    if candidate.is_file() {
        return Some(candidate);
    }
    let is_route = relative.extension().is_none();
    is_route.then(|| root.join("index.html"))
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
    // Both halves are ASCII constants, so this cannot fail.
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn not_found() -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string("not found\n")
        .with_status_code(404)
        .with_header(header("Content-Type", "text/plain; charset=utf-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tolab-serve-test-{}", std::process::id()));
        fs::create_dir_all(dir.join("assets")).unwrap();
        fs::write(dir.join("index.html"), "<!doctype html>").unwrap();
        fs::write(dir.join("app_bg.wasm"), b"\0asm").unwrap();
        fs::write(dir.join("assets/style.css"), "body{}").unwrap();
        dir
    }

    #[test]
    fn files_are_served_and_routes_fall_back_to_index_html() {
        let root = site();
        assert_eq!(
            resolve(&root, "/app_bg.wasm"),
            Some(root.join("app_bg.wasm"))
        );
        assert_eq!(
            resolve(&root, "/assets/style.css"),
            Some(root.join("assets/style.css"))
        );
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/lesson/devices"),
            Some(root.join("index.html"))
        );
        assert_eq!(resolve(&root, "/missing.js"), None);
        assert_eq!(resolve(&root, "/../etc/passwd"), None);
        assert_eq!(content_type(&root.join("app_bg.wasm")), "application/wasm");
    }
}
