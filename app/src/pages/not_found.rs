//! Any unknown address: a friendly way back.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    let location = use_location();
    view! {
        <section class="notice" data-testid="not-found">
            <h1>"No lesson here"</h1>
            <p>
                "There is nothing at " <code>{move || location.pathname.get()}</code>
                ". The lesson may have been renamed, or the link mistyped."
            </p>
            <p><A href=crate::site::href("/")>"See all lessons"</A></p>
        </section>
    }
}
