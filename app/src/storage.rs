//! The browser's local storage, which may refuse (private windows, a full quota, a third-party
//! frame): then nothing is kept, and nothing fails. Keys are scoped to the site's base path
//! ([`crate::site::storage_key`]).

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The text saved under `key`.
pub fn load(key: &str) -> Option<String> {
    local()?
        .get_item(&crate::site::storage_key(key))
        .ok()
        .flatten()
}

/// Saves `value` under `key`.
pub fn save(key: &str, value: &str) {
    if let Some(storage) = local() {
        let _ = storage.set_item(&crate::site::storage_key(key), value);
    }
}

/// Forgets what is saved under `key`.
pub fn remove(key: &str) {
    if let Some(storage) = local() {
        let _ = storage.remove_item(&crate::site::storage_key(key));
    }
}
