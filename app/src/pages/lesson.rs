//! `/lesson/<slug>`: one lesson's prose, with the course beside it.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use super::{CatalogErrors, NotFoundPage};
use crate::catalog::catalog;

#[component]
pub fn LessonPage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug").unwrap_or_default();

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
                let class = if l.meta.slug == current {
                    "current"
                } else {
                    ""
                };
                view! {
                    <li class=class>
                        <A href=format!("/lesson/{}", l.meta.slug)>{l.meta.title.clone()}</A>
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="lesson-layout">
                <nav class="course" aria-label="Course">
                    <h2>"Course"</h2>
                    <ol>{course}</ol>
                </nav>
                <article class="prose" data-testid="lesson-prose" inner_html=lesson.prose_html()></article>
            </div>
        }
        .into_any()
    }
}
