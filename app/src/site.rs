//! Where the site is served: its base path (`/`, or `/courses/ml/` for a site built with `cargo
//! xtask site --base /courses/ml/`), which app/js/boot.js reads from its own address. The router
//! matches routes under it, links name it ([`href`]), and browser storage is scoped to it, so
//! that two courses on one host keep their own progress.

use std::cell::OnceCell;

thread_local! {
    static BASE: OnceCell<String> = const { OnceCell::new() };
}

/// The base path, with both slashes (`/` when boot.js did not say).
pub fn base() -> String {
    BASE.with(|b| {
        b.get_or_init(|| {
            web_sys::window()
                .and_then(|w| js_sys::Reflect::get(&w, &"tolabBase".into()).ok())
                .and_then(|v| v.as_string())
                .filter(|b| b.starts_with('/') && b.ends_with('/'))
                .unwrap_or_else(|| "/".into())
        })
        .clone()
    })
}

/// The router's base: the base without its final slash, none for `/`.
pub fn router_base() -> Option<String> {
    let base = base();
    (base != "/").then(|| base.trim_end_matches('/').to_owned())
}

/// A link to one of the app's routes (`/lesson/devices`) under the base: the router's `<A>`
/// resolves only relative links under its base, and an absolute one must name the base itself
/// to reload, or to open in a new tab, at the right address.
pub fn href(route: &str) -> String {
    under(&base(), route)
}

fn under(base: &str, route: &str) -> String {
    format!("{base}{}", route.trim_start_matches('/'))
}

/// `key` as it is kept in the browser's storage: unchanged under `/` (what a site under `/`
/// always kept), prefixed with the base elsewhere (boot.js scopes the theme the same way).
pub fn storage_key(key: &str) -> String {
    scoped(&base(), key)
}

fn scoped(base: &str, key: &str) -> String {
    if base == "/" {
        key.to_owned()
    } else {
        format!("{base}{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_name_the_base() {
        assert_eq!(under("/", "/lesson/a"), "/lesson/a");
        assert_eq!(under("/", "/"), "/");
        assert_eq!(under("/courses/ml/", "/lesson/a"), "/courses/ml/lesson/a");
        assert_eq!(under("/courses/ml/", "/"), "/courses/ml/");
    }

    #[test]
    fn keys_are_kept_as_they_were_under_the_root_and_prefixed_under_a_path() {
        assert_eq!(scoped("/", "tolab:theme"), "tolab:theme");
        assert_eq!(
            scoped("/courses/ml/", "tolab:theme"),
            "/courses/ml/tolab:theme"
        );
    }
}
