//! The app's side of the message boundary: it sends [`Request`]s to the runtime's Web Worker
//! (`src/bin/tolab-worker.rs`) and gets [`Reply`]s back, matched by id. `app/js/boot.js` starts the
//! first worker before the app's own module loads (`window.tolabRuntime`: the worker and the
//! messages it sent before the app listened), and the client adopts it. Requests sent before the
//! worker is ready wait in a queue. A running cell's [`Reply::Progress`] goes to its request's
//! watcher.
//!
//! The client also keeps the runtime alive, as a notebook's kernel manager does. It replaces the
//! worker (`window.tolabStartRuntime`) when it dies (`error`, `messageerror`, a reply it cannot
//! read), when it stays silent (no heartbeat) while a request waits, when it is not ready in time
//! after a start, and when a Stop is not answered within a second. Every request still waiting
//! is then answered with [`Reply::Restarted`], and the machine the learner set up is configured
//! again on the new worker.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use leptos::prelude::*;
use tolab_cells::{Progress, Reply, ReplyEnvelope, Request, RequestEnvelope};
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// How long a new worker may take to say it is ready (downloading and compiling its module; a
/// start now and then never finishes in headless Chromium, about one in fifty). A second start
/// finds the module in the browser's cache.
const HANDSHAKE_MS: f64 = 15_000.0;
/// How many times a worker that does not get ready is started again before the page gives up.
const HANDSHAKE_TRIES: u32 = 3;
/// How long a worker with a request waiting may stay silent: it posts a heartbeat every second
/// whenever its event loop runs (a running cell yields to it every few tens of milliseconds).
const SILENCE_MS: f64 = 10_000.0;
/// How long a Stop has to end the running request before the worker is replaced.
const STOP_MS: f64 = 1_000.0;
/// How often the watchdog looks.
const WATCH_EVERY_MS: i32 = 250;

#[derive(Clone)]
pub struct RuntimeClient {
    link: Rc<Link>,
}

struct Link {
    /// This link, for a restart to attach the new worker to.
    me: Weak<Link>,
    worker: RefCell<Option<Worker>>,
    /// Why no worker can be had at all (the page could not start one, or gave up).
    broken: RefCell<Option<String>>,
    ready: Cell<bool>,
    /// Requests posted before the worker said it was ready.
    waiting: RefCell<Vec<String>>,
    pending: RefCell<HashMap<u64, Pending>>,
    next_id: Cell<u64>,
    /// When the worker was started, and when it was last heard from (ms on `Date.now()`).
    started: Cell<f64>,
    heard: Cell<f64>,
    /// Starts of this worker that did not get ready in time.
    failed_starts: Cell<u32>,
    /// A Stop's deadline, and the requests it must have ended by then.
    stop: RefCell<Option<(f64, Vec<u64>)>>,
    /// The worker's event handlers, kept alive while it lives.
    handlers: RefCell<Vec<Handler>>,
    /// How many times the worker was replaced (shown to tests as `data-runtime-restarts`).
    restarts: Cell<u32>,
}

/// A worker's event handler.
type Handler = Closure<dyn FnMut(JsValue)>;

/// A request waiting for its final reply, and who watches its progress meanwhile.
struct Pending {
    answer: oneshot::Sender<Reply>,
    watcher: Option<Rc<dyn Fn(Progress)>>,
}

fn now() -> f64 {
    js_sys::Date::now()
}

impl RuntimeClient {
    pub fn new() -> Self {
        let link = Rc::new_cyclic(|me| Link {
            me: me.clone(),
            worker: RefCell::default(),
            broken: RefCell::default(),
            ready: Cell::new(false),
            waiting: RefCell::default(),
            pending: RefCell::default(),
            next_id: Cell::new(1),
            started: Cell::new(now()),
            heard: Cell::new(now()),
            failed_starts: Cell::new(0),
            stop: RefCell::default(),
            handlers: RefCell::default(),
            restarts: Cell::new(0),
        });
        match adopt_worker("tolabRuntime") {
            Ok((worker, early, failed)) => {
                Link::attach(&link, worker);
                // Nothing is lost between boot.js's listener and the client's: both run on
                // this thread.
                for text in early {
                    link.receive(&text);
                }
                if let Some(reason) = failed {
                    link.restart(&format!("the runtime crashed as it started: {reason}"));
                }
            }
            Err(reason) => *link.broken.borrow_mut() = Some(reason),
        }
        Link::watch(&link);
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
        if let Some(reason) = link.broken.borrow().clone() {
            return Reply::Unavailable { reason };
        }
        let id = link.next_id.get();
        link.next_id.set(id + 1);
        let (answer, answered) = oneshot::channel();
        link.pending
            .borrow_mut()
            .insert(id, Pending { answer, watcher });
        link.post(serde_json::to_string(&RequestEnvelope { id, request }).unwrap_or_default());
        answered.await.unwrap_or_else(|_| Reply::Unavailable {
            reason: "the runtime worker stopped answering".into(),
        })
    }

