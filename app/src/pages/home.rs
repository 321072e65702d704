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
    view! {
        <section class="hero">
            <h1>"Learn how tensors move between devices"</h1>
            <p class="lede">
                "What " <code>"tensor.to(device)"</code> " really does, step by step: the seven steps of a "
                "transfer, the autograd graph across devices, device memory, sync points, and the errors "
                "PyTorch raises, word for word."
            </p>
        </section>
        <section class="lesson-list" aria-label="Lessons">
            <h2>"Lessons"</h2>
            <ol class="cards" data-testid="lesson-list">
                {lessons
                    .iter()
                    .enumerate()
                    .map(|(position, lesson)| {
                        let meta = &lesson.meta;
                        view! {
                            <li class="card">
                                <A href=format!("/lesson/{}", meta.slug)>
                                    <span class="card-order">{position + 1}</span>
                                    <span class="card-title">{meta.title.clone()}</span>
                                    <span class="card-summary">{meta.summary.clone()}</span>
                                    <span class="card-meta">
                                        {format!("{} min · {} cells · {} exercise{}", meta.minutes, lesson.cell_count(), lesson.exercises().count(), if lesson.exercises().count() == 1 { "" } else { "s" })}
                                    </span>
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
