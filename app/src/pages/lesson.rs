//! `/lesson/<slug>`: one lesson's prose, with the course beside it.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use super::{CatalogErrors, NotFoundPage};
use crate::catalog::catalog;
use crate::runtime_client::use_runtime_client;

#[component]
pub fn LessonPage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let client = use_runtime_client();
    let prose = NodeRef::<leptos::html::Article>::new();
    // Each lesson's prose is rendered as HTML; its Python blocks then become cells.
    Effect::new(move |_| {
        let lesson = params.read_untracked().get("slug").unwrap_or_default();
        let Some(article) = prose.get() else { return };
        if let Err(e) = crate::cells::mount_cells(&article, &lesson, &client) {
            leptos::logging::error!("the lesson's cells could not be made: {e:?}");
        }
        if let Some(found) = catalog().as_ref().ok().and_then(|c| c.find(&lesson))
            && let Err(e) = crate::exercises::mount_exercises(&article, found, &client)
        {
            leptos::logging::error!("the lesson's exercises could not be made: {e:?}");
        }
    });

    move || {
        let catalog = match catalog() {
            Ok(catalog) => catalog,
            Err(errors) => return view! { <CatalogErrors errors=errors.clone()/> }.into_any(),
        };
        let current = slug();
        let Some(lesson) = catalog.find(&current) else {
            return view! { <NotFoundPage/> }.into_any();
        };
        let course = catalog
            .lessons()
            .iter()
            .map(|l| {
                let item_class = if l.meta.slug == current {
                    "current"
                } else {
                    ""
                };
                let slug = l.meta.slug.clone();
                let total = l.cell_count();
                let exercises = l.exercises().count();
                let done = Memo::new(move |_| crate::progress::cells_done(&slug).min(total));
                let slug = l.meta.slug.clone();
                let passed = Memo::new(move |_| crate::progress::exercises_done(&slug).min(exercises));
                view! {
                    <li class=item_class>
                        <A href=format!("/lesson/{}", l.meta.slug)>{l.meta.title.clone()}</A>
                        <span class="lesson-badges">
                            <span
                                class="lesson-progress"
                                class:complete={move || total > 0 && done.get() == total}
                                aria-label=move || format!("{} of {total} cells run", done.get())
                                style=move || format!("--done: {}", if total == 0 { 0.0 } else { done.get() as f64 / total as f64 })
                            >
                                {move || format!("{}/{total} cells", done.get())}
                            </span>
                            <span
                                class="exercise-progress"
                                hidden=exercises == 0
                                class:complete={move || exercises > 0 && passed.get() == exercises}
                                aria-label=move || format!("{} of {exercises} exercises done", passed.get())
                            >
                                {move || format!("✓ {}/{exercises} exercise{}", passed.get(), if exercises == 1 { "" } else { "s" })}
                            </span>
                        </span>
                    </li>
                }
            })
            .collect_view();
        // The lessons to read first, linked by their titles.
        let first_reads = lesson
            .meta
            .prerequisites
            .iter()
            .filter_map(|slug| catalog.find(slug))
            .enumerate()
            .map(|(i, l)| {
                view! {
                    {(i > 0).then_some(", ")}
                    <A href=format!("/lesson/{}", l.meta.slug)>{l.meta.title.clone()}</A>
                }
            })
            .collect_view();
        view! {
            <div class="lesson-layout">
                <nav class="course" aria-label="Course">
                    <h2>"Course"</h2>
                    <ol>{course}</ol>
                </nav>
                <div class="lesson-main">
                    <p class="lesson-meta" data-testid="lesson-meta">
                        {format!("About {} minutes", lesson.meta.minutes)}
                        {(!first_reads.is_empty()).then(|| view! { " · Read first: " {first_reads} })}
                    </p>
                    <article node_ref=prose class="prose" data-testid="lesson-prose" inner_html=lesson.prose_html()></article>
                </div>
            </div>
        }
        .into_any()
    }
}
