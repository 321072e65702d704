//! `/`: what the lab is, and the list of lessons.

use leptos::prelude::*;
use leptos_router::components::A;

use super::CatalogErrors;
use crate::catalog::catalog;

#[component]
pub fn HomePage() -> impl IntoView {
    let lessons = match catalog() {
        Ok(catalog) => catalog.lessons(),
        Err(errors) => return view! { <CatalogErrors errors=errors.clone()/> }.into_any(),
    };
    // Where the learner left off, and how far they got there.
    let resume = crate::progress::last_visited()
        .and_then(|slug| lessons.iter().find(|l| l.meta.slug == slug))
        .map(|lesson| {
            view! {
                <p class="continue" data-testid="continue">
                    "Continue where you left off: "
                    <A href=crate::site::href(&format!("/lesson/{}", lesson.meta.slug))>{lesson.meta.title.clone()}</A>
                </p>
            }
        });
    view! {
        <section class="hero">
            <h1>"Learn how tensors move between devices"</h1>
            <p class="lede">
                "What " <code>"tensor.to(device)"</code> " really does, step by step: the seven steps of a "
                "transfer, the autograd graph across devices, device memory, sync points, and the errors "
                "PyTorch raises, word for word."
            </p>
            {resume}
        </section>
        <section class="lesson-list" aria-label="Lessons">
            <h2>"Lessons"</h2>
            <ol class="cards" data-testid="lesson-list">
                {lessons
                    .iter()
                    .enumerate()
                    .map(|(position, lesson)| {
                        let meta = &lesson.meta;
                        let (total, exercises) = (lesson.cell_count(), lesson.exercises().count());
                        let slug = meta.slug.clone();
                        let progress = move || {
                            let done = crate::progress::cells_done(&slug, total);
                            let passed = crate::progress::exercises_done(&slug).min(exercises);
                            let complete = done == total && passed == exercises;
                            if done == 0 && passed == 0 {
                                String::new()
                            } else if complete {
                                "✓ done".to_owned()
                            } else {
                                format!("{done}/{total} cells · {passed}/{exercises} exercises")
                            }
                        };
                        view! {
                            <li class="card">
                                <A href=crate::site::href(&format!("/lesson/{}", meta.slug))>
                                    <span class="card-order">{position + 1}</span>
                                    <span class="card-title">{meta.title.clone()}</span>
                                    <span class="card-summary">{meta.summary.clone()}</span>
                                    <span class="card-meta">
                                        {format!("{} min · {} cells · {} exercise{}", meta.minutes, total, exercises, if exercises == 1 { "" } else { "s" })}
                                    </span>
                                    <span class="card-progress" data-testid="card-progress">{progress}</span>
                                </A>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
    .into_any()
}
