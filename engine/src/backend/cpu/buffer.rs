//! Result buffers of the CPU kernels. A large fresh buffer is backed by transparent huge pages on
//! Linux (the hint numpy gives too): filling a new 64 MiB result then takes 32 page faults instead
//! of 16,384, which is most of what a large elementwise op costs.

/// Buffers from this size up ask for huge pages (numpy's threshold).
#[cfg(target_os = "linux")]
const HUGE_PAGE_THRESHOLD: usize = 4 << 20;

/// Collects a kernel's results into a buffer of exactly their number.
pub fn collect<T>(values: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::with_capacity(values.len());
    advise_huge_pages(&mut out);
    out.extend(values);
    out
}

#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(buffer: &mut Vec<T>) {
    const PAGE: usize = 4096;
    let bytes = buffer.capacity() * size_of::<T>();
    if bytes < HUGE_PAGE_THRESHOLD {
        return;
    }
    let start = buffer.as_mut_ptr() as usize;
    let first_page = start.next_multiple_of(PAGE);
    let length = (start + bytes - first_page) / PAGE * PAGE;
    // SAFETY: the range is whole pages inside the buffer's own allocation, and MADV_HUGEPAGE only
    // changes how the kernel backs those pages, never their contents. A refusal (an old kernel,
    // huge pages switched off) leaves ordinary pages, so the result is ignored.
    unsafe {
        libc::madvise(first_page as *mut libc::c_void, length, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_buffer: &mut Vec<T>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collect_keeps_every_value_in_order_for_small_and_huge_page_sized_buffers() {
        for n in [0usize, 3, 3 << 20] {
            let out = collect((0..n).map(|i| i as u32));
            assert_eq!(out.len(), n);
            assert!(out.iter().enumerate().all(|(i, &v)| v == i as u32));
        }
    }
}
