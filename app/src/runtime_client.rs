//! The app's side of the message boundary: it sends [`Request`]s and gets [`Reply`]s.
//!
//! The runtime runs on the page's thread for now; moving it into a Web Worker (DESIGN.md) changes
//! only this module. Requests are answered one at a time, in the order they were sent, as a worker
//! would answer them.

use std::rc::Rc;

use futures::lock::Mutex;
use leptos::prelude::*;
use tolab_cells::{Reply, Request, Runtime};

#[derive(Clone)]
pub struct RuntimeClient {
    runtime: Rc<Mutex<Runtime>>,
}

impl RuntimeClient {
    pub fn new() -> Self {
        Self {
            runtime: Rc::new(Mutex::new(Runtime::new())),
        }
    }

    pub async fn send(&self, request: Request) -> Reply {
        self.runtime.lock().await.handle(request).await
    }
}

/// Makes one runtime client available to every component below the caller.
pub fn provide_runtime_client() {
    // The runtime holds GPU handles, which are not `Send` in the browser: keep it in local storage.
    provide_context(StoredValue::new_local(RuntimeClient::new()));
}

/// The runtime client provided by [`provide_runtime_client`].
pub fn use_runtime_client() -> RuntimeClient {
    expect_context::<StoredValue<RuntimeClient, LocalStorage>>().get_value()
}
