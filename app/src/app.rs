//! The app's shell: header, routes (under the site's base path) and the page frame.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::header::Header;
use crate::pages::{DevicesPage, HomePage, LessonPage, NotFoundPage};
use crate::runtime_client::provide_runtime_client;

#[component]
pub fn App() -> impl IntoView {
    provide_runtime_client();
    // An embedded lesson (`?embed=1`) has none of the site's chrome.
    let chrome = !crate::embed::current().chromeless;
    if !chrome
        && let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-embed", "");
    }
    view! {
        <Router base=crate::site::router_base().unwrap_or_default()>
            <a class="skip-link" href="#main">"Skip to the content"</a>
            {chrome.then(|| view! { <Header/> })}
            <main class="page" id="main" tabindex="-1">
                <Routes fallback=|| view! { <NotFoundPage/> }>
                    <Route path=path!("/") view=HomePage/>
                    <Route path=path!("/lesson/:slug") view=LessonPage/>
                    <Route path=path!("/devices") view=DevicesPage/>
                </Routes>
            </main>
            {chrome.then(|| view! {
                <footer class="site-footer">
                    "to(device) lab · how tensors move between devices, the way PyTorch does it"
                </footer>
            })}
        </Router>
    }
}
