//! The HTTP headers the lab is served with, in one place: `cargo xtask run`'s server sends them,
//! the built site carries them as a `_headers` file (Netlify, Cloudflare Pages) and its
//! `index.html` carries the Content-Security-Policy as a meta element (hosts that set no headers,
//! such as GitHub Pages). docs/HOSTING.md gives the same rules for nginx, Apache and S3, and a
//! test checks that it quotes this policy.

use std::path::Path;

/// What the lab needs, and nothing more: its own scripts (no inline script, no eval), WebAssembly
/// compiled from its own files (`'wasm-unsafe-eval'`), its worker from its own origin, styles
/// from its own file plus the editor's and the visuals' computed styles (CodeMirror adds style
/// elements), images from its files and the `data:`/`blob:` URLs the visuals and downloads make.
/// `frame-ancestors` is left out so that any page may embed a lesson (`?embed=1`); a host that
/// wants to limit who embeds it adds `frame-ancestors https://lms.example.edu` as a header.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'";

/// Files named after their content (`style-d38f314038381959.css`, `tolab-app-…_bg.wasm`): a new
/// build gives new names, so browsers may keep these for a year without asking again.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else (the HTML pages above all) is checked with the server on every load, so that a
/// new build is seen at once.
pub const REVALIDATE: &str = "no-cache";

/// The headers for a file of the site, by its name.
pub fn for_file(name: &str) -> Vec<(&'static str, &'static str)> {
    let cache = if is_content_named(name) {
        IMMUTABLE
    } else {
        REVALIDATE
    };
    vec![
        ("Cache-Control", cache),
        ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
        ("X-Content-Type-Options", "nosniff"),
    ]
}

/// Whether `name` ends in a content hash before its extension: `-` and 8 to 16 hexadecimal digits
/// (Trunk writes its 64-bit hashes without leading zeros), as Trunk and `site::finish` name files
/// (`x-0123456789abcdef.js`, `x-123456789abcdef_bg.wasm`). Pages are never content-named.
pub fn is_content_named(name: &str) -> bool {
    if name.ends_with(".html") {
        return false;
    }
    let stem = Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    match stem.rsplit_once('-') {
        Some((_, hash)) => {
            (8..=16).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit())
        }
        None => false,
    }
}

/// A `_headers` file (Netlify's and Cloudflare Pages' format) for a site under `base` holding
/// `files` (paths relative to the site's folder, with `/`). Those hosts join the values of a
/// header that several rules set, so the policy is set once for every path and the long cache
/// only for the content-named files (their default for the rest is to check again).
pub fn headers_file(base: &str, files: &[String]) -> String {
    let mut out = format!(
        "# The headers the lab is served with (xtask/src/headers.rs; docs/HOSTING.md).\n{base}*\n"
    );
    for (name, value) in for_file("index.html") {
        if name != "Cache-Control" {
            out.push_str(&format!("  {name}: {value}\n"));
        }
    }
    for file in files.iter().filter(|f| is_content_named(f)) {
        out.push_str(&format!("{base}{file}\n  Cache-Control: {IMMUTABLE}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_named_files_are_kept_and_pages_are_checked_again() {
        assert!(is_content_named("style-d38f314038381959.css"));
        assert!(is_content_named("tolab-app-f8311a7075da9748_bg.wasm"));
        assert!(is_content_named(
            "lesson/x/tolab-worker-f8311a7075da9748.js"
        ));
        assert!(!is_content_named("index.html"));
        assert!(!is_content_named("404.html"));
        assert!(!is_content_named("tolab-worker.js"));
        assert!(!is_content_named("tolab-worker_bg.wasm"));
        assert!(is_content_named("tolab-app-4a70652d4035ac1.js"));
        assert!(!is_content_named("first-lesson.html"));
        assert!(!is_content_named("a-0123456789abcdef.html"));
        assert!(!is_content_named("device-cafe.js"));
        assert_eq!(for_file("index.html")[0], ("Cache-Control", "no-cache"));
        assert_eq!(
            for_file("editor-0123456789abcdef.js")[0],
            ("Cache-Control", IMMUTABLE)
        );
    }

    #[test]
    fn the_headers_file_sets_the_policy_once_and_the_long_cache_per_content_named_file() {
        let text = headers_file(
            "/courses/ml/",
            &["index.html".into(), "style-d38f314038381959.css".into()],
        );
        assert!(text.contains(&format!(
            "/courses/ml/*\n  Content-Security-Policy: {CONTENT_SECURITY_POLICY}\n"
        )));
        assert!(!text.contains("index.html"));
        assert!(text.contains(&format!(
            "/courses/ml/style-d38f314038381959.css\n  Cache-Control: {IMMUTABLE}\n"
        )));
        assert_eq!(text.matches("Cache-Control").count(), 1);
    }

    #[test]
    fn the_hosting_recipes_send_these_headers() {
        let root = crate::repo_root();
        for doc in [
            "docs/HOSTING.md",
            "docs/deploy/nginx.conf",
            "docs/deploy/apache.htaccess",
        ] {
            let text = std::fs::read_to_string(root.join(doc)).unwrap();
            assert!(
                text.contains(CONTENT_SECURITY_POLICY),
                "{doc} quotes the policy"
            );
            assert!(text.contains(IMMUTABLE), "{doc} keeps content-named files");
            assert!(text.contains("no-cache"), "{doc} checks pages again");
            // The recipes' pattern for content-named files is `is_content_named`'s.
            if doc.starts_with("docs/deploy/") {
                assert!(
                    text.contains("-[0-9a-f]{8,16}(_bg)?\\.(js|wasm|css|svg)$"),
                    "{doc}"
                );
            }
        }
    }
}
