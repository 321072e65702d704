//! The to(device) lab in the browser: a Leptos app, rendered on the client.
//!
//! The app shows lessons and talks to the runtime only through `tolab_cells`'s messages
//! ([`runtime_client`]); it never reaches into the engine.

mod app;
mod catalog;
mod cells;
mod dom;
mod editor;
mod embed;
mod exercises;
mod header;
mod output;
mod pages;
mod progress;
mod runtime_client;
mod scratch;
mod site;
mod storage;
mod viz;

fn main() {
    console_error_panic_hook::set_once();
    // index.html's notice stays only when the app does not start (app/js/boot.js).
    if let Some(notice) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot-notice"))
    {
        notice.remove();
    }
    leptos::mount::mount_to_body(app::App);
}
