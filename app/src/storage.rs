//! The browser's local storage, which may refuse (private windows, a full quota): then nothing
//! is kept, and nothing fails.

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The text saved under `key`.
pub fn load(key: &str) -> Option<String> {
    local()?.get_item(key).ok().flatten()
}

/// Saves `value` under `key`.
pub fn save(key: &str, value: &str) {
    if let Some(storage) = local() {
        let _ = storage.set_item(key, value);
    }
}

/// Forgets what is saved under `key`.
pub fn remove(key: &str) {
    if let Some(storage) = local() {
        let _ = storage.remove_item(key);
    }
}