    /// Stops the running cell. If it has not ended within a second (a long engine call, a
    /// runtime that hangs), the worker is replaced, so that Stop always works.
    pub async fn stop(&self) -> Reply {
        let running: Vec<u64> = self.link.pending.borrow().keys().copied().collect();
        if !running.is_empty() {
            *self.link.stop.borrow_mut() = Some((now() + STOP_MS, running));
        }
        self.send(Request::Stop).await
    }
}

impl Link {
    /// Listens to `worker` (messages, errors) as this link's runtime.
    fn attach(link: &Rc<Link>, worker: Worker) {
        let weak = Rc::downgrade(link);
        let on_message = Closure::<dyn FnMut(JsValue)>::new({
            let weak = weak.clone();
            move |event: JsValue| {
                let Some(link) = weak.upgrade() else { return };
                match event
                    .dyn_into::<MessageEvent>()
                    .ok()
                    .and_then(|e| e.data().as_string())
                {
                    Some(text) => link.receive(&text),
                    None => link.restart("the runtime sent a message the page could not read"),
                }
            }
        });
        let on_error = Closure::<dyn FnMut(JsValue)>::new({
            let weak = weak.clone();
            move |event: JsValue| {
                let Some(link) = weak.upgrade() else { return };
                let message = event
                    .dyn_ref::<ErrorEvent>()
                    .map(|e| {
                        e.prevent_default();
                        e.message()
                    })
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| "an error it did not describe".into());
                link.restart(&format!("the runtime crashed: {message}"));
            }
        });
        let on_message_error = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
            if let Some(link) = weak.upgrade() {
                link.restart("the runtime sent a message the page could not read");
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        worker.set_onmessageerror(Some(on_message_error.as_ref().unchecked_ref()));
        *link.handlers.borrow_mut() = vec![on_message, on_error, on_message_error];
        *link.worker.borrow_mut() = Some(worker);
        link.ready.set(false);
        link.started.set(now());
        link.heard.set(now());
    }

    /// Posts `text` to the worker, or queues it until the worker is ready.
    fn post(&self, text: String) {
        if self.ready.get()
            && let Some(worker) = self.worker.borrow().as_ref()
        {
            let _ = worker.post_message(&text.into());
        } else {
            self.waiting.borrow_mut().push(text);
        }
    }

