//! The app's pages, one per route.

mod devices;
mod home;
mod lesson;
mod not_found;

pub use devices::{DevicesPage, saved_settings};
pub use home::HomePage;
pub use lesson::LessonPage;
pub use not_found::NotFoundPage;

use leptos::prelude::*;
use tolab_lessons::LessonError;

/// Shown instead of a page when the embedded lessons failed to load.
#[component]
fn CatalogErrors(errors: Vec<LessonError>) -> impl IntoView {
    view! {
        <section class="notice error" data-testid="catalog-errors">
            <h1>"The lessons could not be loaded"</h1>
            <ul>{errors.into_iter().map(|e| view! { <li><code>{e.to_string()}</code></li> }).collect_view()}</ul>
        </section>
    }
}
