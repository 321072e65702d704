//! The to(device) lab in the browser: a Leptos app, rendered on the client.
//!
//! The app shows lessons and talks to the runtime only through `tolab_cells`'s messages
//! ([`runtime_client`]); it never reaches into the engine.

mod app;
mod catalog;
mod cells;
mod dom;
mod editor;
mod exercises;
mod header;
mod output;
mod pages;
mod progress;
mod runtime_client;
mod scratch;
mod storage;
mod viz;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
