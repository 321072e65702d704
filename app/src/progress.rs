//! A learner's progress, kept in the browser: which cells of each lesson have run without an
//! error, and which of its exercises passed every check. The course list shows it, and follows
//! it as cells run.

use std::collections::BTreeSet;

use leptos::prelude::*;

thread_local! {
    /// Bumped whenever progress is recorded, so that views showing it update.
    static CHANGED: ArcRwSignal<u32> = ArcRwSignal::new(0);
}

/// The set saved under `key`.
fn load<T: Ord + serde::de::DeserializeOwned>(key: &str) -> BTreeSet<T> {
    crate::storage::load(key)
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Adds `item` to the set saved under `key`.
fn add<T: Ord + serde::Serialize + serde::de::DeserializeOwned>(key: &str, item: T) {
    let mut done = load(key);
    if done.insert(item)
        && let Ok(json) = serde_json::to_string(&done)
    {
        crate::storage::save(key, &json);
        CHANGED.with(|changed| changed.update(|n| *n += 1));
    }
}

fn cells_key(slug: &str) -> String {
    format!("tolab:progress:{slug}")
}

fn exercises_key(slug: &str) -> String {
    format!("tolab:progress:{slug}:exercises")
}

/// Cell `number` of lesson `slug` ran without an error.
pub fn record(slug: &str, number: usize) {
    add(&cells_key(slug), number);
}

/// Exercise `id` of lesson `slug` passed every check.
pub fn record_exercise(slug: &str, id: &str) {
    add(&exercises_key(slug), id.to_owned());
}

/// How many cells of lesson `slug` have run without an error (tracked: a view reading it updates
/// when progress is recorded).
pub fn cells_done(slug: &str) -> usize {
    CHANGED.with(|changed| changed.track());
    load::<usize>(&cells_key(slug)).len()
}

/// How many exercises of lesson `slug` have passed (tracked, as [`cells_done`]).
pub fn exercises_done(slug: &str) -> usize {
    CHANGED.with(|changed| changed.track());
    load::<String>(&exercises_key(slug)).len()
}
