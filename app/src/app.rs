//! The app's shell: header, routes and the page frame.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::header::Header;
use crate::pages::{DevicesPage, HomePage, LessonPage, NotFoundPage};
use crate::runtime_client::provide_runtime_client;

#[component]
pub fn App() -> impl IntoView {
    provide_runtime_client();
    view! {
        <Router>
            <a class="skip-link" href="#main">"Skip to the content"</a>
            <Header/>
            <main class="page" id="main" tabindex="-1">
                <Routes fallback=|| view! { <NotFoundPage/> }>
                    <Route path=path!("/") view=HomePage/>
                    <Route path=path!("/lesson/:slug") view=LessonPage/>
                    <Route path=path!("/devices") view=DevicesPage/>
                </Routes>
            </main>
            <footer class="site-footer">
                "to(device) lab · how tensors move between devices, the way PyTorch does it"
            </footer>
        </Router>
    }
}
