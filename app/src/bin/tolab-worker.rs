//! The runtime's Web Worker: cells run here, off the page's thread, so a long cell never freezes
//! the page and a Stop request is heard while it runs. It answers JSON [`RequestEnvelope`]s with
//! [`ReplyEnvelope`]s, one request at a time in arrival order, except Stop, which takes effect
//! as soon as it arrives. A running cell's progress goes out as it happens, under its request's
//! id, and a heartbeat every second tells the page it is alive. Trunk builds it from
//! `index.html`'s `data-type="worker"` link.

#[cfg(target_arch = "wasm32")]
fn main() {
    worker::start();
}

/// Natively there is no worker: the CLI and the tests call the runtime in-process.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::Cell;
    use std::rc::Rc;

    use futures::StreamExt;
    use tolab_cells::{Reply, ReplyEnvelope, Request, RequestEnvelope, Runtime};
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    pub fn start() {
        console_error_panic_hook::set_once();
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let mut runtime = Runtime::new();
        let stop = runtime.stop_handle();
        let (queue, mut requests) = futures::channel::mpsc::unbounded::<RequestEnvelope>();

        // Requests arrive while a cell runs (it yields to the event loop every few tens of
        // milliseconds): Stop acts at once; everything waits its turn in the queue.
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(text) = event.data().as_string() else {
                return;
            };
            let Ok(envelope) = serde_json::from_str::<RequestEnvelope>(&text) else {
                web_sys::console::error_1(&format!("the runtime worker got {text:?}").into());
                return;
            };
            if envelope.request == Request::Stop {
                stop.stop();
            }
            let _ = queue.unbounded_send(envelope);
        });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();

        let post = {
            let scope = scope.clone();
            move |envelope: &ReplyEnvelope| {
                if let Ok(text) = serde_json::to_string(envelope) {
                    let _ = scope.post_message(&text.into());
                }
            }
        };
        let running = Rc::new(Cell::new(0u64));
        runtime.on_progress(Rc::new({
            let (running, post) = (running.clone(), post.clone());
            move |progress| {
                post(&ReplyEnvelope {
                    id: running.get(),
                    reply: Reply::Progress(progress),
                })
            }
        }));
        wasm_bindgen_futures::spawn_local(async move {
            while let Some(RequestEnvelope { id, request }) = requests.next().await {
                running.set(id);
                let reply = runtime.handle(request).await;
                post(&ReplyEnvelope { id, reply });
            }
        });

        // A heartbeat whenever the event loop runs (a running cell yields to it every few tens
        // of milliseconds): the page replaces a worker that stays silent while it waits.
        let beat = Closure::<dyn FnMut()>::new({
            let scope = scope.clone();
            move || {
                let _ = scope.post_message(&"beat".into());
            }
        });
        let _ = scope.set_interval_with_callback_and_timeout_and_arguments_0(
            beat.as_ref().unchecked_ref(),
            1000,
        );
        beat.forget();

        // Messages posted before the module loaded are lost: the page waits for this one.
        let _ = scope.post_message(&"ready".into());
    }
}
