//! The app's side of the message boundary: it sends [`Request`]s to the runtime's Web Worker
//! (`src/bin/tolab-worker.rs`) and gets [`Reply`]s back, matched by id. `index.html` starts the
//! worker before the app's own module loads (`window.tolabRuntime`: the worker and the messages it
//! sent before the app listened), and the client adopts it. Requests sent before the worker is
//! ready wait in a queue; if the worker could not start, every request is answered with
//! [`Reply::Unavailable`]. A running cell's [`Reply::Progress`] goes to its request's watcher.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures::channel::oneshot;
use leptos::prelude::*;
use tolab_cells::{Progress, Reply, ReplyEnvelope, Request, RequestEnvelope};
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker};

#[derive(Clone)]
pub struct RuntimeClient {
    link: Rc<Link>,
}

struct Link {
    worker: Result<Worker, String>,
    ready: Cell<bool>,
    /// Requests posted before the worker said it was ready.
    waiting: RefCell<Vec<String>>,
    pending: RefCell<HashMap<u64, Pending>>,
    next_id: Cell<u64>,
}

/// A request waiting for its final reply, and who watches its progress meanwhile.
struct Pending {
    answer: oneshot::Sender<Reply>,
    watcher: Option<Rc<dyn Fn(Progress)>>,
}

impl RuntimeClient {
    pub fn new() -> Self {
        let (worker, early) = match adopt_worker() {
            Ok((worker, early)) => (Ok(worker), early),
            Err(reason) => (Err(reason), Vec::new()),
        };
        let link = Rc::new(Link {
            worker,
            ready: Cell::new(false),
            waiting: RefCell::default(),
            pending: RefCell::default(),
            next_id: Cell::new(1),
        });
        if let Ok(worker) = &link.worker {
            let weak = Rc::downgrade(&link);
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if let (Some(link), Some(text)) = (weak.upgrade(), event.data().as_string()) {
                    link.receive(&text);
                }
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            on_message.forget();
        }
        // Only "ready" comes before the first request; nothing is lost between the two listeners,
        // as both run on this thread.
        for text in early {
            link.receive(&text);
        }
        Self { link }
    }

    pub async fn send(&self, request: Request) -> Reply {
        self.send_watching(request, None).await
    }

    /// Sends `request`; `watcher` hears each progress report of the cell it runs before the final
    /// reply comes back.
    pub async fn send_watching(
        &self,
        request: Request,
        watcher: Option<Rc<dyn Fn(Progress)>>,
    ) -> Reply {
        let link = &self.link;
        let worker = match &link.worker {
            Ok(worker) => worker,
            Err(reason) => {
                return Reply::Unavailable {
                    reason: reason.clone(),
                };
            }
        };
        let id = link.next_id.get();
        link.next_id.set(id + 1);
        let (answer, answered) = oneshot::channel();
        link.pending
            .borrow_mut()
            .insert(id, Pending { answer, watcher });
        let text = serde_json::to_string(&RequestEnvelope { id, request }).unwrap_or_default();
        if link.ready.get() {
            let _ = worker.post_message(&text.into());
        } else {
            link.waiting.borrow_mut().push(text);
        }
        answered.await.unwrap_or_else(|_| Reply::Unavailable {
            reason: "the runtime worker stopped answering".into(),
        })
    }
}

impl Link {
    fn receive(&self, text: &str) {
        if text == "ready" {
            self.ready.set(true);
            if let Ok(worker) = &self.worker {
                for waiting in self.waiting.take() {
                    let _ = worker.post_message(&waiting.into());
                }
            }
            return;
        }
        let Ok(ReplyEnvelope { id, reply }) = serde_json::from_str(text) else {
            return;
        };
        if let Reply::Progress(progress) = reply {
            // Called outside the borrow: a watcher may send requests of its own.
            let watcher = self
                .pending
                .borrow()
                .get(&id)
                .and_then(|p| p.watcher.clone());
            if let Some(watcher) = watcher {
                watcher(progress);
            }
        } else if let Some(pending) = self.pending.borrow_mut().remove(&id) {
            let _ = pending.answer.send(reply);
        }
    }
}

/// The worker `index.html` started, and the messages it posted before the app listened.
fn adopt_worker() -> Result<(Worker, Vec<String>), String> {
    let window = web_sys::window().ok_or("no window")?;
    let runtime = js_sys::Reflect::get(&window, &"tolabRuntime".into())
        .ok()
        .filter(|r| r.is_object())
        .ok_or("the page did not start the runtime worker")?;
    let field = |name: &str| js_sys::Reflect::get(&runtime, &name.into()).unwrap_or_default();
    if let Some(error) = field("error").as_string() {
        return Err(format!("cannot start the runtime worker: {error}"));
    }
    let worker = field("worker")
        .dyn_into::<Worker>()
        .map_err(|_| "the page did not start the runtime worker")?;
    let early = js_sys::Array::from(&field("early"))
        .iter()
        .filter_map(|m| m.as_string())
        .collect();
    Ok((worker, early))
}

/// Makes one runtime client available to every component below the caller.
pub fn provide_runtime_client() {
    let client = RuntimeClient::new();
    // The machine the learner set up in the device panel, before any cell runs.
    if let Some(settings) = crate::pages::saved_settings() {
        let client = client.clone();
        leptos::task::spawn_local(async move {
            client.send(Request::Configure { settings }).await;
        });
    }
    // The worker handle is a JS object, not `Send`: keep it in local storage.
    provide_context(StoredValue::new_local(client));
}

/// The runtime client provided by [`provide_runtime_client`].
pub fn use_runtime_client() -> RuntimeClient {
    expect_context::<StoredValue<RuntimeClient, LocalStorage>>().get_value()
}
