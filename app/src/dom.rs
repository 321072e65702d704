//! Building blocks for the parts of a lesson page made outside Leptos: cells and exercises are
//! mounted into the lesson's rendered HTML with plain DOM calls.

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

/// A `tag` element of class `class`.
pub fn element(document: &Document, tag: &str, class: &str) -> Result<Element, JsValue> {
    let element = document.create_element(tag)?;
    element.set_class_name(class);
    Ok(element)
}

/// A button at the end of `toolbar`: its label, its `data-action` and its title (the hover help);
/// clicking it calls `on_click`, for as long as the page's cells live.
pub fn toolbar_button(
    document: &Document,
    toolbar: &Element,
    (label, action, title): (&str, &str, &str),
    on_click: impl Fn() + 'static,
) -> Result<Element, JsValue> {
    let button = element(document, "button", "")?;
    button.set_text_content(Some(label));
    button.set_attribute("type", "button")?;
    button.set_attribute("data-action", action)?;
    button.set_attribute("title", title)?;
    let on_click = Closure::<dyn Fn()>::new(on_click);
    button.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())?;
    on_click.forget();
    toolbar.append_child(&button)?;
    Ok(button)
}

/// Runs `work` on the page's event loop.
pub fn spawn(work: impl std::future::Future<Output = impl Sized> + 'static) {
    wasm_bindgen_futures::spawn_local(async move {
        work.await;
    });
}