    fn receive(&self, text: &str) {
        self.heard.set(now());
        match text {
            "beat" => return,
            "ready" => {
                self.ready.set(true);
                self.failed_starts.set(0);
                if let Some(worker) = self.worker.borrow().as_ref() {
                    for waiting in self.waiting.take() {
                        let _ = worker.post_message(&waiting.into());
                    }
                }
                return;
            }
            _ => {}
        }
        let Ok(ReplyEnvelope { id, reply }) = serde_json::from_str(text) else {
            self.restart("the runtime sent a reply the page could not read");
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

    /// Replaces the worker with a fresh one: every request it had been sent is answered with
    /// [`Reply::Restarted`] (`reason` says why), and the learner's machine is configured again.
    /// A worker that never got ready had been sent nothing: its requests wait for the new one.
    fn restart(&self, reason: &str) {
        if let Some(old) = self.worker.borrow_mut().take() {
            old.terminate();
        }
        self.handlers.borrow_mut().clear();
        let never_ready = !self.ready.get();
        let unsent = if never_ready {
            self.waiting.take()
        } else {
            self.waiting.borrow_mut().clear();
            Vec::new()
        };
        *self.stop.borrow_mut() = None;
        self.restarts.set(self.restarts.get() + 1);
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("data-runtime-restarts", &self.restarts.get().to_string());
        }
        leptos::logging::log!("the lab's runtime was restarted: {reason}");
        if !never_ready {
            let pending: Vec<Pending> = self.pending.borrow_mut().drain().map(|(_, p)| p).collect();
            for waiting in pending {
                let _ = waiting.answer.send(Reply::Restarted {
                    reason: reason.to_owned(),
                });
            }
        }
        let Some(link) = self.me.upgrade() else {
            return;
        };
        match adopt_worker_fresh() {
            Ok((worker, early, failed)) => {
                Link::attach(&link, worker);
                if let Some(settings) = crate::pages::saved_settings() {
                    let text = serde_json::to_string(&RequestEnvelope {
                        id: 0,
                        request: Request::Configure { settings },
                    })
                    .unwrap_or_default();
                    link.post(text);
                }
                for text in unsent {
                    link.post(text);
                }
                for text in early {
                    link.receive(&text);
                }
                if let Some(reason) = failed {
                    *link.broken.borrow_mut() =
                        Some(format!("the runtime could not be started again: {reason}"));
                }
            }
            Err(reason) => *link.broken.borrow_mut() = Some(reason),
        }
    }

    /// Looks every quarter of a second for a worker that is not ready in time, silent while a
    /// request waits, or deaf to a Stop.
    fn watch(link: &Rc<Link>) {
        let weak = Rc::downgrade(link);
        let tick = Closure::<dyn FnMut()>::new(move || {
            if let Some(link) = weak.upgrade() {
                link.check();
            }
        });
        if let Some(window) = web_sys::window() {
            let _ = window.set_interval_with_callback_and_timeout_and_arguments_0(
                tick.as_ref().unchecked_ref(),
                WATCH_EVERY_MS,
            );
        }
        tick.forget();
    }

    fn check(&self) {
        if self.broken.borrow().is_some() || self.worker.borrow().is_none() {
            return;
        }
        let now = now();
        if !self.ready.get() {
            if now - self.started.get() > HANDSHAKE_MS {
                let tries = self.failed_starts.get() + 1;
                if tries >= HANDSHAKE_TRIES {
                    *self.broken.borrow_mut() = Some(format!(
                        "the runtime did not start ({tries} tries of {} s each)",
                        HANDSHAKE_MS / 1000.0
                    ));
                    let pending: Vec<Pending> =
                        self.pending.borrow_mut().drain().map(|(_, p)| p).collect();
                    for waiting in pending {
                        let _ = waiting.answer.send(Reply::Unavailable {
                            reason: self.broken.borrow().clone().unwrap_or_default(),
                        });
                    }
                    return;
                }
                self.restart("the runtime did not get ready in time");
                self.failed_starts.set(tries);
            }
            return;
        }
        let stop_missed = self
            .stop
            .borrow()
            .as_ref()
            .is_some_and(|(deadline, running)| {
                now > *deadline
                    && running
                        .iter()
                        .any(|id| self.pending.borrow().contains_key(id))
            });
        if stop_missed {
            self.restart("the runtime did not stop within a second");
            return;
        }
        if self
            .stop
            .borrow()
            .as_ref()
            .is_some_and(|(deadline, _)| now > *deadline)
        {
            *self.stop.borrow_mut() = None;
        }
        if !self.pending.borrow().is_empty() && now - self.heard.get() > SILENCE_MS {
            self.restart(&format!(
                "the runtime did not answer for {} s",
                SILENCE_MS / 1000.0
            ));
        }
    }
}

/// A worker `app/js/boot.js` started (`window[field]`), the messages it posted before the app
/// listened, and why it failed meanwhile, if it did.
fn adopt_worker(field: &str) -> Result<(Worker, Vec<String>, Option<String>), String> {
    let window = web_sys::window().ok_or("no window")?;
    let runtime = js_sys::Reflect::get(&window, &field.into())
        .ok()
        .filter(|r| r.is_object())
        .ok_or("the page did not start the runtime worker")?;
    from_runtime(&runtime)
}

/// A new worker from `window.tolabStartRuntime()`.
fn adopt_worker_fresh() -> Result<(Worker, Vec<String>, Option<String>), String> {
    let window = web_sys::window().ok_or("no window")?;
    let start = js_sys::Reflect::get(&window, &"tolabStartRuntime".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("the page cannot start a runtime worker")?;
    let runtime = start
        .call0(&window)
        .map_err(|e| format!("cannot start the runtime worker: {e:?}"))?;
    let _ = js_sys::Reflect::set(&window, &"tolabRuntime".into(), &runtime);
    from_runtime(&runtime)
}

fn from_runtime(runtime: &JsValue) -> Result<(Worker, Vec<String>, Option<String>), String> {
    let field = |name: &str| js_sys::Reflect::get(runtime, &name.into()).unwrap_or_default();
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
    Ok((worker, early, field("failed").as_string()))
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
