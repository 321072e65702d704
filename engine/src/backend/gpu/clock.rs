//! Microseconds on a monotonic clock, for timing sync waits (the browser's `performance` clock
//! is not reachable from every worker, so wasm uses `Date.now()`).

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn now_us() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
        * 1e6
}

#[cfg(target_arch = "wasm32")]
pub(crate) fn now_us() -> f64 {
    js_sys::Date::now() * 1e3
}
