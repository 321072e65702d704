//! A learner's progress, kept in the browser: which cells of each lesson are done (showed what
//! the lesson records for them), each exercise's state, and the lesson and cell the learner was
//! last at. The course list and the home page show it, and follow it as cells run.

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

/// Cell `number` of lesson `slug` is done.
pub fn record(slug: &str, number: usize) {
    add(&cells_key(slug), number);
}

/// What a learner did with one exercise: whether it ever passed, whether it was tried (the
/// solution is offered from then on), and how many hints were seen.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct ExerciseState {
    pub passed: bool,
    pub tried: bool,
    pub hints: usize,
}

fn exercise_key(slug: &str, id: &str) -> String {
    format!("tolab:progress:{slug}:exercise:{id}")
}

/// Exercise `id` of lesson `slug`, as the learner left it.
pub fn exercise_state(slug: &str, id: &str) -> ExerciseState {
    crate::storage::load(&exercise_key(slug, id))
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

fn save_exercise(slug: &str, id: &str, change: impl FnOnce(&mut ExerciseState)) {
    let mut state = exercise_state(slug, id);
    change(&mut state);
    if let Ok(json) = serde_json::to_string(&state) {
        crate::storage::save(&exercise_key(slug, id), &json);
    }
}

/// Exercise `id` of lesson `slug` was checked; `passed`: every check passed.
pub fn exercise_tried(slug: &str, id: &str, passed: bool) {
    save_exercise(slug, id, |s| {
        s.tried = true;
        s.passed |= passed;
    });
    if passed {
        add(&exercises_key(slug), id.to_owned());
    }
}

/// `hints` hints of exercise `id` of lesson `slug` have been seen.
pub fn exercise_hints(slug: &str, id: &str, hints: usize) {
    save_exercise(slug, id, |s| s.hints = s.hints.max(hints));
}

/// How many of the `total` cells of lesson `slug` are done (tracked: a view reading it updates
/// when progress is recorded).
pub fn cells_done(slug: &str, total: usize) -> usize {
    CHANGED.with(|changed| changed.track());
    load::<usize>(&cells_key(slug))
        .into_iter()
        .filter(|n| (1..=total).contains(n))
        .count()
}

/// Where the learner was last: the lesson they opened.
const LAST_KEY: &str = "tolab:progress:last";

/// The learner opened lesson `slug`.
pub fn visit(slug: &str) {
    crate::storage::save(LAST_KEY, slug);
}

/// The lesson the learner opened last.
pub fn last_visited() -> Option<String> {
    crate::storage::load(LAST_KEY)
}

/// How many exercises of lesson `slug` have passed (tracked, as [`cells_done`]).
pub fn exercises_done(slug: &str) -> usize {
    CHANGED.with(|changed| changed.track());
    load::<String>(&exercises_key(slug)).len()
}
