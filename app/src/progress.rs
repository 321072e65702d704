//! A learner's progress, kept in the browser: which cells of each lesson have run without an
//! error. The course list shows it, and follows it as cells run.

use std::collections::BTreeSet;

use leptos::prelude::*;

thread_local! {
    /// Bumped whenever progress is recorded, so that views showing it update.
    static CHANGED: ArcRwSignal<u32> = ArcRwSignal::new(0);
}

fn key(slug: &str) -> String {
    format!("tolab:progress:{slug}")
}

fn load(slug: &str) -> BTreeSet<usize> {
    crate::storage::load(&key(slug))
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Cell `number` of lesson `slug` ran without an error.
pub fn record(slug: &str, number: usize) {
    let mut done = load(slug);
    if done.insert(number)
        && let Ok(json) = serde_json::to_string(&done)
    {
        crate::storage::save(&key(slug), &json);
        CHANGED.with(|changed| changed.update(|n| *n += 1));
    }
}

/// How many cells of lesson `slug` have run without an error (tracked: a view reading it updates
/// when a cell records progress).
pub fn cells_done(slug: &str) -> usize {
    CHANGED.with(|changed| changed.track());
    load(slug).len()
}
