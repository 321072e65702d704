//! The runtime's clock and its turns with the event loop: seconds on a monotonic clock, waits
//! that let a browser's event loop run, and time limits on work that may never finish.

/// Whether a running cell must hand the thread back now and then: in the browser, where the
/// event loop delivers a Stop request; natively the caller owns its thread.
pub const YIELDS: bool = cfg!(target_arch = "wasm32");

/// `work`'s outcome, if it comes within `seconds` in the browser (on its timer; `None` past
/// them); natively it is awaited to the end.
pub async fn within<T>(seconds: f64, work: impl std::future::Future<Output = T>) -> Option<T> {
    #[cfg(target_arch = "wasm32")]
    {
        let mut work = std::pin::pin!(work);
        let mut timer = std::pin::pin!(timeout(seconds * 1000.0));
        std::future::poll_fn(|cx| match work.as_mut().poll(cx) {
            std::task::Poll::Ready(done) => std::task::Poll::Ready(Some(done)),
            std::task::Poll::Pending => timer.as_mut().poll(cx).map(|()| None),
        })
        .await
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = seconds;
        Some(work.await)
    }
}

/// Hands the thread to the event loop for one turn (`setTimeout(0)`); natively, nothing.
pub async fn yield_to_event_loop() {
    #[cfg(target_arch = "wasm32")]
    timeout(0.0).await;
}

/// Waits `seconds`: in the browser on a timer, letting the event loop run, or where the cell may
/// not yield (a spawned rank, which `World::run` polls without an event loop) by watching the
/// clock; natively by sleeping the thread (the native runtime owns its thread).
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_variables))]
pub async fn wait(seconds: f64, may_yield: bool) {
    #[cfg(target_arch = "wasm32")]
    if may_yield {
        timeout(seconds * 1000.0).await;
    } else {
        let until = self::seconds() + seconds;
        while self::seconds() < until {}
    }
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_secs_f64(seconds.max(0.0)));
}

/// A `setTimeout` of `ms` milliseconds, awaited.
#[cfg(target_arch = "wasm32")]
async fn timeout(ms: f64) {
    {
        use wasm_bindgen::JsCast;
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let global = js_sys::global();
            let set_timeout = js_sys::Reflect::get(&global, &"setTimeout".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            let scheduled =
                set_timeout.is_some_and(|f| f.call2(&global, &resolve, &ms.into()).is_ok());
            if !scheduled {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}

/// Seconds since the Unix epoch (`time.time()`).
pub fn epoch_seconds() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    }
}

/// Seconds on a monotonic clock (the browser's `Date.now()` in wasm).
pub fn seconds() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}
