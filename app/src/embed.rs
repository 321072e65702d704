//! A lesson, or one of its exercises, inside another site's page: `lesson/<slug>/?embed=1` (the
//! lesson without the site's header, footer and course list), `&exercise=<id>` (that exercise
//! alone), `&parent=<origin>` (the only origin the messages may go to). The other parameters mean
//! nothing without `embed=1`. docs/HOSTING.md has the snippet an LMS page copies.
//!
//! An embedded page tells the page around it, with `postMessage`, that it is ready, how tall it
//! is (so that the iframe can be sized to it), and each exercise's verdict. The code checked goes
//! with the verdict only to a `parent=` origin: any page may frame the lab, and the learner's
//! code is theirs.

use std::cell::OnceCell;

use serde_json::{Value, json};
use tolab_cells::ExerciseReport;
use tolab_lessons::Exercise;
use wasm_bindgen::prelude::*;

/// What the page's address asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Embed {
    /// The page shows the lesson without the site's chrome.
    pub chromeless: bool,
    /// Only this exercise of the lesson.
    pub exercise: Option<String>,
    /// Where messages go: an origin, or `*`.
    target_origin: String,
    /// `parent=` that is not an origin: shown, and no message is sent.
    pub bad_parent: Option<String>,
}

thread_local! {
    static EMBED: OnceCell<Embed> = const { OnceCell::new() };
}

/// The embedding asked for by the address the page was opened with.
pub fn current() -> Embed {
    EMBED.with(|e| {
        e.get_or_init(|| {
            let search = web_sys::window()
                .and_then(|w| w.location().search().ok())
                .unwrap_or_default();
            parse(&search, |text| {
                web_sys::Url::new(text)
                    .ok()
                    .map(|u| u.origin())
                    .filter(|o| o != "null")
            })
        })
        .clone()
    })
}

/// Reads the query; `origin_of` is the browser's URL parser (an origin, or none).
fn parse(search: &str, origin_of: impl Fn(&str) -> Option<String>) -> Embed {
    let mut embed = Embed {
        target_origin: "*".into(),
        ..Embed::default()
    };
    for pair in search.trim_start_matches('?').split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = decode(value);
        match key {
            "embed" => embed.chromeless = value != "0",
            "exercise" if !value.is_empty() => embed.exercise = Some(value),
            "parent" => match origin_of(&value) {
                Some(origin) => embed.target_origin = origin,
                None => embed.bad_parent = Some(value),
            },
            _ => {}
        }
    }
    if embed.chromeless {
        embed
    } else {
        Embed {
            target_origin: "*".into(),
            ..Embed::default()
        }
    }
}

/// `%xx` and `+` decoded, as a query's values are written (bytes that are not UTF-8 become `�`).
fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether the page is inside another page's frame.
fn parent() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok().flatten()?;
    let framed = !js_sys::Object::is(&parent, &window);
    framed.then_some(parent)
}

/// Sends `message` to the page around an embedded one, unless `parent=` was not an origin.
fn post(message: &Value) {
    let embed = current();
    if !embed.chromeless || embed.bad_parent.is_some() {
        return;
    }
    let Some(parent) = parent() else { return };
    if let Ok(value) = js_sys::JSON::parse(&message.to_string()) {
        let _ = parent.post_message(&value, &embed.target_origin);
    }
}

/// The page is drawn: `tolab:ready`, then `tolab:resize` whenever its height changes.
pub fn announce(lesson: &str) {
    if !current().chromeless || parent().is_none() {
        return;
    }
    post(&json!({
        "type": "tolab:ready",
        "lesson": lesson,
        "exercise": current().exercise,
    }));
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    // The body's own height: the root element's is never less than the frame, which could then
    // grow but never shrink.
    let on_resize = Closure::<dyn Fn()>::new(|| {
        let height = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
            .map_or(0.0, |b| b.get_bounding_client_rect().height().ceil());
        post(&json!({ "type": "tolab:resize", "height": height }));
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&body);
        // The observer and its callback live as long as the page.
        on_resize.forget();
        std::mem::forget(observer);
    }
}

/// An exercise was checked: `tolab:exercise-checked` with the verdict, each check's, and the code
/// (to a `parent=` origin only).
pub fn exercise_checked(lesson: &str, exercise: &Exercise, report: &ExerciseReport, code: &str) {
    let to_parent = current().target_origin != "*";
    post(&checked_message(
        lesson,
        exercise,
        report,
        to_parent.then_some(code),
    ));
}

fn checked_message(
    lesson: &str,
    exercise: &Exercise,
    report: &ExerciseReport,
    code: Option<&str>,
) -> Value {
    json!({
        "type": "tolab:exercise-checked",
        "lesson": lesson,
        "exercise": exercise.id,
        "title": exercise.title,
        "passed": report.passed(),
        "checks": report
            .checks
            .iter()
            .map(|c| json!({ "message": c.message, "passed": c.passed }))
            .collect::<Vec<_>>(),
        "error": report.record.error,
        "code": code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin_of(text: &str) -> Option<String> {
        text.starts_with("https://")
            .then(|| text.trim_end_matches('/').to_owned())
    }

    #[test]
    fn the_query_names_the_embedding_and_its_parent() {
        let plain = parse("", origin_of);
        assert!(!plain.chromeless && plain.exercise.is_none() && plain.target_origin == "*");
        let one = parse(
            "?embed=1&exercise=move-it&parent=https://lms.example.edu/",
            origin_of,
        );
        assert!(one.chromeless);
        assert_eq!(one.exercise.as_deref(), Some("move-it"));
        assert_eq!(one.target_origin, "https://lms.example.edu");
        assert_eq!(one.bad_parent, None);
        let bad = parse("?embed=1&parent=lms", origin_of);
        assert_eq!(bad.bad_parent.as_deref(), Some("lms"));
        assert!(!parse("?embed=0", origin_of).chromeless);
        // Without embed=1 the rest means nothing.
        assert_eq!(
            parse("?exercise=a&parent=lms", origin_of),
            parse("", origin_of)
        );
        let encoded = parse(
            "?embed=1&exercise=a%2Db&parent=https%3A%2F%2Flms.example.edu",
            origin_of,
        );
        assert_eq!(encoded.exercise.as_deref(), Some("a-b"));
        assert_eq!(encoded.target_origin, "https://lms.example.edu");
        assert_eq!(decode("%zz+%E2%9C%93"), "%zz ✓");
    }
}
